/**
 * The floor plan's canvas layer (apps/web/src/components/device-markers) in headless Chromium: the first draw
 * of 5,000 markers against one Leaflet DOM marker per device (divIcon) on the same map, the redraw after a
 * report batch, and a 20,000-device map loaded and panned by mouse with every frame's interval. With
 * `--before <git ref>` the same page is built a second time from the web app's sources at that ref, and the two
 * take turns in the same browser, so the ratio holds on a shared machine. See bench/README.md ("Devices").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { quantile } from './devices-site.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '5' },
    batch: { type: 'string', default: '114' },
    rounds: { type: 'string', default: '20' },
    'pan-devices': { type: 'string', default: '20000' },
    'pan-frames': { type: 'string', default: '120' },
    before: { type: 'string' },
  },
});
const N = Number(args.devices);
const RUNS = Number(args.runs);
const BATCH = Number(args.batch);
const ROUNDS = Number(args.rounds);
const PAN_N = Number(args['pan-devices']);
const PAN_FRAMES = Number(args['pan-frames']);
const root = resolve(import.meta.dirname, '..');

/** Reads the web app's sources as they were at a git ref (files the ref lacks come from the working tree). */
function atRef(ref: string): Plugin {
  return {
    name: 'web-at-ref',
    setup(b) {
      b.onLoad({ filter: /\/apps\/web\/src\/.*\.tsx?$/ }, (file) => {
        const path = relative(root, file.path);
        try {
          const contents = execFileSync('git', ['show', `${ref}:${path}`], {
            cwd: root,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          });
          return { contents, loader: file.path.endsWith('x') ? 'tsx' : 'ts', resolveDir: resolve(file.path, '..') };
        } catch {
          return undefined;
        }
      });
    },
  };
}

