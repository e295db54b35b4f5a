import {
  accountEndpoints,
  alarmEndpoints,
  alertEndpoints,
  auditEndpoints,
  authEndpoints,
  deviceEndpoints,
  emergencyEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  libraryEndpoints,
  projectEndpoints,
  sceneEndpoints,
  virtualEndpoints,
  canSeePush,
  DEFAULT_ALARM_SETTINGS,
} from '@lumigrid/contract';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Gateway, ProjectTree } from '@lumigrid/contract';
import { SIMULATED_KINDS, isMetered } from '@lumigrid/gateway-sim';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { buildings, devices, gateways, mapImages, maps, projects, users } from '../db/schema/index.ts';
import type { App } from '../http/types.ts';
import { data } from '../test/gateways.fixtures.ts';
import { ADMIN_PASSWORD, SERVICE_DATABASES, login, startApp, type Harness, api } from '../test/harness.ts';
import { GATEWAY_ROOMS, GROUPED_KINDS } from './demo-layout.ts';
import { DEMO_FIRMWARE, DEMO_SITE, type DemoOutcome } from './demo-site.ts';
import { DEMO_EMERGENCY } from './demo-history.ts';
import { DEMO_TEMPLATES } from './demo-catalogue.ts';
import { poll } from '../test/poll.ts';

const DEMO_ACCOUNT = 'demo@lumigrid.local';
const DEMO_PASSWORD = 'Demo-Pass-2026';

/** Rows of every table the demo site writes to, so a second start can be shown to add none. */
async function rowCounts(h: Harness) {
  const { db } = h.database;
  const n = async (
    table: typeof users | typeof projects | typeof buildings | typeof maps | typeof mapImages | typeof gateways | typeof devices,
  ) => (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    users: await n(users),
    projects: await n(projects),
    buildings: await n(buildings),
    maps: await n(maps),
    mapImages: await n(mapImages),
    gateways: await n(gateways),
    devices: await n(devices),
  };
}

