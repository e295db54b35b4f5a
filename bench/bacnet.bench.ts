/**
 * The BACnet/IP interface under a building management system's load (docs/bacnet.md), on the product's own server
 * (`startDeviceSite`: the embedded broker, a simulated gateway, every device placed on one map) with the interface
 * started as BACNET=on starts it, at its default freshness and COV poll:
 *
 * 1. ReadPropertyMultiple of `--objects` objects (Present_Value and Status_Flags of each, what a BMS polls), in
 *    as many requests as needed since the stack does not segment: one answer must fit one APDU of 1476 octets.
 *    Baseline in the same run: the map's devices through the HTTP API (`GET device/v1/state`), what the web
 *    reads for the same lights.
 * 2. COV: `--subscribed` objects subscribed (unconfirmed), `--rate` light changes a second reported by the
 *    simulated gateway, each timed from the report's publish to the COV notification of the light's output, and
 *    to the same change on the map's real-time topic (STOMP over SockJS, as the web sees it), the baseline.
 *
 * See bench/README.md ("BACnet/IP").
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ASN1_ARRAY_ALL, ObjectType, PropertyIdentifier as P, type BACNetObjectID } from '@bacnet-js/client';
import { levelToPercent, mapDestination, type DeviceMarker, type ProjectTree } from '@lumigrid/contract';
import type { SimDevice, SimGateway } from '@lumigrid/gateway-sim';
import { freeUdpPort, startTestClient } from '../apps/server/src/bacnet/bacnet-client.fixtures.ts';
import { listenForRealtime, stompClient } from '../apps/server/src/test/realtime.fixtures.ts';
import { quantile, sleep, startDeviceSite } from './devices-site.ts';
import { watchLoopDelay } from './loop-delay.ts';
import { postgresBase } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    'devices-per-kind': { type: 'string', default: '25' },
    objects: { type: 'string', default: '1000' },
    /** Times the whole set is read (each a sample of the set's read time). */
    rounds: { type: 'string', default: '20' },
    subscribed: { type: 'string', default: '500' },
    rate: { type: 'string', default: '50' },
    duration: { type: 'string', default: '20' },
  },
});
if (args.db !== 'pglite' && args.db !== 'postgres') throw new Error('--db is pglite or postgres');
const OBJECTS = Number(args.objects);
const ROUNDS = Number(args.rounds);
const SUBSCRIBED = Number(args.subscribed);
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const DEVICE_INSTANCE = 260_001;
type CovValue = { property: { id: number }; value: Array<{ value: unknown }> };
const LIGHT_TYPES = new Set<number>([ObjectType.LIGHTING_OUTPUT, ObjectType.BINARY_LIGHTING_OUTPUT]);

const log = (line: string) => process.stdout.write(`${line}\n`);
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const figures = (samples: number[]) => ({
  n: samples.length,
  p50: quantile(samples, 0.5),
  p99: quantile(samples, 0.99),
  max: quantile(samples, 1),
});
const load = () => loadavg().map((l) => Math.round(l * 10) / 10);

