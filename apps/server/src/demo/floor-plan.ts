import { writeFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';

/**
 * The demo site's floor plan: level 3 of an office tower, drawn in code so it can be changed and redrawn.
 * The server reads the committed picture (assets/demo/floor-plan.png) rather than drawing at start, so the
 * demo looks the same on a machine without fonts. Redraw it with `npx tsx src/demo/floor-plan.ts`. Found from
 * the package root, not from this file: bundled into dist/main.js (npm start), the code sits one folder higher.
 */
export const FLOOR_PLAN_FILE = join(
  dirname(createRequire(import.meta.url).resolve('@lumigrid/server/package.json')),
  'assets/demo/floor-plan.png',
);

export const WIDTH = 1600;
export const HEIGHT = 1000;
/** The building's outline inside the picture. */
const OUTER = { x: 80, y: 110, w: 1440, h: 800 };
/** The corridor runs east-west through the middle. */
export const CORRIDOR = { y: 470, h: 90 };

export interface Room {
  name: string;
  area: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fill: string;
  /** Where the door opens onto the corridor: the x of its middle; none for rooms reached from another. */
  door?: number;
}

const top = OUTER.y;
const northH = CORRIDOR.y - OUTER.y;
const south = CORRIDOR.y + CORRIDOR.h;
const southH = OUTER.y + OUTER.h - south;

export const ROOMS: readonly Room[] = [
  { name: 'Open office A', area: '186 m²', x: 80, y: top, w: 520, h: northH, fill: '#eef4fb', door: 480 },
  { name: 'Meeting 3.01', area: '32 m²', x: 600, y: top, w: 190, h: northH, fill: '#fdf3e6', door: 695 },
  { name: 'Meeting 3.02', area: '32 m²', x: 790, y: top, w: 190, h: northH, fill: '#fdf3e6', door: 885 },
  { name: 'Director', area: '28 m²', x: 980, y: top, w: 180, h: northH, fill: '#f1f0fa', door: 1070 },
  { name: 'Open office B', area: '132 m²', x: 1160, y: top, w: 360, h: northH, fill: '#eef4fb', door: 1220 },
  { name: 'Reception', area: '64 m²', x: 80, y: south, w: 300, h: southH, fill: '#eaf6ef', door: 300 },
  { name: 'Lifts', area: '', x: 380, y: south, w: 160, h: southH, fill: '#e9e9e9', door: 460 },
  { name: 'Stairs', area: '', x: 540, y: south, w: 120, h: southH, fill: '#e9e9e9', door: 600 },
  { name: 'WC', area: '18 m²', x: 660, y: south, w: 130, h: southH, fill: '#e8f3f7', door: 725 },
  { name: 'Kitchen', area: '40 m²', x: 790, y: south, w: 220, h: southH, fill: '#fbf0ec', door: 900 },
  { name: 'Server room', area: '16 m²', x: 1010, y: south, w: 150, h: southH, fill: '#f6e9ef', door: 1085 },
  { name: 'Training room', area: '96 m²', x: 1160, y: south, w: 360, h: southH, fill: '#fdf3e6', door: 1260 },
];

const DOOR = 56;
const WALL = '#3d4451';

function label(ctx: SKRSContext2D, room: Room) {
  const cx = room.x + room.w / 2;
  // Lifts and stairs carry their drawing in the middle; their names go above it.
  const cy = room.area ? room.y + room.h / 2 : room.y + 100;
  ctx.fillStyle = '#2b3340';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = room.w < 170 ? 'bold 17px "DejaVu Sans", sans-serif' : 'bold 20px "DejaVu Sans", sans-serif';
  ctx.fillText(room.name, cx, room.area ? cy - 12 : cy);
  if (room.area) {
    ctx.fillStyle = '#6b7482';
    ctx.font = '15px "DejaVu Sans", sans-serif';
    ctx.fillText(room.area, cx, cy + 14);
  }
}

/** Desks in rows, so open offices read as offices. */
function desks(ctx: SKRSContext2D, room: Room, rows: number, perRow: number) {
  ctx.strokeStyle = '#b9c6d6';
  ctx.lineWidth = 1.5;
  const padX = 40;
  const padY = 50;
  const cellW = (room.w - 2 * padX) / perRow;
  const cellH = (room.h - 2 * padY) / rows;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < perRow; c++) {
      const x = room.x + padX + c * cellW + cellW * 0.2;
      const y = room.y + padY + r * cellH + cellH * 0.25;
      // Leave the middle free for the room's name.
      if (Math.abs(x + cellW * 0.3 - (room.x + room.w / 2)) < 80 && Math.abs(y + cellH * 0.25 - (room.y + room.h / 2)) < 40) continue;
      ctx.strokeRect(x, y, cellW * 0.6, cellH * 0.5);
    }
  }
}

