import { gatewayEndpoints, groupEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice, GroupControlResult, GroupDetail, GroupView } from '@lumigrid/contract';
import { SimGateway } from '@lumigrid/gateway-sim';
import type { CommandMessage, DeviceState } from '@lumigrid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrefix } from '../../test/gateway-link.fixtures.ts';
import { signUpByMail, startApp, type Harness, endpointCaller } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, defaultMapId } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * A gateway with the radio limits switched on (about 20 unicasts and 2 group frames a second here, so the
 * suite stays short) and 40 lights: a group command the gateway does not run yet drains member by member and
 * none is dropped; group frames sent faster than the radio allows wait their turn and all take effect.
 */
describe('group control against the radio limits of a simulated gateway', () => {
  let h: Harness;
  let sim: SimGateway;
  let token: string;
  let mapId: string;
  let gw: Gateway;
  let lights: GatewayDevice[];
  const reports: DeviceState[][] = [];
  const commands: CommandMessage[] = [];
  const send = endpointCaller(
    () => h.app,
    () => token,
  );
  const group = (id: string) => data<GroupDetail>(send(groupEndpoints.get, { params: { id } }));

  beforeAll(async () => {
    h = await startApp('pglite', { HOST: '127.0.0.1' }, { gatewayLink: { port: 0, commandTimeoutMs: 5000 } });
    const mac = `A4C1${runPrefix()}01`;
    await h.app.gatewayFleet.provision(mac, `pw-${mac}`);
    sim = new SimGateway({
      mac,
      password: `pw-${mac}`,
      url: `mqtt://127.0.0.1:${h.app.gatewayLink!.brokerPort}`,
      timeFactor: 1000,
      radio: { unicastPerSecond: 20, groupPerSecond: 2 },
      activityIntervalS: 0,
      devicesPerKind: 10,
    });
    await sim.start();
    await poll(() => h.app.gatewayLink!.presence.isOnline(mac) === true, 'online');
    token = await signUpByMail(h, 'radio@example.com');
    mapId = await defaultMapId(h, token);
    const isLight = (d: GatewayDevice) =>
      d.kind === 'light-single' || d.kind === 'light-dimmer' || d.kind === 'light-cct' || d.kind === 'light-rgb';
    const built = await buildGatewayWithDevices(h, token, { mac, mapId, name: 'Busy floor', place: isLight });
    gw = built.gateway;
    lights = built.placed;
    await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    sim.on('command', (c: CommandMessage) => commands.push(c));
    h.app.gatewayLink!.onUp((m) => {
      if (m.channel === 'report' && m.mac === mac) reports.push(m.message.devices);
    });
  }, 90_000);
  afterAll(async () => {
    await sim?.stop();
    await h?.close();
  });

  it('drains a command to 40 lights one unicast at a time, never dropping one, until the gateway runs the group', async () => {
    expect(lights).toHaveLength(40);
    const floor = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Whole floor', deviceIds: lights.map((d) => d.id) } }),
    );
    expect(floor.onGateway).toBe(false);
    // Every light is on at the gateway, so switching the group off changes (and reports) each of them.
    for (const d of sim.devices.values()) if (d.state.kind.startsWith('light-')) d.state.on = true;
    reports.length = 0;
    const result = await data<GroupControlResult>(
      send(groupEndpoints.control, { body: { id: floor.id, action: { op: 'onOff', on: false } } }),
    );
    expect(result).toEqual({ mode: 'unicast', frames: 40, targets: 40 });
    expect(commands.filter((c) => c.name === 'devices.control')).toHaveLength(1);
    await sim.drained();
    // Every light reported its own change: progress arrives light by light, and none is missing.
    await poll(() => new Set(reports.flat().map((d) => d.addr)).size === 40, 'a report from each light');
    expect(reports.every((batch) => batch.length === 1)).toBe(true);
    await poll(async () => (await group(floor.id)).members.every((m) => m.display === 'off'), 'every light off');
  });

  it('queues group frames sent faster than the radio allows and carries out every one, in order', async () => {
    const floor = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Whole floor')!;
    await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    expect((await group(floor.id)).onGateway).toBe(true);
    commands.length = 0;
    const answers = await Promise.all(
      [10, 60, 100].map((percent) =>
        data<GroupControlResult>(send(groupEndpoints.control, { body: { id: floor.id, action: { op: 'brightness', percent } } })),
      ),
    );
    expect(answers.every((a) => a.mode === 'group' && a.frames === 1)).toBe(true);
    expect(commands.filter((c) => c.name === 'group.control')).toHaveLength(3);
    expect(commands.filter((c) => c.name.startsWith('device'))).toEqual([]);
    // The frames went out in the order they were sent: the last one (100 %) is what every light shows.
    await poll(async () => (await group(floor.id)).display === 'onFull', 'every light at full');
    expect(sim.executions.size).toBeGreaterThanOrEqual(3);
  });
});