const postgres = args.db === 'postgres' ? await postgresBase() : undefined;
if (args.db === 'postgres' && !postgres) throw new Error('PostgreSQL does not answer (DATABASE_URL or 127.0.0.1:5432)');
const loadAtStart = load();
const site = await startDeviceSite({ gateways: 1, devicesPerKind: Number(args['devices-per-kind']), postgres });
try {
  const tree = await site.json<ProjectTree>('GET', '/api4/project_user/v1/0/sub_links');
  const projectId = BigInt(tree.projects.find((p) => p.isDefault)!.id);
  const port = await freeUdpPort();
  await site.app.bacnet.start({
    port,
    interface: '127.0.0.1',
    deviceInstance: DEVICE_INSTANCE,
    account: 'admin',
    projectId,
    readOnly: false,
  });
  const client = await startTestClient();
  const receiver = { address: `127.0.0.1:${port}` };
  const device = { type: ObjectType.DEVICE, instance: DEVICE_INSTANCE };

  // Object_List a hundred entries at a time (the whole list does not fit one APDU).
  const count = Number((await client.readProperty(receiver, device, P.OBJECT_LIST, { arrayIndex: 0 })).values[0]!.value);
  const ids: BACNetObjectID[] = [];
  for (let from = 1; from <= count; from += 100) {
    const indices = Array.from({ length: Math.min(100, count - from + 1) }, (_, i) => from + i);
    const answer = await client.readPropertyMultiple(receiver, [
      { objectId: device, properties: indices.map((index) => ({ id: P.OBJECT_LIST, index })) },
    ]);
    ids.push(...answer.values[0]!.values.map((v) => v.value[0]!.value as BACNetObjectID));
  }
  const served = ids.filter((id) => id.type !== ObjectType.DEVICE && id.type !== ObjectType.NOTIFICATION_CLASS);
  if (served.length < OBJECTS) throw new Error(`the device serves ${served.length} objects, fewer than --objects ${OBJECTS}`);
  const polled = served.slice(0, OBJECTS);
  log(`${args.db}: ${site.devices.length} devices on one map, ${served.length} BACnet objects; load average ${loadAtStart.join(' ')}`);

  // The most objects one answer carries (every object's answer has the same size): down from 100 until it fits an APDU.
  const rpm = (slice: readonly BACNetObjectID[]) =>
    client.readPropertyMultiple(
      receiver,
      slice.map((objectId) => ({
        objectId,
        properties: [
          { id: P.PRESENT_VALUE, index: ASN1_ARRAY_ALL },
          { id: P.STATUS_FLAGS, index: ASN1_ARRAY_ALL },
        ],
      })),
    );
  let perRequest = 100;
  for (;;) {
    const fits = await rpm(polled.slice(0, perRequest)).then(
      () => true,
      () => false,
    );
    if (fits) break;
    perRequest--;
    if (perRequest === 0) throw new Error('not even one object fits an answer');
  }
  const requests = Math.ceil(OBJECTS / perRequest);

  // Phase 1: the set read ROUNDS times, one request after another (as a BMS's poll), and the HTTP baseline alternately.
  const rpmLoop = watchLoopDelay();
  const setMs: number[] = [];
  const requestMs: number[] = [];
  const httpMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < polled.length; i += perRequest) {
      const r0 = performance.now();
      const answer = await rpm(polled.slice(i, i + perRequest));
      requestMs.push(performance.now() - r0);
      if (answer.values.length !== Math.min(perRequest, polled.length - i)) throw new Error('an answer missed objects');
    }
    setMs.push(performance.now() - t0);
    const h0 = performance.now();
    await site.json<DeviceMarker[]>('GET', `/api4/device/v1/state?mapId=${site.mapId}`);
    httpMs.push(performance.now() - h0);
  }
  const rpmLoopDelay = rpmLoop.stop();
  const set = figures(setMs);
  const objectsPerS = Math.round((OBJECTS * setMs.length * 1000) / setMs.reduce((s, t) => s + t, 0));
  const http = figures(httpMs);

  // Phase 2: COV. The lights' outputs first among the subscribed objects, then other objects up to SUBSCRIBED.
  const outputs = served.filter((id) => LIGHT_TYPES.has(id.type));
  const subscribed = [...outputs, ...served.filter((id) => !LIGHT_TYPES.has(id.type))].slice(0, SUBSCRIBED);
  const names = new Map<string, string>();
  for (let i = 0; i < outputs.length; i += 20) {
    const answer = await client.readPropertyMultiple(
      receiver,
      outputs.slice(i, i + 20).map((objectId) => ({ objectId, properties: [{ id: P.OBJECT_NAME, index: ASN1_ARRAY_ALL }] })),
    );
    for (const v of answer.values) names.set(`${v.objectId.type}:${v.objectId.instance}`, String(v.values[0]!.value[0]!.value));
  }
  const gateway = site.fleet.gateways[0]! as SimGateway;
  const mapName = tree.projects.flatMap((p) => p.builds.flatMap((b) => b.maps)).find((m) => m.id === site.mapId)!.name;
  // A changing light: a dimmable one (a Lighting Output, subscribed), its platform id and the simulator's device.
  const outputOf = new Map(
    outputs.filter((id) => id.type === ObjectType.LIGHTING_OUTPUT).map((id) => [names.get(`${id.type}:${id.instance}`), id]),
  );
  const lights = site.devices
    .map((d) => ({ id: d.id, output: outputOf.get(`${mapName}/${d.name}`), sim: gateway.devices.get(d.addr) }))
    .filter(
      (l): l is { id: string; output: BACNetObjectID; sim: SimDevice } =>
        l.output !== undefined && typeof (l.sim?.state as { level?: unknown } | undefined)?.level === 'number',
    );
  if (lights.length < RATE) throw new Error(`only ${lights.length} dimmable lights subscribed, fewer than --rate ${RATE}`);

  const changes: Array<{ light: (typeof lights)[number]; level: number; at: number; cov?: number; topic?: number }> = [];
  const pending = new Map<string, (typeof changes)[number]>();
  const byOutput = new Map(lights.map((l) => [`${l.output.type}:${l.output.instance}`, l]));
  // Typed as the integration test types it: the stack's payload type leaves the values untyped.
  client.on('covNotifyUnconfirmed', (content: { payload: { monitoredObjectId: BACNetObjectID; values: CovValue[] } }) => {
    const id = content.payload.monitoredObjectId;
    const light = byOutput.get(`${id.type}:${id.instance}`);
    const change = light && pending.get(light.id);
    if (!change || change.cov !== undefined) return;
    const value = content.payload.values.find((v) => v.property.id === P.PRESENT_VALUE)?.value[0]?.value;
    if (value === levelToPercent(change.level)) change.cov = performance.now() - change.at;
  });
  const url = await listenForRealtime(site.app);
  const watcher = await stompClient(url, { token: site.token });
  await watcher.subscribe(mapDestination(site.mapId), (message) => {
    const marker = JSON.parse(message.body) as DeviceMarker;
    const change = pending.get(marker.id);
    if (change && change.topic === undefined) change.topic = performance.now() - change.at;
  });
  for (const [i, objectId] of subscribed.entries()) await client.subscribeCov(receiver, objectId, 1000 + i, false, false, 0);
  // The first notifications (one per subscription) go out before the changes start.
  await sleep(2000);

  // The simulator changes a light only by command; a local change (a wall dimmer) is its state and a report.
  const report = (gateway as unknown as { publishReport(devices: SimDevice[], full: boolean): void }).publishReport.bind(gateway);
  const covLoop = watchLoopDelay();
  const total = RATE * DURATION_S;
  const start = performance.now();
  let skipped = 0;
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    // One change per light in flight, so each notification answers exactly one change.
    const light = lights[i % lights.length]!;
    const previous = pending.get(light.id);
    if (previous && (previous.cov === undefined || previous.topic === undefined)) {
      skipped++;
      continue;
    }
    const state = light.sim.state as { on: boolean; level: number };
    // Levels that are whole percents, alternating, so every change is a new Present_Value.
    const level = state.level === 127 ? 254 : 127;
    state.on = true;
    state.level = level;
    const change = { light, level, at: performance.now() };
    changes.push(change);
    pending.set(light.id, change);
    report([light.sim], false);
  }
  for (let i = 0; i < 100 && changes.some((c) => c.cov === undefined || c.topic === undefined); i++) await sleep(50);
  const covLoopDelay = covLoop.stop();
  await watcher.stop();
  client.close();

  const cov = figures(changes.flatMap((c) => (c.cov === undefined ? [] : [c.cov])));
  const topic = figures(changes.flatMap((c) => (c.topic === undefined ? [] : [c.topic])));
  const lostCov = changes.length - cov.n;
  const lostTopic = changes.length - topic.n;
  const loadAtEnd = load();

  log(
    `\nReadPropertyMultiple: ${OBJECTS} objects (Present_Value, Status_Flags) in ${requests} requests of ${perRequest}, ${ROUNDS} rounds (ms)`,
  );
  console.table({
    'the set over BACnet': set,
    'one request': figures(requestMs),
    'baseline: map devices over HTTP': http,
  });
  log(`objects/s: ${objectsPerS}; set p99 / HTTP p99: x${ratio(set.p99, http.p99)}`);
  log(
    `\nCOV: ${subscribed.length} subscribed, ${changes.length} changes at ${RATE}/s for ${DURATION_S} s (${skipped} skipped: light busy) (ms)`,
  );
  console.table({ 'report -> COV notification': cov, 'baseline: report -> /topic/map': topic });
  log(`lost: COV ${lostCov}, map topic ${lostTopic}; COV p99 / map topic p99: x${ratio(cov.p99, topic.p99)}`);
  log('event loop delay (server, gateway, clients in one process), ms:');
  console.table({ rpm: rpmLoopDelay, cov: covLoopDelay });
  log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}; load average at start ${loadAtStart.join(' ')}, at end ${loadAtEnd.join(' ')}`,
  );
  log(
    JSON.stringify({
      db: args.db,
      devices: site.devices.length,
      objects: served.length,
      rpm: { perRequest, requests, set, objectsPerS, request: figures(requestMs), http },
      cov: { subscribed: subscribed.length, changes: changes.length, skipped, cov, topic, lostCov, lostTopic },
      loopDelay: { rpm: rpmLoopDelay, cov: covLoopDelay },
      load: { start: loadAtStart, end: loadAtEnd },
    }),
  );
  if (lostCov > 0 || lostTopic > 0) process.exitCode = 1;
} finally {
  await site.close();
}