/** A meeting table with chairs around it. */
function table(ctx: SKRSContext2D, room: Room) {
  const w = room.w * 0.5;
  const h = 44;
  const x = room.x + (room.w - w) / 2;
  const y = room.y + room.h - 110;
  ctx.strokeStyle = '#d2b48c';
  ctx.lineWidth = 2;
  ctx.strokeRect(x, y, w, h);
  ctx.fillStyle = '#e8d3b5';
  for (let i = 0; i < 3; i++) {
    const cx = x + (w / 3) * (i + 0.5);
    ctx.beginPath();
    ctx.arc(cx, y - 12, 7, 0, Math.PI * 2);
    ctx.arc(cx, y + h + 12, 7, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** Draws the floor plan and answers it as PNG bytes. */
export function drawFloorPlan(): Buffer {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);

  // A faint grid of 1 m squares (20 px), as architects' plans have.
  ctx.strokeStyle = '#f2f4f7';
  ctx.lineWidth = 1;
  for (let x = OUTER.x; x <= OUTER.x + OUTER.w; x += 20) {
    ctx.beginPath();
    ctx.moveTo(x, OUTER.y);
    ctx.lineTo(x, OUTER.y + OUTER.h);
    ctx.stroke();
  }
  for (let y = OUTER.y; y <= OUTER.y + OUTER.h; y += 20) {
    ctx.beginPath();
    ctx.moveTo(OUTER.x, y);
    ctx.lineTo(OUTER.x + OUTER.w, y);
    ctx.stroke();
  }

  for (const room of ROOMS) {
    ctx.fillStyle = room.fill;
    ctx.fillRect(room.x, room.y, room.w, room.h);
  }
  ctx.fillStyle = '#f7f7f4';
  ctx.fillRect(OUTER.x, CORRIDOR.y, OUTER.w, CORRIDOR.h);

  for (const name of ['Open office A', 'Open office B'])
    desks(
      ctx,
      ROOMS.find((r) => r.name === name)!,
      3,
      name.endsWith('A') ? 6 : 4,
    );
  for (const name of ['Meeting 3.01', 'Meeting 3.02', 'Training room'])
    table(
      ctx,
      ROOMS.find((r) => r.name === name)!,
    );

  // Lift cars and stair treads.
  const lifts = ROOMS.find((r) => r.name === 'Lifts')!;
  ctx.strokeStyle = '#9aa1ab';
  ctx.lineWidth = 2;
  for (let i = 0; i < 2; i++) {
    const x = lifts.x + 20 + i * 65;
    ctx.strokeRect(x, lifts.y + 150, 55, 120);
    ctx.beginPath();
    ctx.moveTo(x, lifts.y + 150);
    ctx.lineTo(x + 55, lifts.y + 270);
    ctx.moveTo(x + 55, lifts.y + 150);
    ctx.lineTo(x, lifts.y + 270);
    ctx.stroke();
  }
  const stairs = ROOMS.find((r) => r.name === 'Stairs')!;
  ctx.lineWidth = 1.5;
  for (let y = stairs.y + 120; y < stairs.y + stairs.h - 20; y += 16) {
    ctx.beginPath();
    ctx.moveTo(stairs.x + 15, y);
    ctx.lineTo(stairs.x + stairs.w - 15, y);
    ctx.stroke();
  }

  // Walls: the rooms' outlines, then the doors cut out of the corridor walls.
  ctx.strokeStyle = WALL;
  ctx.lineWidth = 5;
  for (const room of ROOMS) ctx.strokeRect(room.x, room.y, room.w, room.h);
  for (const room of ROOMS) {
    if (room.door === undefined) continue;
    const wallY = room.y === top ? room.y + room.h : room.y;
    ctx.fillStyle = '#f7f7f4';
    ctx.fillRect(room.door - DOOR / 2, wallY - 4, DOOR, 8);
    // The door leaf and its swing.
    ctx.strokeStyle = '#8a929e';
    ctx.lineWidth = 1.5;
    const inward = room.y === top ? -1 : 1;
    ctx.beginPath();
    ctx.moveTo(room.door - DOOR / 2, wallY);
    ctx.lineTo(room.door - DOOR / 2, wallY + inward * DOOR);
    ctx.stroke();
    ctx.beginPath();
    if (inward < 0) ctx.arc(room.door - DOOR / 2, wallY, DOOR, -Math.PI / 2, 0);
    else ctx.arc(room.door - DOOR / 2, wallY, DOOR, 0, Math.PI / 2);
    ctx.stroke();
  }
  ctx.strokeStyle = WALL;
  ctx.lineWidth = 10;
  ctx.strokeRect(OUTER.x, OUTER.y, OUTER.w, OUTER.h);

  // Windows along the outer walls.
  ctx.strokeStyle = '#7fb3e0';
  ctx.lineWidth = 4;
  for (let x = OUTER.x + 60; x < OUTER.x + OUTER.w - 60; x += 120) {
    for (const y of [OUTER.y, OUTER.y + OUTER.h]) {
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + 70, y);
      ctx.stroke();
    }
  }

  // The corridor's name, along it.
  ctx.fillStyle = '#8a929e';
  ctx.font = 'italic 18px "DejaVu Sans", sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('Corridor 3', OUTER.x + OUTER.w / 2, CORRIDOR.y + CORRIDOR.h / 2);
  for (const room of ROOMS) label(ctx, room);

  // Title block, north arrow and scale bar.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#1f2733';
  ctx.font = 'bold 30px "DejaVu Sans", sans-serif';
  ctx.fillText('Harbour Office Tower · Level 3', OUTER.x, 60);
  ctx.fillStyle = '#6b7482';
  ctx.font = '16px "DejaVu Sans", sans-serif';
  ctx.fillText('Lighting layout · demo site', OUTER.x, 88);

  const nx = WIDTH - 110;
  ctx.fillStyle = '#1f2733';
  ctx.beginPath();
  ctx.moveTo(nx, 30);
  ctx.lineTo(nx - 14, 72);
  ctx.lineTo(nx, 62);
  ctx.lineTo(nx + 14, 72);
  ctx.closePath();
  ctx.fill();
  ctx.font = 'bold 18px "DejaVu Sans", sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText('N', nx, 96);

  const sx = WIDTH - 380;
  const sy = HEIGHT - 45;
  ctx.fillStyle = '#1f2733';
  for (let i = 0; i < 5; i++) {
    ctx.fillStyle = i % 2 === 0 ? '#1f2733' : '#ffffff';
    ctx.fillRect(sx + i * 40, sy, 40, 8);
  }
  ctx.strokeStyle = '#1f2733';
  ctx.lineWidth = 1;
  ctx.strokeRect(sx, sy, 200, 8);
  ctx.fillStyle = '#1f2733';
  ctx.font = '14px "DejaVu Sans", sans-serif';
  ctx.fillText('0', sx, sy + 26);
  ctx.fillText('10 m', sx + 200, sy + 26);

  return canvas.toBuffer('image/png');
}

// `npx tsx src/demo/floor-plan.ts` redraws the committed picture. Only from the .ts file: bundled into
// dist/main.js, import.meta.url is the bundle's, which is then process.argv[1] as well.
if (import.meta.url.endsWith('/floor-plan.ts') && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const png = drawFloorPlan();
  await mkdir(dirname(FLOOR_PLAN_FILE), { recursive: true });
  await writeFile(FLOOR_PLAN_FILE, png);
  console.log(`${FLOOR_PLAN_FILE}: ${png.length} bytes`);
}
