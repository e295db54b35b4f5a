import { OPERATE_AUTH, USER_AUTH, allEndpoints, type EndpointSpec } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { buildings, devices, gateways, groups, maps, projects, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { ProjectScope } from '../../http/auth.ts';
import { freshPglite } from '../../test/database-templates.ts';
import { createAccess, found, toId, type AccessCaller } from './access.ts';
import { createAccessRepo } from './access.repo.ts';
import { ownedReads } from '../../owned-reads.ts';

/** One account's installation: a project with a building and a map, a gateway, a device and a group on that map. */
interface Site {
  tenantId: bigint;
  project: bigint;
  building: bigint;
  map: bigint;
  gateway: bigint;
  device: bigint;
  group: bigint;
}

let serial = 0;

async function buildSite(database: Database, account: string): Promise<Site> {
  const { db } = database;
  const [user] = await db
    .insert(users)
    .values({ account, name: account, passwordHash: 'x', userAuth: USER_AUTH.account, operateAuth: OPERATE_AUTH.owner })
    .returning();
  const tenantId = user!.id;
  const [project] = await db
    .insert(projects)
    .values({ tenantId, name: `${account} project` })
    .returning();
  const [building] = await db.insert(buildings).values({ tenantId, projectId: project!.id, name: 'Hall' }).returning();
  const [map] = await db.insert(maps).values({ tenantId, projectId: project!.id, buildId: building!.id, name: 'Floor' }).returning();
  serial += 1;
  const mac = `AA:BB:CC:00:00:${String(serial).padStart(2, '0')}`;
  const [gateway] = await db.insert(gateways).values({ tenantId, mapId: map!.id, mac }).returning();
  const [device] = await db
    .insert(devices)
    .values({ tenantId, gatewayId: gateway!.id, mapId: map!.id, addr: '0001', kind: 'light-cct', type: 1, name: 'Light' })
    .returning();
  const [group] = await db.insert(groups).values({ tenantId, gatewayId: gateway!.id, mapId: map!.id, name: 'Zone', number: 1 }).returning();
  return {
    tenantId,
    project: project!.id,
    building: building!.id,
    map: map!.id,
    gateway: gateway!.id,
    device: device!.id,
    group: group!.id,
  };
}

const owner = (tenantId: bigint, scope?: ProjectScope): AccessCaller => ({
  tenantId,
  operateAuth: OPERATE_AUTH.owner,
  userAuth: scope ? USER_AUTH.subAccount : USER_AUTH.account,
  ...(scope ? { scope } : {}),
});

async function refusal(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('the access module on PGlite', () => {
  let database: Database;
  let a: Site;
  let b: Site;
  let access: ReturnType<typeof createAccess>;

  beforeAll(async () => {
    database = await freshPglite();
    a = await buildSite(database, 'access-a');
    b = await buildSite(database, 'access-b');
    access = createAccess({ repo: createAccessRepo(database.db, ownedReads) });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('answers, per kind, exactly the ids of the caller\u2019s account in one set', async () => {
    for (const kind of ['project', 'building', 'map', 'gateway', 'device', 'group'] as const) {
      const allowed = await access.checkAccess(owner(a.tenantId), 'read', kind, [a[kind], b[kind], 987654321n]);
      expect([...allowed], kind).toEqual([a[kind]]);
    }
  });

  it('limits a sub-account to its projects, and to the maps in them for what stands on a map', async () => {
    const { db } = database;
    const [other] = await db.insert(projects).values({ tenantId: a.tenantId, name: 'Not given' }).returning();
    const given = owner(a.tenantId, { projectIds: new Set([a.project]), mapIds: new Set([a.map]) });
    const elsewhere = owner(a.tenantId, { projectIds: new Set([other!.id]), mapIds: new Set() });
    expect([...(await access.checkAccess(given, 'read', 'project', [a.project, other!.id]))]).toEqual([a.project]);
    for (const kind of ['building', 'map', 'gateway', 'device', 'group'] as const) {
      expect(await access.checkAccess(given, 'read', kind, [a[kind]]), kind).toEqual(new Set([a[kind]]));
      expect(await access.checkAccess(elsewhere, 'read', kind, [a[kind]]), kind).toEqual(new Set());
    }
  });

  it('hides a device on no map from a limited sub-account, not from the account', async () => {
    const [loose] = await database.db
      .insert(devices)
      .values({ tenantId: a.tenantId, gatewayId: a.gateway, mapId: null, addr: '0002', kind: 'light-cct', type: 1, name: 'Unplaced' })
      .returning();
    const given = owner(a.tenantId, { projectIds: new Set([a.project]), mapIds: new Set([a.map]) });
    expect(await access.checkAccess(owner(a.tenantId), 'read', 'device', [loose!.id])).toEqual(new Set([loose!.id]));
    expect(await access.checkAccess(given, 'read', 'device', [loose!.id])).toEqual(new Set());
  });

  it('refuses without the authority first (110003), then any id not the caller\u2019s (110011)', async () => {
    const viewer: AccessCaller = { tenantId: a.tenantId, operateAuth: OPERATE_AUTH.viewOnly };
    expect(await refusal(access.requireAccess(viewer, 'write', 'group', [String(b.group)]))).toBe(110003);
    expect(await access.checkAccess(viewer, 'write', 'group', [a.group])).toEqual(new Set());
    expect(await access.requireAccess(viewer, 'read', 'group', [String(a.group), a.group])).toEqual([a.group]);
    expect(await refusal(access.requireAccess(owner(a.tenantId), 'write', 'group', [String(a.group), String(b.group)]))).toBe(110011);
    expect(await refusal(access.requireOne(owner(a.tenantId), 'read', 'map', '9999999999999999999'))).toBe(110011);
    expect(await refusal(access.requireOne(owner(a.tenantId), 'read', 'map', '0'))).toBe(110011);
  });

  it('checks the ids an endpoint declares in params, query and body, lists included, and skips absent fields', async () => {
    const caller = owner(a.tenantId);
    const objects = { params: { id: 'map' }, body: { gatewayId: 'gateway', deviceIds: 'device' } } as const;
    await access.requireObjects(caller, 'write', objects, {
      params: { id: String(a.map) },
      body: { gatewayId: String(a.gateway), deviceIds: [String(a.device)] },
    });
    await access.requireObjects(caller, 'write', objects, { params: { id: String(a.map) }, body: { gatewayId: null } });
    const intruding = access.requireObjects(caller, 'write', objects, {
      params: { id: String(a.map) },
      body: { gatewayId: String(a.gateway), deviceIds: [String(a.device), String(b.device)] },
    });
    expect(await refusal(intruding)).toBe(110011);
  });

  it('answers a vanished row as not the caller\u2019s, and an id past 64 bits likewise', () => {
    expect(found({ id: 1n })).toEqual({ id: 1n });
    expect(() => found(undefined)).toThrow('business error 110011');
    expect(() => toId('9223372036854775808')).toThrow('business error 110011');
    expect(toId('9223372036854775807')).toBe(2n ** 63n - 1n);
  });
});

describe('the endpoint table\u2019s object declarations', () => {
  const declaring = allEndpoints().filter((e): e is EndpointSpec & Required<Pick<EndpointSpec, 'objects'>> => e.objects !== undefined);

  it('name only fields the request schema has, on endpoints that need a caller', () => {
    expect(declaring.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const e of declaring) {
      if (e.access === 'public') wrong.push(`${e.path}: public`);
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = e[part] as { properties?: Record<string, unknown> } | undefined;
        for (const field of Object.keys(e.objects[part] ?? {}))
          if (!schema?.properties?.[field]) wrong.push(`${e.method} ${e.path}: ${part}.${field}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
