import {
  gatewayEndpoints,
  platformEndpoints,
  ROLLOUT_TOPIC,
  type Rollout,
  type RolloutCreateBody,
  type RolloutDetail,
} from '@lumigrid/contract';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareRolloutTargets, gateways, jobs } from '../../db/schema/index.ts';
import { ADMIN_PASSWORD, SERVICE_DATABASES, api, apiData, expectError, login, signUpByMail } from '../../test/harness.ts';
import { bind, defaultMapId, GATEWAY_FIRMWARE, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { ROLLOUT_JOB } from './rollout-runner.ts';
import { ROLLOUT_CHECK_MS } from '../../config.ts';

const GATEWAYS = 50;
const WAVE = 10;
const OLD_VERSION = '3.2.1';
const HOUR_MS = 3_600_000;

/**
 * A fleet firmware rollout over simulated gateways on real MQTT, on the injected clock: the test runs the due
 * jobs and moves the clock one step at a time. Two gateways of the first wave fail their update, so the rollout
 * pauses at its threshold with the later waves untouched; resuming finishes it; rolling back restores the
 * version the gateways ran before.
 */
describe.each(SERVICE_DATABASES)('fleet firmware rollout on %s', (kind) => {
  let rig: GatewayRig;
  let admin: string;
  let tenant: string;
  let live: StompTestClient;
  let url: string;
  const published: Rollout[] = [];
  const h = () => rig.h;
  /** The simulated gateways in MAC order: the order a rollout puts them into waves. */
  const sims = () => [...rig.fleet.gateways].sort((a, b) => a.mac.localeCompare(b.mac));

  beforeAll(async () => {
    // The gateway link times updates out on the real clock: 25 at once on a busy machine must not run out of it.
    rig = await startGatewayRig(kind, { count: GATEWAYS, jobs: { start: false }, firmwareTimeoutMs: 120_000 });
    admin = await login(h(), 'admin', ADMIN_PASSWORD);
    tenant = await signUpByMail(h(), 'fleet-owner@example.com');
    const mapId = await defaultMapId(h(), tenant);
    const bound: Array<{ id: string }> = [];
    for (const sim of sims().slice(0, 3)) bound.push(await bind(h(), tenant, sim.mac, mapId));
    // One gateway's devices, so the tenant holds rows of its own (its storage).
    await apiData(h().app, gatewayEndpoints.importDevices, { params: { id: bound[0]!.id } }, { token: tenant });
    url = await listenForRealtime(h().app);
    live = await stompClient(url, { Authorization: `Bearer ${admin}` });
    await live.subscribe(ROLLOUT_TOPIC, (m) => published.push(JSON.parse(m.body) as Rollout));
  }, 240_000);
  afterAll(async () => {
    await live?.stop();
    await rig?.close();
  });

  const detail = (id: string) => apiData(h().app, platformEndpoints.rollout, { params: { id } }, { token: admin });
  /** A gateway rollout to the current firmware, of every gateway in waves of WAVE, unless the test says otherwise. */
  const rolloutBody = (body: Partial<RolloutCreateBody>): RolloutCreateBody => ({
    target: 'gateway',
    version: GATEWAY_FIRMWARE.version,
    selection: {},
    waveSize: WAVE,
    concurrency: WAVE,
    failureThresholdPct: 10,
    ...body,
  });
  const startRollout = (body: Partial<RolloutCreateBody>, token = admin) =>
    api(h().app, platformEndpoints.startRollout, { body: rolloutBody(body) }, { token });
  const rolloutStarted = (body: Partial<RolloutCreateBody>) =>
    apiData(h().app, platformEndpoints.startRollout, { body: rolloutBody(body) }, { token: admin });

  /** The rollout's step jobs not yet finished: one chain of steps at most, whatever paused or resumed it. */
  async function stepsInFlight(id: string): Promise<number> {
    const rows = await h()
      .database.db.select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, ROLLOUT_JOB), inArray(jobs.state, ['queued', 'running']), like(jobs.key, `rollout:${id}/%`)));
    return rows.length;
  }

  /** Runs the rollout's due steps, a step's wait at a time, until `done` holds for its detail. */
  async function runUntil(id: string, done: (d: RolloutDetail) => boolean, what: string) {
    let last: RolloutDetail['rollout'] | undefined;
    await poll(
      async () => {
        await h().app.jobs.runDue();
        expect(await stepsInFlight(id)).toBeLessThanOrEqual(1);
        const now = await detail(id);
        last = now.rollout;
        if (done(now)) return true;
        h().clock.advance(ROLLOUT_CHECK_MS);
        return false;
      },
      () => `${what} (the rollout last ${last?.state}, ${JSON.stringify(last?.counts)})`,
      // The simulated gateways update in real time, tens at once: a machine busy with other suites is slow at it.
      { timeoutMs: 110_000, everyMs: 50 },
    );
  }

  it('shows the platform administrator every tenant and the fleet, and nobody else', async () => {
    const overview = await apiData(h().app, platformEndpoints.overview, {}, { token: admin });
    const owner = overview.tenants.find((t) => t.account === 'fleet-owner@example.com')!;
    expect(owner).toMatchObject({ gatewaysOnline: 3, gatewaysOffline: 0, openAlarms: 0 });
    expect(owner.devices).toBeGreaterThan(0);
    expect(owner.storageBytes).toBeGreaterThan(0);
    expect(overview.poolGateways).toBe(GATEWAYS - 3);
    expect(overview.firmware).toEqual([{ target: 'gateway', model: 'LG-GW-200', version: OLD_VERSION, count: GATEWAYS }]);
    expect(overview.databaseBytes).toBeGreaterThan(0);

    for (const call of [
      api(h().app, platformEndpoints.overview, {}, { token: tenant }),
      api(h().app, platformEndpoints.rollouts, {}, { token: tenant }),
      api(h().app, platformEndpoints.firmwareFiles, {}, { token: tenant }),
    ])
      expectError(await call, 110003);
    const spy = await stompClient(url, { Authorization: `Bearer ${tenant}` });
    await spy.subscribe(ROLLOUT_TOPIC, () => undefined);
    expect(spy.errors.length).toBe(1);
    await spy.stop();
  });

  it('refuses a rollout that cannot run, with a clear code', async () => {
    expectError(await startRollout({ version: '9.9.9' }), 104002);
    expectError(await startRollout({ concurrency: WAVE + 1 }), 104004);
    expectError(await startRollout({ window: { start: '02:00', end: '02:00' } }), 104007);
    expectError(await startRollout({ selection: { models: ['LG-NOPE'] } }), 104001);
    expectError(await api(h().app, platformEndpoints.rollout, { params: { id: '999999' } }, { token: admin }), 104003);
    expectError(await startRollout({}, tenant), 110003);
  });

  it('pauses at the threshold with the later waves untouched, and finishes on resume', async () => {
    const firstWave = sims().slice(0, WAVE);
    firstWave[1]!.faults.failUpdates = true;
    firstWave[6]!.faults.failUpdates = true;
    const started = await rolloutStarted({});
    expect(started).toMatchObject({ state: 'running', waves: GATEWAYS / WAVE, total: GATEWAYS });
    // Another rollout may not take gateways this one holds.
    expectError(await startRollout({ version: '3.2.9', waveSize: 5, concurrency: 5, failureThresholdPct: 0 }), 104005);

    await runUntil(started.id, (d) => d.rollout.state === 'paused' && d.rollout.counts.updating === 0, 'the pause at the threshold');
    const paused = await detail(started.id);
    expect(paused.rollout).toMatchObject({ pauseReason: 'threshold', currentWave: 1 });
    expect(paused.rollout.counts).toMatchObject({ succeeded: WAVE - 2, failed: 2, pending: GATEWAYS - WAVE });
    const failed = paused.targets.filter((t) => t.state === 'failed');
    expect(failed.map((t) => t.mac).sort()).toEqual([firstWave[1]!.mac, firstWave[6]!.mac].sort());
    expect(failed.every((t) => t.errorCode === 100102)).toBe(true);
    // The later waves were never sent an update.
    for (const sim of sims().slice(WAVE)) expect(sim.versions.gateway).toBe(OLD_VERSION);
    for (const sim of firstWave) expect(sim.versions.gateway).toBe(sim.faults.failUpdates ? OLD_VERSION : GATEWAY_FIRMWARE.version);
    // The owner's gateways show the pause's outcome to the administrator by tenant.
    expect(paused.targets.filter((t) => t.tenant === 'fleet-owner@example.com')).toHaveLength(3);
    await poll(() => published.some((r) => r.id === started.id && r.state === 'paused'), 'the pause published live');

    expectError(await api(h().app, platformEndpoints.pauseRollout, { params: { id: started.id } }, { token: admin }), 104006);
    const resumed = await apiData(h().app, platformEndpoints.resumeRollout, { params: { id: started.id } }, { token: admin });
    expect(resumed.state).toBe('running');
    await runUntil(started.id, (d) => d.rollout.state === 'done', 'the rollout to finish');
    const done = await detail(started.id);
    expect(done.rollout.counts).toMatchObject({ succeeded: GATEWAYS - 2, failed: 2, pending: 0, updating: 0 });
    expect(done.rollout.finishedAt).not.toBeNull();
    for (const sim of sims().slice(WAVE)) expect(sim.versions.gateway).toBe(GATEWAY_FIRMWARE.version);
    // Live: the progress went out wave by wave to the administrator's topic.
    await poll(() => published.some((r) => r.id === started.id && r.state === 'done'), 'the end published live');
    const waves = new Set(published.filter((r) => r.id === started.id).map((r) => r.currentWave));
    expect([...waves].sort()).toEqual([1, 2, 3, 4, 5]);
  }, 240_000);

  it('rolls a finished rollout back to the versions the gateways ran before', async () => {
    for (const sim of sims()) sim.faults.failUpdates = false;
    const updated = sims().filter((s) => s.versions.gateway === GATEWAY_FIRMWARE.version);
    const started = await rolloutStarted({
      version: '3.2.9',
      selection: { versions: [GATEWAY_FIRMWARE.version], models: ['LG-GW-200'] },
      waveSize: 25,
      concurrency: 25,
      failureThresholdPct: 0,
    });
    expect(started.total).toBe(updated.length);
    await runUntil(started.id, (d) => d.rollout.state === 'done', 'the second rollout');
    for (const sim of updated) expect(sim.versions.gateway).toBe('3.2.9');
    const rolling = await apiData(h().app, platformEndpoints.rollBack, { params: { id: started.id } }, { token: admin });
    expect(rolling.state).toBe('rollingBack');
    await runUntil(started.id, (d) => d.rollout.state === 'rolledBack', 'the rollback');
    const back = await detail(started.id);
    expect(back.rollout.counts.rolledBack).toBe(updated.length);
    for (const sim of updated) expect(sim.versions.gateway).toBe(GATEWAY_FIRMWARE.version);
  }, 240_000);
  it('starts each gateway only inside the maintenance window of its own time zone', async () => {
    const stragglers = sims().filter((s) => s.versions.gateway === OLD_VERSION);
    expect(stragglers).toHaveLength(2);
    const [onUtc, inTokyo] = stragglers as [(typeof stragglers)[0], (typeof stragglers)[0]];
    await h().database.db.update(gateways).set({ timezone: 'Asia/Tokyo' }).where(eq(gateways.mac, inTokyo.mac));
    const now = h().clock.now().getTime();
    const opens = Math.floor(now / HOUR_MS) * HOUR_MS + 2 * HOUR_MS;
    const clockOf = (at: number) => `${String(new Date(at).getUTCHours()).padStart(2, '0')}:00`;
    const started = await rolloutStarted({
      selection: { versions: [OLD_VERSION] },
      waveSize: 2,
      concurrency: 2,
      failureThresholdPct: 50,
      window: { start: clockOf(opens), end: clockOf(opens + HOUR_MS) },
    });
    await h().app.jobs.runDue();
    expect((await detail(started.id)).rollout.counts.pending).toBe(2);

    // The window opens on UTC's clock first; in Tokyo (9 h ahead) the same hours come 15 hours later.
    h().clock.advance(opens - now);
    // Hours pass on the injected clock: the administrator's session has ended meanwhile.
    admin = await login(h(), 'admin', ADMIN_PASSWORD);
    await runUntil(started.id, (d) => d.rollout.counts.succeeded === 1 && d.rollout.counts.updating === 0, 'the UTC gateway');
    const waiting = (await detail(started.id)).targets.find((t) => t.mac === inTokyo.mac)!;
    expect(waiting.state).toBe('pending');
    expect(onUtc.versions.gateway).toBe(GATEWAY_FIRMWARE.version);
    expect(inTokyo.versions.gateway).toBe(OLD_VERSION);

    h().clock.advance(15 * HOUR_MS);
    admin = await login(h(), 'admin', ADMIN_PASSWORD);
    await runUntil(started.id, (d) => d.rollout.state === 'done', 'the Tokyo gateway in its window');
    expect(inTokyo.versions.gateway).toBe(GATEWAY_FIRMWARE.version);
  }, 240_000);

  it('takes one tenant\u2019s gateways, and gives up a gateway whose update was claimed but never sent', async () => {
    const overview = await apiData(h().app, platformEndpoints.overview, {}, { token: admin });
    const owner = overview.tenants.find((t) => t.account === 'fleet-owner@example.com')!;
    const started = await rolloutStarted({
      version: '3.2.9',
      selection: { tenantIds: [owner.id] },
      waveSize: 3,
      concurrency: 3,
      failureThresholdPct: 50,
    });
    const owned = sims().slice(0, 3);
    expect((await detail(started.id)).targets.map((t) => t.mac)).toEqual(owned.map((s) => s.mac));
    // As a node that stopped between claiming the gateway and sending its update leaves it.
    const lost = owned[0]!;
    await h()
      .database.db.update(firmwareRolloutTargets)
      .set({ state: 'updating', startedAt: new Date(h().clock.now().getTime() - 11 * 60_000) })
      .where(and(eq(firmwareRolloutTargets.rolloutId, BigInt(started.id)), eq(firmwareRolloutTargets.mac, lost.mac)));
    await runUntil(started.id, (d) => d.rollout.state === 'done', 'the tenant\u2019s rollout');
    const done = await detail(started.id);
    expect(done.targets.find((t) => t.mac === lost.mac)).toMatchObject({ state: 'failed', errorCode: 100103 });
    expect(done.rollout.counts).toMatchObject({ succeeded: 2, failed: 1 });
    expect(owned.map((s) => s.versions.gateway)).toEqual([GATEWAY_FIRMWARE.version, '3.2.9', '3.2.9']);
  }, 240_000);
});