async function bundle(ref?: string): Promise<string> {
  const out = await build({
    entryPoints: [resolve(import.meta.dirname, 'devices-draw-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
    plugins: ref ? [atRef(ref)] : [],
  });
  return out.outputFiles[0]!.text;
}

const variants: { name: string; script: string }[] = [];
if (args.before) {
  execFileSync('git', ['rev-parse', '--verify', `${args.before}^{commit}`], { cwd: root, stdio: 'ignore' });
  variants.push({ name: `before (${args.before})`, script: await bundle(args.before) });
}
variants.push({ name: 'now (working tree)', script: await bundle() });

const css = readFileSync(resolve(root, 'node_modules/leaflet/dist/leaflet.css'), 'utf8');
const html = `<!doctype html><html><head><style>${css}
  body { margin: 0 } #map { width: 1200px; height: 800px; background: #f0f2f5 }
  .dom-marker span { display: block; width: 14px; height: 14px; border-radius: 50%; border: 2px solid; }
</style></head><body><div id="map"></div></body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

async function onPage<T>(script: string, fn: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.setContent(html);
    await page.addScriptTag({ content: script });
    return await fn(page);
  } finally {
    await page.close();
  }
}

type Fn = (...a: number[]) => Promise<unknown>;
const call = <T>(page: Page, name: string, ...a: number[]) =>
  page.evaluate(([fn, params]) => (window as unknown as Record<string, Fn>)[fn as string]!(...(params as number[])), [
    name,
    a,
  ] as const) as Promise<T>;

interface Samples {
  first: number[];
  firstLayer: number[];
  batchWork: number[];
  batchFrame: number[];
  panLoad: number[];
  panIntervals: number[];
  panFrames: number[];
  panDuration: number[];
  panFarthest: number[];
}
const results = new Map(
  variants.map((v) => [
    v.name,
    {
      first: [],
      firstLayer: [],
      batchWork: [],
      batchFrame: [],
      panLoad: [],
      panIntervals: [],
      panFrames: [],
      panDuration: [],
      panFarthest: [],
    } as Samples,
  ]),
);
const dom: number[] = [];

try {
  for (let run = 0; run < RUNS; run++) {
    for (const v of variants) {
      const s = results.get(v.name)!;
      const first = await onPage(v.script, (p) => call<{ firstDrawMs: number; layerDrawMs: number }>(p, 'drawCanvas', N));
      s.first.push(first.firstDrawMs);
      s.firstLayer.push(first.layerDrawMs);
      const batches = await onPage(v.script, (p) => call<{ workMs: number[]; frameMs: number[] }>(p, 'reportBatches', N, BATCH, ROUNDS));
      s.batchWork.push(...batches.workMs);
      s.batchFrame.push(...batches.frameMs);
      const pan = await onPage(v.script, async (p) => {
        const start = await call<{ x: number; y: number }>(p, 'panStart', PAN_N);
        // A hand's drag: press, one move per frame (left and up, then back), release.
        let { x, y } = start;
        await p.mouse.move(x, y);
        await p.mouse.down();
        for (let frame = 0; frame < PAN_FRAMES; frame++) {
          const dir = frame < PAN_FRAMES / 2 ? -1 : 1;
          x += dir * 9;
          y += dir * 4;
          await p.mouse.move(x, y);
          await p.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
        }
        await p.mouse.up();
        return call<{ loadMs: number; intervals: number[]; farthestPx: number; redraws: number }>(p, 'panEnd');
      });
      if (pan.farthestPx < 100 || pan.redraws === 0)
        throw new Error(`the pan did not happen (${Math.round(pan.farthestPx)} px, ${pan.redraws} ends)`);
      s.panFarthest.push(pan.farthestPx);
      s.panLoad.push(pan.loadMs);
      s.panIntervals.push(...pan.intervals);
      s.panFrames.push(pan.intervals.length);
      s.panDuration.push(pan.intervals.reduce((a, b) => a + b, 0));
    }
    const last = variants[variants.length - 1]!;
    dom.push((await onPage(last.script, (p) => call<{ firstDrawMs: number }>(p, 'drawDom', N))).firstDrawMs);
  }
  const row = (samples: number[]) => ({
    samples: samples.length,
    p50: quantile(samples, 0.5),
    p95: quantile(samples, 0.95),
    min: quantile(samples, 0),
    max: quantile(samples, 1),
  });
  const table: Record<string, ReturnType<typeof row>> = { [`first draw of ${N}: Leaflet DOM markers (divIcon)`]: row(dom) };
  const summary: Record<string, unknown> = { devices: N, batch: BATCH, panDevices: PAN_N, dom: row(dom) };
  for (const v of variants) {
    const s = results.get(v.name)!;
    const fps = s.panFrames.map((f, i) => (f * 1000) / s.panDuration[i]!);
    table[`${v.name}: first draw of ${N}, to the next frame`] = row(s.first);
    table[`${v.name}: first draw of ${N}, the layer's redraw`] = row(s.firstLayer);
    table[`${v.name}: batch of ${BATCH}, plan markers + layer`] = row(s.batchWork);
    table[`${v.name}: batch of ${BATCH}, to the next frame`] = row(s.batchFrame);
    table[`${v.name}: load ${PAN_N}, to the next frame`] = row(s.panLoad);
    table[`${v.name}: pan ${PAN_N}, frame interval`] = row(s.panIntervals);
    table[`${v.name}: pan ${PAN_N}, frames per second`] = row(fps);
    summary[v.name] = {
      first: row(s.first),
      firstLayer: row(s.firstLayer),
      batchWork: row(s.batchWork),
      batchFrame: row(s.batchFrame),
      panLoad: row(s.panLoad),
      panInterval: row(s.panIntervals),
      panFps: row(fps),
      panFramesOver20ms: s.panIntervals.filter((ms) => ms > 20).length,
      panFarthestPx: row(s.panFarthest),
    };
  }
  console.log(`\nheadless Chromium, 1200x800 map, ms unless named (runs: ${RUNS}, batches per run: ${ROUNDS})`);
  console.table(table);
  if (variants.length === 2) {
    const [a, b] = variants.map((v) => results.get(v.name)!);
    const ratio = (x: number[], y: number[]) => `x${Math.round((quantile(y, 0.5) / quantile(x, 0.5)) * 100) / 100}`;
    console.log(
      `now / before at p50: first draw ${ratio(a!.first, b!.first)}, batch ${ratio(a!.batchFrame, b!.batchFrame)}, ` +
        `load ${PAN_N} ${ratio(a!.panLoad, b!.panLoad)}, pan frame interval ${ratio(a!.panIntervals, b!.panIntervals)}`,
    );
  }
  console.log(JSON.stringify(summary));
} finally {
  await browser.close();
}
