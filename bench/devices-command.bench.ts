/**
 * Command round trip of the floor plan: POST device/v1/control through the server, the broker and a simulated
 * gateway (radio delay 0), and the gateway's report back out on the map's real-time topic, at a steady
 * 50 commands/s. The baseline, in the same process and at the same rate, is the command bus alone: a
 * `gateway.info` request to the same gateway and its reply, with no HTTP, database or report. See
 * bench/README.md ("Devices").
 */
import { parseArgs } from 'node:util';
import { mapDestination, type DeviceMarker } from '@lumigrid/contract';
import { listenForRealtime, stompClient } from '../apps/server/src/test/realtime.fixtures.ts';
import { quantile, sleep, startDeviceSite } from './devices-site.ts';
import { watchLoopDelay } from './loop-delay.ts';
import { postgresBase } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    duration: { type: 'string', default: '20' },
    'devices-per-kind': { type: 'string', default: '25' },
    db: { type: 'string', default: 'pglite' },
    /** Seconds each half of the audit A/B lasts: long beside the writer's flush period, so few batches land in the other half. */
    'audit-slice': { type: 'string', default: '5' },
    /** Seconds of the audit A/B (default: --duration), so a long A/B need not lengthen the other phases. */
    'audit-duration': { type: 'string' },
  },
});
if (args.db !== 'pglite' && args.db !== 'postgres') throw new Error('--db is pglite or postgres');
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const AUDIT_SLICE_MS = Number(args['audit-slice']) * 1000;
const AUDIT_DURATION_S = Number(args['audit-duration'] ?? DURATION_S);
const LIGHT_KINDS = new Set(['light-single', 'light-dimmer', 'light-cct', 'light-rgb']);

interface Figures {
  sent: number;
  completed: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
}

function figures(samples: number[], sent: number): Figures {
  return {
    sent,
    completed: samples.length,
    lost: sent - samples.length,
    p50: quantile(samples, 0.5),
    p99: quantile(samples, 0.99),
    max: quantile(samples, 1),
  };
}

/** Fires `fire` RATE times a second for `seconds` on a fixed schedule (open loop: late answers never slow it). */
async function paced(fire: (i: number) => void, seconds = DURATION_S): Promise<number> {
  const total = RATE * seconds;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    fire(i);
  }
  return total;
}

