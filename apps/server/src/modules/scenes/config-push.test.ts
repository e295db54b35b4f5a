import {
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  newSceneFields,
  sceneEndpoints,
  SYNC_STATUS,
  type Gateway,
  type GatewayDevice,
  type GroupView,
  type SceneRunPage,
} from '@lumigrid/contract';
import { EMPTY_GATEWAY_CONFIG } from '@lumigrid/protocol';
import { eq, sql } from 'drizzle-orm';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { sensorLinkages } from '../../db/schema/index.ts';
import { expectError } from '../../test/harness.ts';
import { DATABASES_AND_BROKERS, data, syncedGateways, placeDevice, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';
import { createScenesRepo } from './scenes.repo.ts';

/** Configuration changes reach online gateways by themselves, and linkages only ever on sensors of a map. */
describe.each(DATABASES_AND_BROKERS)('configuration pushed to simulated gateways on %s over the %s broker', (kind, broker) => {
  let projectId: string;
  /** A group of gateway 0 no linkage drives. */
  let spare: GroupView;
  const gateways: Array<{ id: string; mapId: string; devices: GatewayDevice[] }> = [];
  const { h, sim, send, rig, token } = gatewayRigSuite(kind, { count: 2, commandTimeoutMs: 3000, broker }, 'pushes@example.com');
  const device = (g: number, kindName: string) => gateways[g]!.devices.find((d) => d.kind === kindName)!;
  const detail = (g: number) => data<Gateway>(send(gatewayEndpoints.detail, { params: { id: gateways[g]!.id } }));
  /** The gateway runs the cloud's configuration as it is now. */
  const runsCurrent = async (g: number) => {
    const d = await detail(g);
    return sim(g).configVersion === d.configVersion && d.syncedVersion === d.configVersion;
  };
  const linkagesOf = (sensorId: string) =>
    h()
      .database.db.select()
      .from(sensorLinkages)
      .where(eq(sensorLinkages.sensorId, BigInt(sensorId)));
  const groupOf = async (g: number, name: string, deviceIds: string[]) =>
    data<GroupView>(send(groupEndpoints.add, { body: { mapId: gateways[g]!.mapId, gatewayId: gateways[g]!.id, name, deviceIds } }));
  const saveHolidays = (dates: string[]) =>
    data(
      send(sceneEndpoints.saveSettings, {
        body: { projectId, holidays: dates.map((date) => ({ date, name: `Holiday ${date}` })), overrideMin: 0 },
      }),
    );

  beforeAll(async () => {
    gateways.push(...(await syncedGateways(rig(), token(), ['Hall', 'Yard'])));
    projectId = (await defaultProject(h(), token())).id;
  }, 120_000);

  it('refuses a linkage on a sensor placed on no map with 310014, and keeps nothing of it', async () => {
    const sensor = device(0, 'sensor-motion');
    spare = await groupOf(0, 'Unseen', [device(0, 'light-dimmer').id]);
    const before = await detail(0);
    await placeDevice(h(), sensor.id, null);
    try {
      const linkage = { sensorId: sensor.id, groupId: spare.id, onDetectPercent: 90, onClearPercent: 10, holdS: 10, lux: 500 };
      expectError(await send(sceneEndpoints.saveLinkage, { body: linkage }), 310014);
      expect(await linkagesOf(sensor.id)).toEqual([]);
      expect(await detail(0)).toMatchObject({ configVersion: before.configVersion, syncStatus: before.syncStatus });
      expect(sim(0).config.linkages).toEqual([]);
    } finally {
      await placeDevice(h(), sensor.id, gateways[0]!.mapId);
    }
  });

  it('keeps no linkage and raises no version when the saved linkage cannot be read back', async () => {
    const sensor = device(0, 'sensor-motion');
    const row = (await h().database.db.query.gateways.findFirst({ where: (g, { eq: is }) => is(g.id, BigInt(gateways[0]!.id)) }))!;
    const saved = await createScenesRepo(h().database.db).saveLinkage({
      tenantId: row.tenantId!,
      sensorId: BigInt(sensor.id),
      // The sensor stands on another map than the one the answer is read from.
      mapId: BigInt(gateways[0]!.mapId) + 1_000_000n,
      gatewayId: row.id,
      groupId: BigInt(spare.id),
      onDetectPercent: 90,
      onClearPercent: 10,
      holdS: 10,
      lux: null,
      at: new Date(),
    });
    expect(saved).toBeUndefined();
    expect(await linkagesOf(sensor.id)).toEqual([]);
    expect((await detail(0)).configVersion).toBe(row.configVersion);
  });

  it("drops with migration 0028 the linkages kept from before on sensors on no map, raising their gateways' versions", async () => {
    const [outmap, placed] = [device(0, 'sensor-motion'), device(0, 'sensor-daylight')];
    const row = (await h().database.db.query.gateways.findFirst({ where: (g, { eq: is }) => is(g.id, BigInt(gateways[0]!.id)) }))!;
    const linkage = (sensorId: string) => ({
      sensorId: BigInt(sensorId),
      tenantId: row.tenantId!,
      groupId: BigInt(spare.id),
      onDetectPercent: 90,
      onClearPercent: 10,
      holdS: 10,
      lux: null,
      version: row.configVersion,
    });
    await placeDevice(h(), outmap.id, null);
    try {
      await h()
        .database.db.insert(sensorLinkages)
        .values([linkage(outmap.id), linkage(placed.id)]);
      const migration = await readFile(new URL('../../db/migrations/0028_drop_linkages_of_sensors_on_no_map.sql', import.meta.url), 'utf8');
      await h().database.db.execute(sql.raw(migration));
      expect(await linkagesOf(outmap.id)).toEqual([]);
      expect(await linkagesOf(placed.id)).toHaveLength(1);
      expect(await detail(0)).toMatchObject({ configVersion: row.configVersion + 1, syncStatus: SYNC_STATUS.notSynced });
    } finally {
      await h()
        .database.db.delete(sensorLinkages)
        .where(eq(sensorLinkages.sensorId, BigInt(placed.id)));
      await placeDevice(h(), outmap.id, gateways[0]!.mapId);
    }
  });

  it('pushes a saved linkage to its online gateway without a sync, and the group then follows the sensor', async () => {
    const sensor = device(0, 'sensor-motion');
    const light = device(0, 'light-cct');
    const group = await groupOf(0, 'Corridor', [light.id]);
    const linkage = { sensorId: sensor.id, groupId: group.id, onDetectPercent: 90, onClearPercent: 0, holdS: 30, lux: 500 };
    await data(send(sceneEndpoints.saveLinkage, { body: linkage }));
    await poll(() => sim(0).config.linkages.length === 1, 'the linkage on the gateway', { timeoutMs: 30_000 });
    await poll(() => runsCurrent(0), 'the gateway synced', { timeoutMs: 30_000 });
    const listed = await data(send(sceneEndpoints.linkages, { params: { mapId: gateways[0]!.mapId } }));
    expect(listed).toMatchObject([{ sensorId: sensor.id, groupId: group.id, onGateway: true }]);

    await data(send(gatewayEndpoints.sensorsLinkage, { params: { id: gateways[0]!.id } }));
    const state = () => sim(0).devices.get(light.addr)!.state;
    state().on = false;
    sim(0).devices.get(sensor.addr)!.state.lux = 100;
    expect(sim(0).detectMotion(sensor.addr)).toBe(true);
    expect(state()).toMatchObject({ on: true, level: 229 });

    await data(send(sceneEndpoints.removeLinkage, { params: { id: sensor.id }, body: {} }));
    await poll(() => sim(0).config.linkages.length === 0, 'the linkage gone from the gateway', { timeoutMs: 30_000 });
  });

  /** Links gateway g's motion sensor to a new group of its CCT light, pushed and running; answers both. */
  const linkedCctLight = async (g: number, groupName: string) => {
    const sensor = device(g, 'sensor-motion');
    const light = device(g, 'light-cct');
    const group = await groupOf(g, groupName, [light.id]);
    const linkage = { sensorId: sensor.id, groupId: group.id, onDetectPercent: 90, onClearPercent: 0, holdS: 30, lux: null };
    await data(send(sceneEndpoints.saveLinkage, { body: linkage }));
    await data(send(gatewayEndpoints.sensorsLinkage, { params: { id: gateways[g]!.id } }));
    await poll(() => sim(g).config.linkages.some((l) => l.sensor === sensor.addr), `the linkage on gateway ${g}`, { timeoutMs: 30_000 });
    await poll(() => runsCurrent(g), `gateway ${g} synced`, { timeoutMs: 30_000 });
    return { sensor, light };
  };
  /** Whether motion at the sensor, once it sees nobody, switches the light on (the light is off before). */
  const motionSwitches = async (g: number, sensor: GatewayDevice, light: GatewayDevice) => {
    await poll(() => !sim(g).devices.get(sensor.addr)!.state.occupied, 'the sensor sees nobody');
    const state = sim(g).devices.get(light.addr)!.state;
    state.on = false;
    expect(sim(g).detectMotion(sensor.addr)).toBe(true);
    return state.on;
  };

  it('drops the linkage of a sensor moved off its map, and its gateway no longer switches the group on motion', async () => {
    const { sensor, light } = await linkedCctLight(0, 'Landing');
    expect(await motionSwitches(0, sensor, light)).toBe(true);
    try {
      const before = await detail(0);
      await data(send(deviceEndpoints.moveOut, { body: { ids: [sensor.id] } }));
      expect(await linkagesOf(sensor.id)).toEqual([]);
      expect((await detail(0)).configVersion).toBeGreaterThan(before.configVersion);
      await poll(() => sim(0).config.linkages.length === 0, 'the linkage gone from the gateway', { timeoutMs: 30_000 });
      await poll(() => runsCurrent(0), 'the gateway synced', { timeoutMs: 30_000 });
      expect(await motionSwitches(0, sensor, light)).toBe(false);
    } finally {
      await data(send(deviceEndpoints.moveIn, { body: { mapId: gateways[0]!.mapId, devices: [{ id: sensor.id, x: 0.5, y: 0.5 }] } }));
    }
  });

  it('drops the linkage of a sensor deleted from the cloud only, and its gateway no longer switches the group on motion', async () => {
    const { sensor, light } = await linkedCctLight(1, 'Porch');
    expect(await motionSwitches(1, sensor, light)).toBe(true);
    const before = await detail(1);
    await data(send(deviceEndpoints.remove, { body: { ids: [sensor.id], fromGateway: false } }));
    expect(await linkagesOf(sensor.id)).toEqual([]);
    expect((await detail(1)).configVersion).toBeGreaterThan(before.configVersion);
    await poll(() => sim(1).config.linkages.length === 0, 'the linkage gone from the gateway', { timeoutMs: 30_000 });
    await poll(() => runsCurrent(1), 'the gateway synced', { timeoutMs: 30_000 });
    // The gateway keeps the sensor (deleted in the cloud only); only its linkage is gone.
    expect(await motionSwitches(1, sensor, light)).toBe(false);
  });

  it('pushes holidays changed twice in a moment once to every online gateway of the project', async () => {
    await poll(async () => (await runsCurrent(0)) && (await runsCurrent(1)), 'both gateways current', { timeoutMs: 30_000 });
    const before = [0, 1].map((g) => sim(g).executions.size);
    await saveHolidays(['2026-12-25']);
    await saveHolidays(['2026-12-25', '2026-12-26']);
    for (const g of [0, 1]) {
      await poll(() => sim(g).config.holidays?.length === 2, `the holidays on gateway ${g}`, { timeoutMs: 30_000 });
      await poll(() => runsCurrent(g), `gateway ${g} synced`, { timeoutMs: 30_000 });
      expect(sim(g).config.holidays).toEqual(['2026-12-25', '2026-12-26']);
      // One configuration for both changes: no other command reached the gateway meanwhile.
      expect(sim(g).executions.size - before[g]!).toBe(1);
    }
  });

  it('sends a gateway back online what changed while it was away, and a reset gateway its whole configuration', async () => {
    await sim(1).goOffline();
    await poll(async () => !(await detail(1)).online, 'gateway offline');
    await saveHolidays(['2026-12-31']);
    expect(await runsCurrent(1)).toBe(false);
    await sim(1).goOnline();
    await poll(() => sim(1).config.holidays?.join() === '2026-12-31', 'the changed holidays after the reconnect', { timeoutMs: 30_000 });
    await poll(() => runsCurrent(1), 'gateway 1 synced', { timeoutMs: 30_000 });

    // Reset to factory state while away: it comes back with no configuration at all.
    await sim(1).goOffline();
    await poll(async () => !(await detail(1)).online, 'gateway offline again');
    sim(1).config = EMPTY_GATEWAY_CONFIG;
    sim(1).configVersion = 0;
    await sim(1).goOnline();
    await poll(() => runsCurrent(1), 'the whole configuration after the reset', { timeoutMs: 30_000 });
    expect(sim(1).config.holidays).toEqual(['2026-12-31']);
  });

  it('tries a push again that reached its gateway after it expired, until the gateway runs it', async () => {
    await poll(() => runsCurrent(0), 'gateway 0 current', { timeoutMs: 30_000 });
    const pushes: number[] = [];
    const count = (command: { name: string }) => void (command.name === 'config.apply' && pushes.push(Date.now()));
    sim(0).on('command', count);
    try {
      sim(0).faults.arrivesLate.set('config.apply', 2);
      await saveHolidays(['2027-01-01']);
      await poll(() => sim(0).config.holidays?.join() === '2027-01-01', 'the holidays after two late arrivals', { timeoutMs: 30_000 });
      await poll(() => runsCurrent(0), 'gateway 0 synced', { timeoutMs: 30_000 });
      expect(pushes).toHaveLength(3);
    } finally {
      sim(0).off('command', count);
      sim(0).faults.arrivesLate.clear();
    }
  });

  it('answers 100101 for a manual run no gateway is online for, a failure for one no gateway took, and success naming the missed gateways for one some took', async () => {
    const members = [0, 1].map((g) => ({ type: 'device' as const, id: device(g, 'light-single').id, action: { on: true } }));
    const saved = await data(
      send(sceneEndpoints.add, { body: { ...newSceneFields(projectId, 'manual', 'Both'), steps: [{ members, holdS: 0 }] } }),
    );
    try {
      await sim(1).goOffline();
      await poll(async () => !(await detail(1)).online, 'gateway 1 offline');
      const partly = await data(send(sceneEndpoints.execute, { params: { id: saved.scene.id }, body: {} }));
      expect(Object.fromEntries(partly.parts.map((p) => [p.gatewayId, p.code]))).toEqual({
        [gateways[0]!.id]: 0,
        [gateways[1]!.id]: 100101,
      });
      // Nowhere run, one gateway refusing (it lost the scene) and the other offline: the refusal is the answer.
      const kept = sim(0).config;
      sim(0).config = { ...kept, scenes: [] };
      expectError(await send(sceneEndpoints.execute, { params: { id: saved.scene.id }, body: {} }), 100106);
      sim(0).config = kept;
      await sim(0).goOffline();
      await poll(async () => !(await detail(0)).online, 'gateway 0 offline');
      expectError(await send(sceneEndpoints.execute, { params: { id: saved.scene.id }, body: {} }), 100101);
      // The attempts are in the history all the same, every part of the last one marked offline.
      const history = await data<SceneRunPage>(send(sceneEndpoints.runs, { body: { id: saved.scene.id } }));
      expect(history.total).toBe(3);
      expect(history.list.filter((run) => run.parts.every((p) => p.code === 100101))).toHaveLength(1);
    } finally {
      if (!sim(0).online) await sim(0).goOnline();
      if (!sim(1).online) await sim(1).goOnline();
    }
  });
});
