/**
 * Size of the map-devices answer the floor plan loads (GET device/v1/state?mapId=) with about 5,000 devices
 * on one map, raw and gzip, against a naive baseline in the same process: the same devices as full device
 * records (the `Device` of device/v1/list and details, what a "send everything" answer would carry). See
 * bench/README.md ("Devices").
 */
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import type { Device, DeviceMarker, DevicePage } from '@lumigrid/contract';
import { quantile, sleep, startDeviceSite } from './devices-site.ts';

const { values: args } = parseArgs({
  options: {
    gateways: { type: 'string', default: '4' },
    // 19 families x 66 x 4 gateways, and the DALI bridges their buses need: 5,544 devices.
    'devices-per-kind': { type: 'string', default: '66' },
  },
});

const site = await startDeviceSite({ gateways: Number(args.gateways), devicesPerKind: Number(args['devices-per-kind']) });
try {
  // Every device reports once, so the status strings are as long as they are in use.
  for (const g of site.gateways) await site.json('GET', `/api4/gateway/v1/re_report/${g.id}`);
  const url = `/api4/device/v1/state?mapId=${site.mapId}`;
  for (let i = 0; i < 600; i++) {
    const markers = JSON.parse((await site.call('GET', url)).body) as { data: DeviceMarker[] };
    if (markers.data.every((m) => m.status !== '')) break;
    await sleep(100);
  }

  const times: number[] = [];
  let body = '';
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    body = (await site.call('GET', url)).body;
    times.push(performance.now() - t0);
  }
  const markers = (JSON.parse(body) as { data: DeviceMarker[] }).data;
  const n = markers.length;

  // The naive answer: every device's full record (device/v1/list, 200 a page), in one envelope.
  const t0 = performance.now();
  const full: Device[] = [];
  for (let page = 1; full.length < n; page++) {
    const got = await site.json<DevicePage>('POST', '/api4/device/v1/list', { mapId: site.mapId, page, pageSize: 200 });
    if (got.list.length === 0) break;
    full.push(...got.list);
  }
  const naiveMs = performance.now() - t0;
  const naive = JSON.stringify({ code: 0, msg: 'ok', data: full });

  const sizes = (text: string) => {
    const raw = Buffer.byteLength(text);
    const gzip = gzipSync(text).length;
    return { bytes: raw, 'bytes/device': Math.round((raw / n) * 10) / 10, gzip, 'gzip/device': Math.round((gzip / n) * 10) / 10 };
  };
  const compact = sizes(body);
  const baseline = sizes(naive);
  console.log(`\nmap-devices answer for ${n} devices on one map`);
  console.table({ 'baseline: full device records': baseline, 'device/v1/state (markers)': compact });
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  console.log(`markers / baseline: raw x${ratio(compact.bytes, baseline.bytes)}, gzip x${ratio(compact.gzip, baseline.gzip)}`);
  console.log(
    `state answer time (inject, ${times.length} runs): p50 ${quantile(times, 0.5)} ms, max ${quantile(times, 1)} ms; reading the baseline (${Math.ceil(n / 200)} list pages) took ${Math.round(naiveMs)} ms`,
  );
  console.log(JSON.stringify({ devices: n, compact, baseline, stateMs: quantile(times, 0.5) }));
} finally {
  await site.close();
}
