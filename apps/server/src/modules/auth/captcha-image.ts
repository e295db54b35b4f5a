import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LIMITS } from '@lumigrid/contract';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import type { CaptchaMaker } from './auth.service.ts';

const WIDTH = 132;
const HEIGHT = 44;
/** Letters and digits nobody confuses: no 0/O, 1/I/l. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const FONT = 'LumigridCaptcha';

// The sans-serif pdf.js ships, so the picture looks the same on every machine whatever fonts it has.
const fontDir = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts');
GlobalFonts.registerFromPath(join(fontDir, 'LiberationSans-Bold.ttf'), FONT);

const between = (min: number, max: number) => min + (randomInt(0, 10_000) / 10_000) * (max - min);
const colour = (light: number) => `hsl(${randomInt(0, 360)}, ${randomInt(40, 80)}%, ${light}%)`;

/**
 * Draws the text as a PNG: each character in its own size, angle and colour on a noisy ground, crossed by
 * curves, then bent by a wave. A raster picture leaves a script no glyph paths to match (the SVG captcha
 * carried each letter as a path a matcher could look up); reading it takes real recognition.
 */
export function drawCaptcha(text: string): string {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour(94);
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  for (let i = 0; i < 120; i++) {
    ctx.fillStyle = colour(randomInt(55, 85));
    ctx.fillRect(between(0, WIDTH), between(0, HEIGHT), between(1, 2.5), between(1, 2.5));
  }
  const step = (WIDTH - 16) / text.length;
  [...text].forEach((char, i) => {
    ctx.save();
    ctx.translate(10 + step * i + between(0, step * 0.3), HEIGHT / 2 + between(-4, 4));
    ctx.rotate(between(-0.45, 0.45));
    ctx.font = `bold ${randomInt(28, 35)}px ${FONT}`;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = colour(randomInt(20, 40));
    ctx.fillText(char, 0, 0);
    ctx.restore();
  });
  for (let i = 0; i < 3; i++) {
    ctx.strokeStyle = colour(randomInt(25, 55));
    ctx.lineWidth = between(1, 2.2);
    ctx.beginPath();
    ctx.moveTo(0, between(4, HEIGHT - 4));
    ctx.bezierCurveTo(between(20, 60), between(0, HEIGHT), between(70, 110), between(0, HEIGHT), WIDTH, between(4, HEIGHT - 4));
    ctx.stroke();
  }
  // A vertical wave: each column slides by a sine of its position, so no two pictures of a letter align.
  const source = ctx.getImageData(0, 0, WIDTH, HEIGHT);
  const bent = ctx.createImageData(WIDTH, HEIGHT);
  const amplitude = between(1.5, 3);
  const period = between(22, 38);
  const phase = between(0, Math.PI * 2);
  for (let x = 0; x < WIDTH; x++) {
    const shift = Math.round(amplitude * Math.sin(x / period + phase));
    for (let y = 0; y < HEIGHT; y++) {
      const from = (Math.min(HEIGHT - 1, Math.max(0, y + shift)) * WIDTH + x) * 4;
      const to = (y * WIDTH + x) * 4;
      for (let c = 0; c < 4; c++) bent.data[to + c] = source.data[from + c]!;
    }
  }
  ctx.putImageData(bent, 0, 0);
  return `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
}

/** A new captcha: random text from the clear alphabet, drawn. With CAPTCHA_TEXT set (browser tests) the answer is fixed. */
export function captchaMaker(fixedText: string | undefined): CaptchaMaker {
  return () => {
    const text = fixedText ?? Array.from({ length: LIMITS.captcha.length }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
    return { text, image: drawCaptcha(text) };
  };
}
