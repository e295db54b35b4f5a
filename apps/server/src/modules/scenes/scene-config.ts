import { SCENE_LIMITS, type SceneAction, type SceneKind, type SceneTrigger } from '@lumigrid/contract';
import type { GatewayConfig, LightAction, Target } from '@lumigrid/protocol';
import { radioAction } from '../devices/device-commands.ts';

type GatewayScene = GatewayConfig['scenes'][number];
type GatewaySchedule = GatewayConfig['schedules'][number];

/**
 * A scene's part on one gateway has a gateway-local number n: the gateway's scene 2n-1 applies the members'
 * actions (start), scene 2n switches them off (end), and the part's times are schedules (n-1)*8+1 ... (n-1)*8+8.
 * Numbers never move while the part exists, so a run a gateway reports late still names the right scene.
 */
export const gatewaySceneId = (number: number, then: 'start' | 'end') => (then === 'start' ? 2 * number - 1 : 2 * number);
export const gatewayScheduleId = (number: number, trigger: number) => (number - 1) * SCENE_LIMITS.triggers.max + trigger + 1;

/** The part number and start/end of a gateway scene id. */
export function partOfGatewayScene(id: number): { number: number; then: 'start' | 'end' } {
  return { number: Math.ceil(id / 2), then: id % 2 === 1 ? 'start' : 'end' };
}

/** The highest part number a gateway can hold: its schedule ids stay within the protocol's 1-65535. */
export const MAX_PART_NUMBER = Math.floor(65535 / SCENE_LIMITS.triggers.max);

/** The lowest part number free on a gateway. */
export function allocatePartNumber(used: Iterable<number>): number | undefined {
  const taken = new Set(used);
  for (let n = 1; n <= MAX_PART_NUMBER; n++) if (!taken.has(n)) return n;
  return undefined;
}

/** The radio actions that carry a scene member's target; a switch's channels are one action each. */
export function lightActions(action: SceneAction, fadeS: number): LightAction[] {
  const fade = fadeS > 0 ? { fade: fadeS * 10 } : {};
  if (action.channels) return action.channels.map((on, i) => radioAction({ op: 'channel', channel: i + 1, on }));
  if (!action.on) return [{ on: false, ...fade }];
  const percent = action.position ?? action.percent;
  // One frame sets the light whole: the radio fields of each setting the member has, merged.
  return [
    {
      on: true,
      ...(percent !== undefined ? radioAction({ op: 'brightness', percent }) : {}),
      ...(action.kelvin !== undefined ? radioAction({ op: 'cct', kelvin: action.kelvin }) : {}),
      ...(action.color !== undefined ? radioAction({ op: 'rgb', color: action.color }) : {}),
      ...fade,
    },
  ];
}

/** A scene's rules as stored, which its parts carry to the gateways. */
export interface SceneRules {
  name: string;
  kind: SceneKind;
  fadeS: number;
  /** Hold after each step, seconds, one per step. */
  holds: number[];
  triggers: SceneTrigger[];
  days: number[];
  fromDate: string | null;
  toDate: string | null;
  skipHolidays: boolean;
  daliScene: number | null;
}

/** What the configuration needs of one scene part: the scene's rules and its members on this gateway. */
export interface PartPlan extends SceneRules {
  number: number;
  /** Members on this gateway, in step and list order. */
  members: Array<{ step: number; target: Target; action: SceneAction }>;
}

/** The weekday (0 Sunday) of a local date. */
function weekdayOf(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/** The gateway scenes and schedules of one part (see gatewaySceneId). */
export function partConfig(part: PartPlan): { scenes: GatewayScene[]; schedules: GatewaySchedule[] } {
  const start: GatewayScene['steps'] = [];
  let holdBefore = 0;
  for (let step = 0; step < part.holds.length; step++) {
    const members = part.members.filter((m) => m.step === step);
    let delayS = holdBefore;
    for (const m of members) {
      for (const action of lightActions(m.action, part.fadeS)) {
        start.push({ target: m.target, action, ...(delayS > 0 ? { delayS } : {}) });
        delayS = 0;
      }
    }
    // A step with no member on this gateway still holds, so the next step keeps its time.
    holdBefore = (members.length === 0 ? holdBefore : 0) + (part.holds[step] ?? 0);
  }
  const name = part.name.slice(0, 64);
  const scenes: GatewayScene[] = [
    { id: gatewaySceneId(part.number, 'start'), name, ...(part.daliScene !== null ? { daliScene: part.daliScene } : {}), steps: start },
  ];
  if (part.triggers.some((t) => t.then === 'end')) {
    const seen = new Set<string>();
    const end: GatewayScene['steps'] = [];
    for (const m of part.members) {
      const key = JSON.stringify(m.target);
      if (seen.has(key)) continue;
      seen.add(key);
      end.push({ target: m.target, action: { on: false } });
    }
    scenes.push({ id: gatewaySceneId(part.number, 'end'), name, steps: end });
  }
  const once = part.kind === 'once' && part.fromDate !== null;
  const schedules = part.triggers.map((t, k): GatewaySchedule => ({
    id: gatewayScheduleId(part.number, k),
    scene: gatewaySceneId(part.number, t.then),
    days: once ? [weekdayOf(part.fromDate!)] : part.days,
    at: t.at,
    ...(t.offsetMin !== 0 ? { offsetMin: t.offsetMin } : {}),
    ...(part.fromDate !== null ? { from: part.fromDate } : {}),
    ...(part.toDate !== null ? { to: part.toDate } : {}),
    ...(part.skipHolidays ? { skipHolidays: true } : {}),
  }));
  return { scenes, schedules };
}
