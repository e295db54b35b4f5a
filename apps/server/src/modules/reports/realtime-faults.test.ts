import { projectEndpoints, recipientEndpoints, type GatewayDevice } from '@lumigrid/contract';
import { FAULT_CODES } from '@lumigrid/protocol';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, outbox } from '../../db/schema/index.ts';
import { DATABASES, apiData, signUpByMail } from '../../test/harness.ts';
import { buildGatewayWithDevices, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

const MINUTE = 60_000;
const ON = 'on-call@example.com';
const OFF = 'office@example.com';

describe.each(DATABASES)('real-time fault mails on %s', (kind) => {
  let rig: GatewayRig;
  let token: string;
  let devices: GatewayDevice[];
  let onId: string;
  const h = () => rig.h;
  const sim = () => rig.fleet.gateways[0]!;
  const light = () => devices.find((d) => d.kind === 'light-dimmer')!;
  /** What the outbox kept for an address (no SMTP_URL in this suite), oldest first. */
  const mailsTo = async (address: string) =>
    (await h().database.db.select().from(outbox).where(eq(outbox.recipient, address)).orderBy(asc(outbox.id))).filter((m) =>
      m.subject.includes('fault alert'),
    );
  const raise = async (code: number) => {
    sim().raiseFault(light().addr, code);
    // The fault travels the broker first: the tracker's settled() covers only what it has received.
    await poll(
      async () =>
        (
          await h()
            .database.db.select({ id: alerts.id })
            .from(alerts)
            .where(and(eq(alerts.code, code), isNull(alerts.clearedAt)))
        ).length > 0,
      `fault ${code} raised`,
    );
    await h().app.alertTracker.settled();
  };

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1 });
    token = await signUpByMail(h(), 'realtime-owner@example.com');
    ({ devices } = await buildGatewayWithDevices(h(), token, { mac: sim().mac, name: 'Hall gateway', place: () => true }));
    const tree = await apiData(h().app, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const projectId = tree.projects.find((p) => p.isDefault)!.id;
    const base = {
      projectId,
      unit: 'day' as const,
      sendTime: '20:00',
      timeZone: 'UTC',
      contents: ['faults' as const],
      lang: 'en' as const,
    };
    const on = await apiData(h().app, recipientEndpoints.add, { body: { ...base, name: 'On call', mail: ON } }, { token });
    await apiData(h().app, recipientEndpoints.add, { body: { ...base, name: 'Office', mail: OFF } }, { token });
    const switched = await apiData(h().app, recipientEndpoints.realtimeSwitch, { params: { id: on.id, on: '1' } }, { token });
    expect(switched.realtimeFaults).toBe(true);
    onId = on.id;
  }, 90_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('mails a raised fault to recipients with the switch on only', async () => {
    await raise(FAULT_CODES.led);
    await poll(async () => {
      await h().app.jobs.runDue();
      return (await mailsTo(ON)).length === 1;
    }, 'the fault mail');
    const [mail] = await mailsTo(ON);
    expect(mail!.subject).toBe('Lumigrid fault alert: Default project (1)');
    expect(mail!.body).toContain(`${light().name} (Hall gateway): LED fault [8]`);
    expect(await mailsTo(OFF)).toHaveLength(0);
  });

  it('sends at most one mail per ten minutes, with the faults raised meanwhile together', async () => {
    h().clock.advance(MINUTE);
    await raise(FAULT_CODES.battery);
    await h().app.jobs.runDue();
    h().clock.advance(MINUTE);
    await raise(FAULT_CODES.daylightSensor);
    await h().app.jobs.runDue();
    expect(await mailsTo(ON)).toHaveLength(1);
    h().clock.advance(8 * MINUTE);
    await poll(async () => {
      await h().app.jobs.runDue();
      return (await mailsTo(ON)).length === 2;
    }, 'the batched fault mail');
    const second = (await mailsTo(ON))[1]!;
    expect(second.subject).toBe('Lumigrid fault alert: Default project (2)');
    expect(second.body).toContain('Battery fault [6]');
    expect(second.body).toContain('Daylight sensor error [5]');
    await h().app.jobs.runDue();
    expect(await mailsTo(ON)).toHaveLength(2);
  });

  it('mails nothing once the switch is off', async () => {
    await apiData(h().app, recipientEndpoints.realtimeSwitch, { params: { id: onId, on: '0' } }, { token });
    h().clock.advance(20 * MINUTE);
    await raise(FAULT_CODES.motionSensor);
    h().clock.advance(20 * MINUTE);
    await h().app.jobs.runDue();
    expect(await mailsTo(ON)).toHaveLength(2);
    expect(await mailsTo(OFF)).toHaveLength(0);
    // Turned on again, it mails what is raised from now on, not what was raised while it was off.
    await apiData(h().app, recipientEndpoints.realtimeSwitch, { params: { id: onId, on: '1' } }, { token });
    h().clock.advance(20 * MINUTE);
    await h().app.jobs.runDue();
    expect(await mailsTo(ON)).toHaveLength(2);
  });
});
