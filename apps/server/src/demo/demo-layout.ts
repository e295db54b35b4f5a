import { joinChannelNames } from '@lumigrid/contract';
import type { DeviceKind } from '@lumigrid/protocol';
import type { OccupancyProfile } from '@lumigrid/gateway-sim';
import { CORRIDOR, HEIGHT, ROOMS, WIDTH, type Room } from './floor-plan.ts';

/** The rooms each demo gateway serves, in fleet order: its lights, sensors and switches go there. */
export const GATEWAY_ROOMS: ReadonlyArray<{ main: string; second: string }> = [
  { main: 'Open office A', second: 'Reception' },
  { main: 'Open office B', second: 'Director' },
  { main: 'Meeting 3.01', second: 'Meeting 3.02' },
  { main: 'Training room', second: 'Kitchen' },
];

/** The lights a demo group per room holds. */
export const GROUPED_KINDS: readonly DeviceKind[] = ['light-single', 'light-cct', 'light-rgb', 'light-dimmer'];

function room(name: string): Room {
  const found = ROOMS.find((r) => r.name === name);
  if (!found) throw new Error(`no room ${name} on the demo floor plan`);
  return found;
}

/** The k-th of eight evenly spaced points along the corridor's middle line. */
function alongCorridor(k: number) {
  const west = ROOMS.reduce((x, r) => Math.min(x, r.x), Infinity);
  const east = ROOMS.reduce((x, r) => Math.max(x, r.x + r.w), 0);
  return { x: west + ((east - west) * ((k % 8) + 0.5)) / 8, y: CORRIDOR.y + CORRIDOR.h / 2 };
}

/** A gateway's corridor motion sensor: between its two exit lights. */
function corridorSensor(gatewayIndex: number) {
  const a = alongCorridor(gatewayIndex * 2);
  const b = alongCorridor(gatewayIndex * 2 + 1);
  return { x: (a.x + b.x) / 2, y: a.y };
}

/**
 * Motion sensors each demo gateway has besides the simulator's one: for its second room and its stretch of
 * the corridor, so the heatmap has a sensor in every room people use.
 */
export const DEMO_EXTRA_SENSORS: readonly DeviceKind[] = ['sensor-motion', 'sensor-motion'];

const ROOM_USE: Readonly<Record<string, OccupancyProfile>> = {
  'Open office A': 'office',
  'Open office B': 'office',
  Reception: 'office',
  'Meeting 3.01': 'meeting',
  'Meeting 3.02': 'meeting',
  'Training room': 'meeting',
  Director: 'meeting',
  Kitchen: 'kitchen',
};

/** How the room of a gateway's n-th motion sensor (main room, second room, corridor) is used through the day. */
export function demoOccupancy(gatewayIndex: number, ordinal: number): OccupancyProfile {
  const rooms = GATEWAY_ROOMS[gatewayIndex % GATEWAY_ROOMS.length]!;
  if (ordinal === 0) return ROOM_USE[rooms.main] ?? 'office';
  if (ordinal === 1) return ROOM_USE[rooms.second] ?? 'office';
  return 'corridor';
}

/** Whether a room lies north of the corridor (its door in its bottom wall). */
const isNorth = (r: Room) => r.y < CORRIDOR.y;

/** A point inside a room, as fractions of the room's width and height. */
function inRoom(r: Room, fx: number, fy: number) {
  return { x: r.x + r.w * fx, y: r.y + r.h * fy };
}

/**
 * Where a device of a kind sits on the demo floor plan, in pixels: lights in a grid in the gateway's main
 * room, sensors on the ceilings, switches and panels beside the door, curtains at the window, emergency
 * lights along the corridor (the escape route), bridges in the server room.
 */
function spot(kind: DeviceKind, gatewayIndex: number, ordinal: number): { x: number; y: number } {
  const rooms = GATEWAY_ROOMS[gatewayIndex % GATEWAY_ROOMS.length]!;
  const main = room(rooms.main);
  const second = room(rooms.second);
  const door = main.door ?? main.x + main.w / 2;
  // Beside the door, on the room's corridor wall.
  const byDoor = (k: number) => ({ x: door + 34 + k * 24, y: isNorth(main) ? main.y + main.h - 22 : main.y + 22 });
  switch (kind) {
    case 'light-single':
      return inRoom(main, 0.25, 0.3);
    case 'light-cct':
      return inRoom(main, 0.75, 0.3);
    case 'light-rgb':
      return inRoom(main, 0.25, 0.72);
    case 'light-dimmer':
      return inRoom(main, 0.75, 0.72);
    // The first in the main room, the next in the second room, the third on the corridor.
    case 'sensor-motion':
      return ordinal === 0 ? inRoom(main, 0.5, 0.3) : ordinal === 1 ? inRoom(second, 0.5, 0.55) : corridorSensor(gatewayIndex);
    case 'sensor-daylight':
      return inRoom(main, 0.5, 0.72);
    case 'sensor-temperature':
      return inRoom(second, 0.35, 0.4);
    case 'sensor-cct':
      return inRoom(second, 0.65, 0.4);
    case 'curtain':
      return { x: main.x + main.w / 2, y: isNorth(main) ? main.y + 14 : main.y + main.h - 14 };
    case 'switch-1':
      return byDoor(0);
    case 'switch-2':
      return byDoor(1);
    case 'switch-3':
      return byDoor(2);
    case 'switch-4':
      return byDoor(3);
    case 'panel-scene6':
      return inRoom(second, 0.3, 0.75);
    case 'panel-smart':
      return inRoom(second, 0.7, 0.75);
    // The escape route: evenly along the corridor, two per gateway.
    case 'emergency':
      return alongCorridor(gatewayIndex * 2);
    case 'emergency-dimmable':
      return alongCorridor(gatewayIndex * 2 + 1);
    // Every gateway's bridges share the server room, a column each.
    case 'bridge':
      return inRoom(room('Server room'), 0.14 + 0.24 * (gatewayIndex % 4), 0.62);
    case 'bridge-wisun':
      return inRoom(room('Server room'), 0.14 + 0.24 * (gatewayIndex % 4), 0.84);
    case 'bridge-dali':
      return inRoom(room('Server room'), 0.14 + 0.24 * (gatewayIndex % 4), 0.73);
    // The DALI downlight of the second room, on the bus of the DALI bridge.
    case 'dali':
      return inRoom(second, 0.5, 0.3);
    case 'super-gateway':
      return inRoom(room('Server room'), 0.5, 0.44);
  }
}

