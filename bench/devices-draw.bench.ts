/**
 * First draw of 5,000 device markers in headless Chromium: the floor plan's canvas layer
 * (apps/web/src/components/device-markers) against a baseline in the same browser, one Leaflet DOM marker
 * per device (divIcon), on the same Leaflet map. Each run is a fresh page; the figure is from adding the
 * layer to the end of the next frame. See bench/README.md ("Devices").
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { quantile } from './devices-site.ts';

const { values: args } = parseArgs({ options: { devices: { type: 'string', default: '5000' }, runs: { type: 'string', default: '5' } } });
const N = Number(args.devices);
const RUNS = Number(args.runs);
const root = resolve(import.meta.dirname, '..');

const bundle = await build({
  entryPoints: [resolve(import.meta.dirname, 'devices-draw-page.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  logLevel: 'error',
});
const script = bundle.outputFiles[0]!.text;
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
try {
  const canvas: number[] = [];
  const canvasLayer: number[] = [];
  const dom: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const variant of ['canvas', 'dom'] as const) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.setContent(html);
      await page.addScriptTag({ content: script });
      if (variant === 'canvas') {
        const result = await page.evaluate(
          (n) => (window as unknown as { drawCanvas: (n: number) => Promise<{ firstDrawMs: number; layerDrawMs: number }> }).drawCanvas(n),
          N,
        );
        canvas.push(result.firstDrawMs);
        canvasLayer.push(result.layerDrawMs);
      } else {
        const result = await page.evaluate(
          (n) => (window as unknown as { drawDom: (n: number) => Promise<{ firstDrawMs: number }> }).drawDom(n),
          N,
        );
        dom.push(result.firstDrawMs);
      }
      await page.close();
    }
  }
  const row = (samples: number[]) => ({
    runs: samples.length,
    p50: quantile(samples, 0.5),
    min: quantile(samples, 0),
    max: quantile(samples, 1),
  });
  console.log(`\nfirst draw of ${N} markers in headless Chromium, 1200x800 map (ms, to the end of the next frame)`);
  console.table({
    'baseline: Leaflet DOM markers (divIcon)': row(dom),
    'canvas layer': row(canvas),
    'canvas layer: its redraw alone': row(canvasLayer),
  });
  console.log(`DOM / canvas: x${Math.round((quantile(dom, 0.5) / quantile(canvas, 0.5)) * 10) / 10} at p50`);
  console.log(JSON.stringify({ devices: N, dom: row(dom), canvas: row(canvas), canvasRedraw: row(canvasLayer) }));
} finally {
  await browser.close();
}
