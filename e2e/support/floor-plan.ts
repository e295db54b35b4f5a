import type { Page } from 'playwright-core';
import { encodePng, type Rgb } from '../../apps/server/src/test/png.ts';

/** A floor plan: a white PNG with four coloured rooms and dark walls, made here so journeys need no files. */
export function floorPlanPng(width: number, height: number): Buffer {
  const rooms: Array<[x0: number, y0: number, x1: number, y1: number, rgb: Rgb]> = [
    [0, 0, 0.4, 0.55, [224, 242, 254]],
    [0.4, 0, 0.7, 0.55, [236, 252, 240]],
    [0.7, 0, 1, 0.5, [243, 232, 255]],
    [0.7, 0.5, 1, 1, [252, 231, 243]],
  ];
  return encodePng(width, height, (x, y) => {
    const u = x / width;
    const v = y / height;
    const wall =
      x < 6 ||
      y < 6 ||
      x >= width - 6 ||
      y >= height - 6 ||
      rooms.some(([, y0, x1, y1]) => Math.abs(u - x1) * width < 3 && v >= y0 && v <= y1);
    const room = rooms.find(([x0, y0, x1, y1]) => u >= x0 && u < x1 && v >= y0 && v < y1);
    return wall ? [31, 41, 55] : (room?.[4] ?? [255, 255, 255]);
  });
}

/**
 * Where a stored position is on the screen: the floor-plan image's box scaled by the fractions. The box is read
 * once it holds still over two animation frames: a bar appearing below the plan resizes it, and the plan refits
 * a frame or more later.
 */
export async function screenAt(p: Page, position: { x: number; y: number }) {
  const box = await p.locator('img.lg-floor-plan-image').evaluate(
    (image) =>
      new Promise<{ x: number; y: number; width: number; height: number }>((settled) => {
        let last = '';
        const look = () => {
          const { x, y, width, height } = image.getBoundingClientRect();
          const now = JSON.stringify([x, y, width, height]);
          if (now === last) settled({ x, y, width, height });
          else {
            last = now;
            requestAnimationFrame(() => requestAnimationFrame(look));
          }
        };
        look();
      }),
  );
  return { x: box.x + position.x * box.width, y: box.y + position.y * box.height };
}

/** The colour the device canvas shows at a screen point, as #rrggbb. */
export async function colourAt(p: Page, point: { x: number; y: number }): Promise<string> {
  return p.getByTestId('device-canvas').evaluate((node, at) => {
    const canvas = node as HTMLCanvasElement;
    const box = canvas.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const [r, g, b] = canvas
      .getContext('2d')!
      .getImageData(Math.round((at.x - box.left) * ratio), Math.round((at.y - box.top) * ratio), 1, 1).data;
    return `#${[r, g, b].map((n) => (n ?? 0).toString(16).padStart(2, '0')).join('')}`;
  }, point);
}

/** Marker colours of the display states (the floor plan's legend). */
export const MARKER_COLOUR = { onFull: '#faad14', onPartial: '#ffe58f', off: '#8c8c8c' } as const;
