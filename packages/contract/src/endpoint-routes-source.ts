import { routeOf, type EndpointSpec } from './endpoint.ts';
import * as endpoints from './endpoints/index.ts';
import { ENDPOINT_GROUPS } from './endpoints/index.ts';

/** The endpoint tables of the contract by their exported names (`authEndpoints`). */
export function endpointTables(): Array<[name: string, table: Record<string, EndpointSpec>]> {
  return Object.entries(endpoints)
    .filter(([name, table]) => name.endsWith('Endpoints') && typeof table === 'object')
    .map(([name, table]) => [name, table as Record<string, EndpointSpec>]);
}

/** The text of src/endpoint-routes.ts, before formatting: every table as routes, typed by its declaration. */
export function routeTablesSource(): string {
  const tables = endpointTables().map(([name, table]) => {
    const rows = Object.entries(table).map(([key, spec]) => `${key}: ${JSON.stringify(routeOf(spec))},`);
    return `export const ${name}: RouteTable<typeof Endpoints.${name}> = {\n${rows.join('\n')}\n};`;
  });
  return [
    '// Generated from the endpoint tables (src/endpoints) by `npm run routes`; endpoint-routes.test.ts holds them equal.',
    '// The browser calls through these: their types are the full declarations, their values carry no schema.',
    "import type * as Endpoints from './endpoints/index.ts';",
    "import type { RouteTable } from './endpoint.ts';",
    '',
    ...tables,
    '',
  ].join('\n');
}

/** The text of src/endpoint-summaries.ts, before formatting: the table's domains and each endpoint's summary by its id. */
export function summariesSource(): string {
  const rows = Object.entries(ENDPOINT_GROUPS).flatMap(([domain, group]) =>
    Object.entries(group as Record<string, EndpointSpec>).map(
      ([name, spec]) => `${JSON.stringify(`${domain}.${name}`)}: ${JSON.stringify(spec.summary)},`,
    ),
  );
  return [
    '// Generated from the endpoint tables (src/endpoints) by `npm run routes`; endpoint-routes.test.ts holds them equal.',
    '// What the audit trail shows of the table, without loading its schemas.',
    "import type { ENDPOINT_GROUPS } from './endpoints/index.ts';",
    '',
    '/** The domains of the endpoint table, in its order. */',
    `export const ENDPOINT_DOMAINS: ReadonlyArray<keyof typeof ENDPOINT_GROUPS> = ${JSON.stringify(Object.keys(ENDPOINT_GROUPS))};`,
    '',
    "/** Each endpoint's one-line summary by its id in the table (`devices.control`, as endpointId names it). */",
    `export const ENDPOINT_SUMMARIES: Readonly<Record<string, string>> = {\n${rows.join('\n')}\n};`,
    '',
  ].join('\n');
}