const postgres = args.db === 'postgres' ? await postgresBase() : undefined;
if (args.db === 'postgres' && !postgres) throw new Error('PostgreSQL does not answer (DATABASE_URL or 127.0.0.1:5432)');
// The audit trail's A/B phase switches writing the entries on and off; every other phase writes them, as the product does.
let auditWritten = true;
const site = await startDeviceSite({
  gateways: 1,
  devicesPerKind: Number(args['devices-per-kind']),
  postgres,
  auditSink: (sink) => ({ ...sink, record: (draft) => (auditWritten ? sink.record(draft) : undefined) }),
});
try {
  const url = await listenForRealtime(site.app);
  const watcher = await stompClient(url, { token: site.token });
  const lights = site.devices.filter((d) => LIGHT_KINDS.has(d.kind));
  const mac = site.fleet.gateways[0]!.mac;

  // Baseline: the command bus alone.
  const busLoop = watchLoopDelay();
  const busSamples: number[] = [];
  const busSent = await paced(() => {
    const t0 = performance.now();
    void site.app
      .gatewayLink!.bus.call(mac, 'gateway.info', {})
      .then(() => busSamples.push(performance.now() - t0))
      .catch(() => undefined);
  });
  await sleep(2000);
  const busLoopDelay = busLoop.stop();

  // The floor plan's path: HTTP control, confirmation, report, map topic.
  const waiting = new Map<string, number>();
  const reportSamples: number[] = [];
  const ackSamples: number[] = [];
  await watcher.subscribe(mapDestination(site.mapId), (message) => {
    const marker = JSON.parse(message.body) as DeviceMarker;
    const t0 = waiting.get(marker.id);
    if (t0 === undefined) return;
    waiting.delete(marker.id);
    reportSamples.push(performance.now() - t0);
  });
  const controlLoop = watchLoopDelay();
  const on = new Map<string, boolean>();
  let skipped = 0;
  let cursor = 0;
  const sent = await paced(() => {
    // One command per light in flight, so each report answers exactly one command.
    let light = lights[cursor++ % lights.length]!;
    for (let tries = 0; waiting.has(light.id) && tries < lights.length; tries++) light = lights[cursor++ % lights.length]!;
    if (waiting.has(light.id)) {
      skipped++;
      return;
    }
    const next = !(on.get(light.id) ?? false);
    on.set(light.id, next);
    const t0 = performance.now();
    waiting.set(light.id, t0);
    void site
      .json('POST', '/api4/device/v1/control', { id: light.id, action: { op: 'onOff', on: next } })
      .then(() => ackSamples.push(performance.now() - t0))
      .catch(() => waiting.delete(light.id));
  });
  for (let i = 0; i < 100 && waiting.size > 0; i++) await sleep(50);
  const controlLoopDelay = controlLoop.stop();
  await watcher.stop();

  // Audit A/B: the same control path, with the calls' audit entries written in alternate slices and not in the
  // others, so load from elsewhere on the machine falls on both halves alike. A call counts for the half it was
  // sent in; the writer's batches land up to one flush period later, so the last batch of a slice may land in
  // the next one.
  const written: number[] = [];
  const notWritten: number[] = [];
  const slices = setInterval(() => (auditWritten = !auditWritten), AUDIT_SLICE_MS);
  let abSkipped = 0;
  const abSent = await paced(() => {
    let light = lights[cursor++ % lights.length]!;
    for (let tries = 0; waiting.has(light.id) && tries < lights.length; tries++) light = lights[cursor++ % lights.length]!;
    if (waiting.has(light.id)) {
      abSkipped++;
      return;
    }
    const next = !(on.get(light.id) ?? false);
    on.set(light.id, next);
    const samples = auditWritten ? written : notWritten;
    const t0 = performance.now();
    waiting.set(light.id, t0);
    void site
      .json('POST', '/api4/device/v1/control', { id: light.id, action: { op: 'onOff', on: next } })
      .then(() => samples.push(performance.now() - t0))
      .catch(() => undefined)
      .finally(() => waiting.delete(light.id));
  }, AUDIT_DURATION_S);
  clearInterval(slices);
  auditWritten = true;
  for (let i = 0; i < 100 && waiting.size > 0; i++) await sleep(50);

  const bus = figures(busSamples, busSent);
  const ack = figures(ackSamples, sent - skipped);
  const report = figures(reportSamples, sent - skipped);
  const ratio = (a: number, b: number) => Math.round((a / b) * 10) / 10;
  console.log(`\ncommand round trip at ${RATE}/s for ${DURATION_S} s, ${lights.length} lights, radio delay 0, ${args.db} (ms)`);
  console.table({
    'baseline: command bus (gateway.info)': bus,
    'control answered (gateway confirmed)': ack,
    'control -> report on /topic/map': report,
  });
  console.log(`skipped (every light busy): ${skipped}`);
  const withAudit = figures(written, written.length);
  const withoutAudit = figures(notWritten, notWritten.length);
  console.log(
    `audit trail A/B, alternate ${AUDIT_SLICE_MS / 1000} s slices (${abSent - abSkipped} commands, ${abSkipped} skipped), control answered (ms):`,
  );
  console.table({ 'entries written': withAudit, 'entries not written': withoutAudit });
  console.log(
    `audit trail cost: p50 x${ratio(withAudit.p50, withoutAudit.p50)}, p99 x${ratio(withAudit.p99, withoutAudit.p99)} (${Math.round((withAudit.p99 / withoutAudit.p99 - 1) * 1000) / 10} % on p99)`,
  );
  console.log('event loop delay of the process (server, gateway and watcher), ms:');
  console.table({ 'command bus phase': busLoopDelay, 'control phase': controlLoopDelay });
  console.log(
    `ratio to the baseline: confirmed p50 x${ratio(ack.p50, bus.p50)}, p99 x${ratio(ack.p99, bus.p99)}; report p50 x${ratio(report.p50, bus.p50)}, p99 x${ratio(report.p99, bus.p99)}`,
  );
  console.log(
    JSON.stringify({
      db: args.db,
      rate: RATE,
      durationS: DURATION_S,
      bus,
      ack,
      report,
      skipped,
      audit: { written: withAudit, notWritten: withoutAudit },
      loopDelay: { bus: busLoopDelay, control: controlLoopDelay },
    }),
  );
  if (report.lost > 0 || ack.lost > 0) process.exitCode = 1;
} finally {
  await site.close();
}
