import { alertEndpoints, gatewayEndpoints, type AlertPage, type GatewayDevice } from '@lumigrid/contract';
import { FAULT_CODES, type DecodedUp } from '@lumigrid/protocol';
import type { SimGateway } from '@lumigrid/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKER_UNREACHABLE } from './command-bus.ts';
import { startRig, type LinkRig } from '../test/gateway-link.fixtures.ts';
import { apiData, endpointCaller, expectError, signUpByMail } from '../test/harness.ts';
import { buildGatewayWithDevices, data, startGatewayRig, type GatewayRig } from '../test/gateways.fixtures.ts';
import { MOSQUITTO, startPrivateMosquitto, type PrivateMosquitto } from '../test/mosquitto.fixtures.ts';
import { servicesFor } from '../test/services.ts';
import { poll } from '../test/poll.ts';

/**
 * The server on an external broker that dies: a Mosquitto of the test's own (the machine's is shared), frozen
 * or killed and started again on the same port with nothing kept. Runs where TEST_MQTT_URL says the machine
 * has Mosquitto (CI).
 */
const WITH_MOSQUITTO = servicesFor('the broker-loss tests', { mqtt: true, programs: [MOSQUITTO] });

/** Short, so a broker that stopped answering is noticed within a test (after 1.5 keep-alives). */
const KEEPALIVE_S = 3;
/** The keep-alive's bound with room for a loaded machine; the link before this change never noticed. */
const NOTICED_WITHIN_MS = 1.5 * KEEPALIVE_S * 1000 + 3000;
/** Long, so a command answered early was answered because the broker went, not because it timed out. */
const COMMAND_TIMEOUT_MS = 30_000;
/** "At once": far inside the command timeout above, with room for a busy machine. */
const AT_ONCE_MS = 10_000;

describe.runIf(WITH_MOSQUITTO)('the gateway link on a broker that stops answering', () => {
  let broker: PrivateMosquitto;
  let rig: LinkRig;
  const up: DecodedUp[] = [];
  const sims = () => rig.fleet.gateways;
  const faultsHeard = () => up.flatMap((m) => (m.channel === 'event' && m.message.type === 'fault' ? [`${m.mac}/${m.message.addr}`] : []));

  beforeAll(async () => {
    broker = await startPrivateMosquitto();
    // Link and gateways alone (no database), so a short keep-alive is kept even on a busy machine.
    rig = await startRig('mosquitto', { mqttUrl: broker.url, keepaliveS: KEEPALIVE_S, sim: { keepaliveS: KEEPALIVE_S } });
    rig.link.onUp((m) => void up.push(m));
  });
  afterAll(async () => {
    await rig?.close();
    await broker?.close();
  });

  it('calls the gateways unknown within the keep-alive, fails commands at once, keeps what the gateways make', async () => {
    const [a, b] = sims();
    a!.faults.noReply = new Set(['gateway.identify']);
    let received = false;
    a!.once('command', () => (received = true));
    const waiting = rig.link.bus.send(a!.mac, 'gateway.identify', {}, { timeoutMs: COMMAND_TIMEOUT_MS });
    await poll(() => received, 'the gateway to receive the command');

    // Frozen: its sockets stay open and it answers nothing, like a broker whose host vanished.
    const frozenAt = Date.now();
    broker.signal('SIGSTOP');
    // Made while the gateways still believe their connection alive: sent into a broker that never acknowledges.
    const meanwhile = sims().map((g) => [...g.devices.keys()][0]!);
    sims().forEach((g, i) => g.raiseFault(meanwhile[i]!, FAULT_CODES.led));

    await poll(() => sims().every((g) => rig.link.presence.get(g.mac)?.reason === 'unknown'), 'the gateways unknown', {
      timeoutMs: NOTICED_WITHIN_MS,
    });
    expect(rig.link.presence.get(a!.mac)).toMatchObject({ online: false, reason: 'unknown' });
    expect(await waiting).toMatchObject({ state: 'failed', errorCode: BROKER_UNREACHABLE });
    expect(Date.now() - frozenAt).toBeLessThan(NOTICED_WITHIN_MS);
    a!.faults.noReply = false;

    const startedAt = Date.now();
    expect(await rig.link.bus.send(b!.mac, 'gateway.info', {})).toMatchObject({ state: 'expired', errorCode: BROKER_UNREACHABLE });
    expect(Date.now() - startedAt).toBeLessThan(AT_ONCE_MS);
    expect(rig.link.bus.pendingCount()).toBe(0);

    broker.signal('SIGKILL');
    await broker.exited();
    await broker.start();
    await poll(() => sims().every((g) => rig.link.presence.isOnline(g.mac) === true), 'the gateways online again');
    expect(await rig.link.bus.call(b!.mac, 'gateway.info', {})).toMatchObject({ mac: b!.mac });
    // Sent into the frozen broker, lost with it, and sent again by each gateway once the server answered it.
    await poll(() => sims().every((g, i) => faultsHeard().includes(`${g.mac}/${meanwhile[i]}`)), 'the faults made meanwhile');
  });
});