/** Where a demo gateway stands: in the server room, two by two above the super gateway and the bridges. */
export function demoGatewayPosition(gatewayIndex: number): { x: number; y: number } {
  const slot = gatewayIndex % 4;
  return toFraction(inRoom(room('Server room'), slot % 2 ? 0.72 : 0.28, slot < 2 ? 0.1 : 0.28));
}

function toFraction(at: { x: number; y: number }) {
  return { x: Math.round((at.x / WIDTH) * 10_000) / 10_000, y: Math.round((at.y / HEIGHT) * 10_000) / 10_000 };
}

/**
 * A device's place on the demo floor plan as the API takes it: fractions of the picture's width and height.
 * `ordinal` tells apart the gateway's devices of one kind (in address order).
 */
export function demoPosition(kind: string, gatewayIndex: number, ordinal = 0): { x: number; y: number } | undefined {
  const at = spot(kind as DeviceKind, gatewayIndex, ordinal) as { x: number; y: number } | undefined;
  return at && toFraction(at);
}

/** What each kind is called after its room (names hold at most 25 characters). */
const KIND_NAME: Readonly<Record<DeviceKind, string>> = {
  'light-single': 'light',
  'light-cct': 'CCT light',
  'light-rgb': 'RGB light',
  'light-dimmer': 'dimmer',
  'sensor-motion': 'motion',
  'sensor-daylight': 'daylight',
  'sensor-temperature': 'temperature',
  'sensor-cct': 'CCT sensor',
  curtain: 'curtain',
  'switch-1': 'switch',
  'switch-2': 'switch',
  'switch-3': 'switch',
  'switch-4': 'switch',
  'panel-scene6': 'scene panel',
  'panel-smart': 'smart panel',
  emergency: 'exit light',
  'emergency-dimmable': 'exit light',
  bridge: 'bridge',
  'bridge-wisun': 'Wi-SUN',
  'super-gateway': 'super gateway',
  'bridge-dali': 'DALI bridge',
  dali: 'DALI light',
};

/**
 * A demo device's name: its room and what it is ("Open office A dimmer"), so the plan's names, search and
 * lists say where a device is; emergency lights are numbered along the corridor, bridges per gateway, and a
 * switch's channels are its switch number and a letter per gang, as electricians mark them ("... 3A|... 3B").
 */
export function demoName(kind: string, gatewayIndex: number, ordinal = 0): string | undefined {
  const what = KIND_NAME[kind as DeviceKind] as string | undefined;
  if (!what) return undefined;
  const rooms = GATEWAY_ROOMS[gatewayIndex % GATEWAY_ROOMS.length]!;
  switch (kind as DeviceKind) {
    case 'emergency':
      return `Corridor ${what} ${gatewayIndex * 2 + 1}`;
    case 'emergency-dimmable':
      return `Corridor ${what} ${gatewayIndex * 2 + 2}`;
    case 'bridge':
    case 'bridge-wisun':
    case 'bridge-dali':
      return `Server room ${what} ${gatewayIndex + 1}`;
    case 'super-gateway':
      return `Server room ${what}`;
    case 'sensor-motion':
      if (ordinal === 1) return `${rooms.second} ${what}`;
      if (ordinal >= 2) return `Corridor ${what} ${gatewayIndex + 1}`;
      return `${rooms.main} ${what}`;
    case 'switch-1':
      return `${rooms.main} ${what}`;
    case 'switch-2':
    case 'switch-3':
    case 'switch-4': {
      const number = Number(kind.slice(-1));
      return joinChannelNames(Array.from({ length: number }, (_, gang) => `${rooms.main} ${number}${'ABCD'[gang]}`));
    }
    case 'sensor-temperature':
    case 'sensor-cct':
    case 'panel-scene6':
    case 'panel-smart':
    case 'dali':
      return `${rooms.second} ${what}`;
    default:
      return `${rooms.main} ${what}`;
  }
}
