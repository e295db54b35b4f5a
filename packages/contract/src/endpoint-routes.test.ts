import { describe, expect, it } from 'vitest';
import { routeOf } from './endpoint.ts';
import * as routes from './endpoint-routes.ts';
import { endpointTables } from './endpoint-routes-source.ts';
import { ENDPOINT_DOMAINS, ENDPOINT_SUMMARIES } from './endpoint-summaries.ts';
import { ENDPOINT_GROUPS, allEndpoints, endpointId } from './endpoints/index.ts';

describe('endpoint routes', () => {
  it('name every table of the contract and nothing else', () => {
    expect(Object.keys(routes).sort()).toEqual(
      endpointTables()
        .map(([name]) => name)
        .sort(),
    );
  });

  it("give every endpoint the declaration's method, path, access and kind", () => {
    const byName = routes as unknown as Record<string, Record<string, unknown>>;
    let compared = 0;
    for (const [name, table] of endpointTables()) {
      // `npm run routes` writes them again after a change of the tables.
      expect(Object.keys(byName[name] ?? {}), name).toEqual(Object.keys(table));
      for (const [key, spec] of Object.entries(table)) {
        expect(byName[name]?.[key], `${name}.${key}`).toEqual(routeOf(spec));
        compared++;
      }
    }
    expect(compared).toBe(allEndpoints().length);
  });

  it("give the audit trail every domain and every endpoint's summary", () => {
    expect(ENDPOINT_DOMAINS).toEqual(Object.keys(ENDPOINT_GROUPS));
    expect(ENDPOINT_SUMMARIES).toEqual(Object.fromEntries(allEndpoints().map((e) => [endpointId(e), e.summary])));
  });
});