describe.runIf(WITH_MOSQUITTO)('the platform on a broker killed and started again', () => {
  let broker: PrivateMosquitto;
  let rig: GatewayRig;
  let token: string;
  const gateways: Array<{ id: string; sim: SimGateway; devices: GatewayDevice[] }> = [];
  /** The faults raised while the broker was away: each must become an alert once it is back. */
  const raisedMeanwhile: Array<{ deviceId: string; code: number }> = [];
  const send = endpointCaller(
    () => rig.h.app,
    () => token,
  );
  const link = () => rig.h.app.gatewayLink!;
  const presences = async () =>
    (await data(send(gatewayEndpoints.list, { query: { pageSize: 100 } }))).list.map((g) => ({ presence: g.presence, online: g.online }));
  const identify = (gatewayId: string) => send(gatewayEndpoints.identify, { params: { id: gatewayId } });
  const openAlerts = (): Promise<AlertPage> => apiData(rig.h.app, alertEndpoints.page, { body: { open: true, pageSize: 100 } }, { token });

  beforeAll(async () => {
    broker = await startPrivateMosquitto();
    rig = await startGatewayRig('pglite', {
      count: 2,
      mqttUrl: broker.url,
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      devicesPerKind: 2,
      // Short, so an offline read into the outage would page within the test.
      offlineGraceMs: 200,
    });
    token = await signUpByMail(rig.h, 'broker-loss@example.com');
    for (const sim of rig.fleet.gateways) {
      const built = await buildGatewayWithDevices(rig.h, token, { mac: sim.mac, place: () => true });
      gateways.push({ id: built.gateway.id, sim, devices: built.devices });
    }
    expect(await presences()).toEqual([
      { presence: 'online', online: true },
      { presence: 'online', online: true },
    ]);
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    await broker?.close();
  });

  it('shows every gateway unknown and answers commands at once while the broker is dead', async () => {
    gateways[0]!.sim.faults.noReply = new Set(['gateway.identify']);
    let received = false;
    gateways[0]!.sim.once('command', () => (received = true));
    const waiting = identify(gateways[0]!.id);
    await poll(() => received, 'the gateway to receive the command');

    const killedAt = Date.now();
    broker.signal('SIGKILL');
    // The command waiting for its reply fails now, not at its timeout.
    expectError(await waiting, BROKER_UNREACHABLE);
    expect(Date.now() - killedAt).toBeLessThan(AT_ONCE_MS);
    gateways[0]!.sim.faults.noReply = false;

    await poll(async () => (await presences()).every((g) => g.presence === 'unknown' && !g.online), 'the API to say unknown');
    // Unknown is not offline: no gateway alert is on its way.
    expect(rig.h.app.alertTracker.waitingOffline()).toBe(0);

    const startedAt = Date.now();
    expectError(await identify(gateways[1]!.id), BROKER_UNREACHABLE);
    expect(Date.now() - startedAt).toBeLessThan(AT_ONCE_MS);
    expect(link().bus.pendingCount()).toBe(0);

    // Faults the gateways see while the broker is dead.
    await poll(() => gateways.every((g) => !g.sim.online), 'the gateways to notice');
    for (const g of gateways) {
      for (const [i, code] of [FAULT_CODES.led, FAULT_CODES.dcSensor].entries()) {
        const device = g.devices.filter((d) => d.kind.startsWith('light'))[i]!;
        g.sim.raiseFault(device.addr, code);
        raisedMeanwhile.push({ deviceId: device.id, code });
      }
      expect(g.sim.uplinkWaiting).toBeGreaterThan(0);
    }
  });

  it('recovers by itself: presence, commands, and an alert for every fault made meanwhile', async () => {
    await broker.exited();
    await broker.start();
    // Straight after the restart the link may not be back yet: a command answers at once either way, never hangs.
    const startedAt = Date.now();
    expect([0, BROKER_UNREACHABLE, 100101]).toContain((await identify(gateways[1]!.id)).body.code);
    expect(Date.now() - startedAt).toBeLessThan(AT_ONCE_MS);

    await poll(async () => (await presences()).every((g) => g.presence === 'online' && g.online), 'the gateways online again');
    for (const g of gateways) expect((await identify(g.id)).body.code).toBe(0);

    expect(raisedMeanwhile).toHaveLength(4);
    await poll(async () => {
      const open = (await openAlerts()).list;
      return raisedMeanwhile.every((f) => open.some((a) => a.deviceId === f.deviceId && a.code === f.code));
    }, 'an alert for each fault raised while the broker was dead');
    // The server's own outage paged nobody about the gateways.
    expect((await openAlerts()).list.filter((a) => a.deviceId === null)).toEqual([]);
    expect(gateways.every((g) => g.sim.uplinkDropped === 0)).toBe(true);
  });
});
