import { alertEndpoints, gatewayEndpoints, type AlertPage, type Gateway } from '@lumigrid/contract';
import { FAULT_CODES, manualSchedule } from '@lumigrid/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStatusChange } from '../realtime/gateway-status.ts';
import { DATABASES } from '../test/harness.ts';
import { buildGatewayWithDevices, data, gatewayRigSuite } from '../test/gateways.fixtures.ts';
import { poll } from '../test/poll.ts';

describe.each(DATABASES)('a gateway that reconnects within its grace period, on %s', (kind) => {
  let gateway: Gateway;
  const changes: Array<{ mac: string; change: GatewayStatusChange }> = [];
  /** The simulated gateway's waits for an answer to its online state, run by the test. */
  const onlineRepeats = manualSchedule();
  const { h, sim, send, token } = gatewayRigSuite(
    kind,
    {
      count: 1,
      offlineGraceMs: 1,
      env: { PRESENCE_GRACE_S: '60' },
      sim: { schedule: onlineRepeats.schedule },
    },
    'reconnect-grace@example.com',
  );
  const link = () => h().app.gatewayLink!;

  beforeAll(async () => {
    // The alert's own grace is short: an offline the link let through would be raised at once.
    ({ gateway } = await buildGatewayWithDevices(h(), token(), { mac: sim().mac }));
    h().app.gatewayFleet.onStatusChange((mac, change) => void changes.push({ mac, change }));
  }, 90_000);

  it('marks it neither offline nor online and raises no offline alert', async () => {
    const mac = sim().mac;
    await poll(() => link().presence.isOnline(mac) === true, 'gateway online');
    changes.length = 0;

    await sim().goOffline();
    // The link knows it is away (its last will arrived), and holds that back from its users.
    await poll(() => link().presence.isOnline(mac) === false && link().presence.holding() === 1, 'the offline held back');
    await sim().goOnline();
    await poll(() => link().presence.isOnline(mac) === true, 'gateway back');
    await h().app.gatewayFleet.settled();
    await h().app.alertTracker.settled();

    expect(link().presence.holding()).toBe(0);
    expect(h().app.alertTracker.waitingOffline()).toBe(0);
    expect(changes.filter((c) => c.change.kind === 'presence' && c.change.online === false)).toEqual([]);
    expect((await data(send(gatewayEndpoints.detail, { params: { id: gateway.id } }))).online).toBe(true);
    const alerts = await data<AlertPage>(send(alertEndpoints.page, { body: { code: FAULT_CODES.offline } }));
    expect(alerts.total).toBe(0);
  });

  it('hears the gateway whose answer to its online state was lost once it repeats it, and tells nobody twice', async () => {
    const mac = sim().mac;
    await poll(() => link().presence.isOnline(mac) === true, 'gateway online');
    expect(onlineRepeats.pending).toEqual([]);
    changes.length = 0;

    // Back on a new connection, and the one answer to its online state is lost (the node died before answering).
    sim().faults.lostOnlineAnswers = 1;
    await sim().goOffline();
    await poll(() => link().presence.isOnline(mac) === false, 'the connection lost');
    await sim().goOnline();
    await poll(() => sim().faults.lostOnlineAnswers === 0 && onlineRepeats.pending.length === 1, 'the answer lost');
    expect(sim().uplinkWaiting).toBeGreaterThan(0);

    // Its repeat is answered: the full report and the replies go again.
    onlineRepeats.runNext();
    await poll(() => sim().uplinkWaiting === 0, 'the stored report delivered');
    expect((await link().bus.send(mac, 'gateway.info', {})).state).toBe('succeeded');
    await h().app.gatewayFleet.settled();
    await h().app.alertTracker.settled();
    // The gateway never looked offline and came back as it was: nothing to tell, the first time or on the repeat.
    expect(changes.filter((c) => c.change.kind === 'presence').map((c) => c.change)).toEqual([]);
    expect(onlineRepeats.pending).toEqual([]);
    const alerts = await data<AlertPage>(send(alertEndpoints.page, { body: { code: FAULT_CODES.offline } }));
    expect(alerts.total).toBe(0);
  });
});