describe.each(SERVICE_DATABASES)('the simulated demo site on %s', (kind) => {
  let h: Harness;
  let dataDir: string;
  let first: DemoOutcome | undefined;
  let token: string;

  const env = () => ({ DEMO: 'on', DEMO_PASSWORD, HOST: '127.0.0.1', DATA_DIR: dataDir });
  const demoGateways = async (app: App, t: string) =>
    (await data(api(app, gatewayEndpoints.list, { query: { pageSize: 50 } }, { token: t }))).list as Gateway[];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lumigrid-demo-'));
    h = await startApp(kind, env(), { gatewayLink: { port: 0 } });
    first = await h.app.demo!.ready;
    token = await login(h, DEMO_ACCOUNT, DEMO_PASSWORD);
    // The demo site starts 4 gateways and backfills two weeks of their readings.
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the demo account as an account owner', async () => {
    expect(first).toMatchObject({ account: DEMO_ACCOUNT, createdAccount: true });
    const me = await data(api(h.app, accountEndpoints.profile, {}, { token }));
    expect(me).toMatchObject({ account: DEMO_ACCOUNT, mail: DEMO_ACCOUNT, user_auth: 2, operate_auth: 0 });
  });

  it('builds the project, building and map with a floor plan', async () => {
    const tree = await data<ProjectTree>(api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token }));
    const project = tree.projects.find((p) => p.name === DEMO_SITE.project.name)!;
    expect(project).toMatchObject({
      address: DEMO_SITE.project.address,
      longitude: DEMO_SITE.project.longitude,
      latitude: DEMO_SITE.project.latitude,
      isDefault: false,
    });
    expect(project.builds.map((b) => b.name)).toEqual([DEMO_SITE.building]);
    const [map] = project.builds[0]!.maps;
    expect(map).toMatchObject({ name: DEMO_SITE.map, imageWidth: 1600, imageHeight: 1000 });
    const image = await h.app.inject({ method: 'GET', url: map!.image! });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(await readdir(join(dataDir, 'uploads', 'maps'))).toHaveLength(1);
  });

  it('binds its gateways to the map, online over the embedded broker, one of them a super gateway', async () => {
    await poll(async () => (await demoGateways(h.app, token)).every((g) => g.online), 'demo gateways online in the list');
    const list = await demoGateways(h.app, token);
    expect(list.map((g) => g.name).sort()).toEqual([...DEMO_SITE.gateways].sort());
    expect(list.filter((g) => g.superGateway).map((g) => g.name)).toEqual(['Level 3 Super gateway']);
    for (const g of list) {
      expect(g).toMatchObject({ projectName: DEMO_SITE.project.name, buildName: DEMO_SITE.building, mapName: DEMO_SITE.map });
      expect(g.mac.startsWith(DEMO_SITE.macPrefix)).toBe(true);
      expect(g.ip).not.toBe('');
      expect(g.longitude).toBe(DEMO_SITE.project.longitude);
      expect(g.syncedVersion).toBe(g.configVersion);
    }
    expect(h.app.demo!.fleet()!.gateways.every((g) => g.online)).toBe(true);
  });

  it('imports the devices of every family into the devices table', async () => {
    const [demo] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.account, DEMO_ACCOUNT));
    const rows = await h.database.db
      .select({ kind: devices.kind, gatewayId: devices.gatewayId })
      .from(devices)
      .where(eq(devices.tenantId, demo!.id));
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(SIMULATED_KINDS));
    const simulated = h.app.demo!.fleet()!.gateways.reduce((sum, g) => sum + g.devices.size, 0);
    expect(rows).toHaveLength(simulated);
    expect(first!.importedDevices).toBe(simulated);
    // Behind the super gateway every device sits behind one of its bridges.
    const superGateway = (await demoGateways(h.app, token)).find((g) => g.superGateway)!;
    const bridges = await data(
      api(h.app, gatewayEndpoints.superGatewayDevices, { params: { id: superGateway.id, bridgeId: '0' } }, { token }),
    );
    // Its radio bridge and Wi-SUN bridge, and the DALI bridge that joined behind one of them.
    expect(bridges.bridgeQuantity).toBe(3);
  });

  it('places every device in its room of the floor plan and groups the lights of each room', async () => {
    const tree = await data(api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token }));
    const map = tree.projects.flatMap((p) => p.builds.flatMap((b) => b.maps)).find((m) => m.name === DEMO_SITE.map)!;
    const simulated = h.app.demo!.fleet()!.gateways.reduce((n, g) => n + g.devices.size, 0);
    expect(map.deviceCount).toBe(simulated);
    expect(first).toMatchObject({ placedDevices: simulated, createdGroups: DEMO_SITE.gateways.length });
    const markers = await data(api(h.app, deviceEndpoints.markers, { query: { mapId: map.id } }, { token }));
    // Inside the building's outline, and no two devices on the same spot.
    for (const m of markers) {
      expect(m.x! * 1600).toBeGreaterThan(80);
      expect(m.x! * 1600).toBeLessThan(1520);
      expect(m.y! * 1000).toBeGreaterThan(110);
      expect(m.y! * 1000).toBeLessThan(910);
    }
    // The gateways stand in the server room, on spots of their own.
    const gatewaysOnPlan = await demoGateways(h.app, token);
    expect(gatewaysOnPlan.every((g) => g.x !== null && g.y !== null)).toBe(true);
    const spots = [...markers, ...gatewaysOnPlan].map((m) => `${m.x},${m.y}`);
    expect(new Set(spots).size).toBe(markers.length + gatewaysOnPlan.length);
    // Named after their rooms, each name once, so the plan's search and hover tell them apart.
    expect(new Set(markers.map((m) => m.name)).size).toBe(markers.length);
    expect(markers.map((m) => m.name)).toContain(`${GATEWAY_ROOMS[0]!.main} dimmer`);
    expect(markers.filter((m) => m.name.startsWith('Corridor exit light'))).toHaveLength(2 * DEMO_SITE.gateways.length);
    const groups = await data(api(h.app, groupEndpoints.list, { params: { id: map.id } }, { token }));
    expect(groups.map((g) => g.name).sort()).toEqual(GATEWAY_ROOMS.map((r) => `${r.main} lights`).sort());
    expect(groups.every((g) => g.deviceIds.length === GROUPED_KINDS.length)).toBe(true);
  });

  it('runs an evening scene from sunset to sunrise, a weekday cleaning schedule and an "all on" scene on its gateways', async () => {
    expect(first!.createdScenes).toBe(3);
    const tree = await data(api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token }));
    const projectId = tree.projects.find((p) => p.name === DEMO_SITE.project.name)!.id;
    const scenes = await data(api(h.app, sceneEndpoints.page, { body: { projectId } }, { token }));
    expect(scenes.list.map((s) => [s.name, s.kind, s.state]).sort()).toEqual([
      ['All on', 'manual', 'synced'],
      ['Cleaning round', 'groupSchedule', 'synced'],
      ['Evening lights', 'sun', 'synced'],
    ]);
    const evening = scenes.list.find((s) => s.name === 'Evening lights')!;
    expect(evening.parts).toHaveLength(DEMO_SITE.gateways.length);
    expect(evening.nextRun).not.toBeNull();
    // Each gateway runs it on its own clock, at Wellington's sunset and sunrise.
    for (const sim of h.app.demo!.fleet()!.gateways) {
      expect(sim.params).toMatchObject({ timezone: DEMO_SITE.timezone, latitude: DEMO_SITE.project.latitude });
      expect(sim.config.schedules.map((s) => s.at).sort()).toEqual(['19:00', '21:00', 'sunrise', 'sunset']);
    }
  });

  it('fills the energy history of its map for the days back', async () => {
    const { days, stepMinutes } = DEMO_SITE.energyHistory;
    const metered = h.app.demo!.fleet()!.gateways.flatMap((g) => [...g.devices.values()].filter((d) => isMetered(d.state.kind)));
    expect(first!.backfilledSamples).toBe(metered.length * ((days * 24 * 60) / stepMinutes + 1));
    const stored = async () =>
      (
        (await h.database.db.execute(sql`
          select count(*)::int as days, count(*) filter (where d.energy_wh > 0 and d.saved_wh > 0)::int as saving
          from energy_map_days d join maps m on m.id = d.map_id where m.name = ${DEMO_SITE.map}`)) as unknown as {
          rows: Array<{ days: number; saving: number }>;
        }
      ).rows[0]!;
    await poll(async () => (await stored()).days >= days, 'the energy history rolled up', { timeoutMs: 30_000 });
    expect((await stored()).saving).toBeGreaterThanOrEqual(days - 1);
  });

  describe('the showcase of a first start', () => {
    const DAY_MS = 86_400_000;
    const projectId = async () =>
      (await data(api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token }))).projects.find(
        (p) => p.name === DEMO_SITE.project.name,
      )!.id;

    it('keeps sixty days of emergency tests in the log book: one failure, its repair and a passing retest', async () => {
      const project = await projectId();
      const book = await data(api(h.app, emergencyEndpoints.logBook, { body: { projectId: project, page: 1, pageSize: 200 } }, { token }));
      const entries = book.list;
      const now = h.clock.now().getTime();
      const oldest = Math.min(...entries.map((e) => Date.parse(e.at)));
      expect(now - oldest).toBeGreaterThan(40 * DAY_MS);
      expect(now - oldest).toBeLessThanOrEqual(DEMO_EMERGENCY.days * DAY_MS);
      expect(entries.every((e) => Date.parse(e.at) <= now)).toBe(true);
      const failures = entries.filter((e) => e.type === 'failure');
      const repairs = entries.filter((e) => e.type === 'repair');
      expect(failures).toHaveLength(1);
      expect(repairs).toHaveLength(1);
      expect(repairs[0]).toMatchObject({ deviceId: failures[0]!.deviceId, note: DEMO_EMERGENCY.repair.note });
      expect(Date.parse(repairs[0]!.at)).toBeGreaterThan(Date.parse(failures[0]!.at));
      const retest = entries.find(
        (e) => e.type === 'test' && e.deviceId === failures[0]!.deviceId && Date.parse(e.at) > Date.parse(repairs[0]!.at),
      );
      expect(retest).toMatchObject({ result: 'pass', trigger: 'manual' });
      expect(entries.filter((e) => e.type === 'test' && e.test === 'life').length).toBeGreaterThan(0);
      // Runs by schedule and the retest by hand, each finished; the repaired light is no longer failed.
      const runs = await data(api(h.app, emergencyEndpoints.runs, { body: { projectId: project, page: 1, pageSize: 50 } }, { token }));
      expect(runs.list.every((r) => r.state === 'finished')).toBe(true);
      expect(runs.list.filter((r) => r.trigger === 'schedule').length).toBeGreaterThanOrEqual(3);
      expect(runs.list.filter((r) => r.result === 'failed')).toHaveLength(1);
      const attention = await data(
        api(h.app, emergencyEndpoints.compliance, { body: { projectId: project, overdueOnly: true, page: 1, pageSize: 50 } }, { token }),
      );
      expect(attention.list.map((r) => r.deviceId)).not.toContain(failures[0]!.deviceId);
      // The monthly tests go on from today: each task has its next run queued.
      const tasks = await data(api(h.app, emergencyEndpoints.tasks, { body: { projectId: project, page: 1, pageSize: 20 } }, { token }));
      expect(tasks.total).toBe(first!.emergencyTasks);
      expect(tasks.list.every((t) => t.nextRunAt !== null && Date.parse(t.nextRunAt) > now)).toBe(true);
    });

    it("drives the first room's group from its motion sensor", async () => {
      expect(first!.linkages).toBe(1);
      const [gateway] = await demoGateways(h.app, token);
      const linkages = await data(api(h.app, sceneEndpoints.linkages, { params: { mapId: gateway!.mapId! } }, { token }));
      expect(linkages).toHaveLength(1);
      expect(linkages[0]).toMatchObject({ groupName: `${GATEWAY_ROOMS[0]!.main} lights`, holdS: DEMO_SITE.linkage.holdS });
      expect(linkages[0]!.sensorName.endsWith(' motion')).toBe(true);
      await poll(
        async () => (await data(api(h.app, sceneEndpoints.linkages, { params: { mapId: gateway!.mapId! } }, { token })))[0]!.onGateway,
        'the linkage on its gateway',
      );
    });

    it("fills the device library with the demo's parts, so its lights show their remaining life", async () => {
      const rows = await data(api(h.app, libraryEndpoints.typeTable, {}, { token }));
      const types = rows.flatMap((r) => r.library);
      expect(types).toHaveLength(first!.libraryTypes);
      expect(types.length).toBeGreaterThanOrEqual(6);
      const list = await data(api(h.app, deviceEndpoints.list, { body: { page: 1, pageSize: 200 } }, { token }));
      const lights = list.list.filter((d) => d.libraryTypeName !== null);
      expect(lights.length).toBeGreaterThan(0);
      // Sixty days of energy history count burning hours, so some life is used and some remains.
      expect(lights.some((d) => d.remainingLifeHours !== null && d.usedHours !== null && d.usedHours > 0)).toBe(true);
    });

    it('has a functional and an interface parameter template, applied to its tunable-white panels', async () => {
      const templates = await data(api(h.app, virtualEndpoints.templates, { params: { type: 0 }, query: {} }, { token }));
      expect(templates.map((t) => [t.name, t.kind]).sort()).toEqual(DEMO_TEMPLATES.map((t) => [t.name, t.kind]).sort());
      // Every panel took both: each template counts the devices it was last applied to.
      expect(first!.templatedDevices).toBeGreaterThan(0);
      expect(templates.map((t) => t.devices)).toEqual(templates.map(() => first!.templatedDevices));
    });

    it('keeps a fault history in which one chattering fixture is one alarm', async () => {
      const project = await projectId();
      expect(first!.chatteringRaises).toBe(DEMO_SITE.chattering.raises);
      await poll(
        async () =>
          (await data(api(h.app, alertEndpoints.page, { body: { projectId: project, code: 1, pageSize: 50 } }, { token }))).total >=
          DEMO_SITE.chattering.raises,
        'every raise of the fixture in the fault list',
      );
      const chattering = async () =>
        (await data(api(h.app, alarmEndpoints.page, { body: { projectId: project, pageSize: 50 } }, { token }))).list.filter(
          (a) => a.code === 1,
        );
      // The fault came back more often than the chattering rule allows (DEFAULT_ALARM_SETTINGS of a power fault).
      const rule = DEFAULT_ALARM_SETTINGS.find((r) => r.code === 1)!;
      expect(DEMO_SITE.chattering.raises).toBeGreaterThan(rule.chatterCount);
      await poll(async () => (await chattering()).some((a) => a.chattering && a.raiseCount >= rule.chatterCount), 'one chattering alarm');
      const alarms = await chattering();
      const fixture = alarms.find((a) => a.chattering)!;
      expect(alarms.filter((a) => a.deviceId === fixture.deviceId)).toHaveLength(1);
    });

    it("records its own scenes and linkage in the audit trail as the owner's calls", async () => {
      await h.app.audit.writer.flush();
      const page = await data(api(h.app, auditEndpoints.page, { body: { pageSize: 100 } }, { token }));
      const endpoints = page.list.map((e) => e.endpoint);
      expect(endpoints.filter((e) => e === 'scenes.add')).toHaveLength(3);
      expect(endpoints).toContain('scenes.saveLinkage');
      expect(page.list.find((e) => e.endpoint === 'scenes.add')).toMatchObject({ actor: 'account', code: 0 });
    });

    it('hides Push from the demo account, which holds no push permission', async () => {
      const signedIn = await data(api(h.app, authEndpoints.login, { body: { account: DEMO_ACCOUNT, password: DEMO_PASSWORD } }));
      expect(signedIn.user).toMatchObject({ demo: true, push_auth: false, operate_auth: 0 });
      expect(canSeePush(signedIn.user, 'saas')).toBe(false);
      const admin = await data(api(h.app, authEndpoints.login, { body: { account: h.config.adminAccount, password: ADMIN_PASSWORD } }));
      expect(admin.user.demo).toBeUndefined();
    });
  });

  it('offers its gateways a firmware update to watch, and no other gateway', async () => {
    const [gateway] = await demoGateways(h.app, token);
    const check = await data(api(h.app, gatewayEndpoints.checkVersion, { params: { id: gateway!.id, target: 'gateway' } }, { token }));
    expect(check).toMatchObject({ current: '3.2.1', latest: DEMO_FIRMWARE[0]!.version, state: 'available' });
    expect(DEMO_FIRMWARE.every((f) => f.macPrefix === DEMO_SITE.macPrefix)).toBe(true);
  });

  it('adds nothing on a second start, and its gateways come back online', async () => {
    const before = await rowCounts(h);
    // The first server stops (its gateways say offline); a second one starts on the same database and folder.
    await h.app.close();
    const second = await buildApp({ config: h.config, database: h.database, clock: h.clock, logger: false, gatewayLink: { port: 0 } });
    try {
      const outcome = await second.demo!.ready;
      expect(outcome).toMatchObject({
        createdAccount: false,
        importedDevices: 0,
        placedDevices: 0,
        createdGroups: 0,
        createdScenes: 0,
        libraryTypes: 0,
        templates: 0,
        templatedDevices: 0,
        linkages: 0,
        emergencyTasks: 0,
        chatteringRaises: 0,
      });
      expect(outcome!.gateways.every((g) => g.online && g.id !== undefined)).toBe(true);
      expect(await rowCounts(h)).toEqual(before);
      expect(await readdir(join(dataDir, 'uploads', 'maps'))).toHaveLength(1);
      const t = await login({ ...h, app: second }, DEMO_ACCOUNT, DEMO_PASSWORD);
      await poll(async () => (await demoGateways(second, t)).every((g) => g.online), 'demo gateways online again');
    } finally {
      await second.close();
    }
  }, 60_000);
});

describe.each(SERVICE_DATABASES)('DEMO=off on %s', (kind) => {
  it('creates no demo account, site or gateway', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lumigrid-demo-off-'));
    const h = await startApp(kind, { DEMO: 'off', HOST: '127.0.0.1', DATA_DIR: dataDir }, { gatewayLink: { port: 0 } });
    try {
      expect(h.app.demo).toBeUndefined();
      const counts = await rowCounts(h);
      // Only the platform administrator.
      expect(counts).toEqual({ users: 1, projects: 0, buildings: 0, maps: 0, mapImages: 0, gateways: 0, devices: 0 });
    } finally {
      await h.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
