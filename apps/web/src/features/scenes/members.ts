import { groupControlProblem, type SceneAction } from '@lumigrid/contract/browser';
import { panelControls, reportedValues, type PanelControls, type ReportedValues } from '../devices/device-controls.ts';

/** The colour temperature a new member starts at: neutral white. */
export const DEFAULT_KELVIN = 4000;

const NO_CONTROLS: PanelControls = { onOff: false, brightness: false, cct: false, rgb: false, curtain: false, channels: 0 };

/** What a device member's target editor offers: exactly what the floor plan's panel offers for its type. */
export function deviceControls(typeCode: number): PanelControls {
  return panelControls(typeCode);
}

/**
 * What a group member's target editor offers: the group commands (on/off, brightness, colour temperature,
 * colour) that at least one of its members can take, as the group control panel decides (groupControlProblem).
 */
export function groupControls(memberTypes: readonly number[]): PanelControls {
  if (memberTypes.length === 0) return { ...NO_CONTROLS, onOff: true };
  const can = (op: 'onOff' | 'brightness' | 'cct' | 'rgb') => groupControlProblem(memberTypes, op) === undefined;
  return { ...NO_CONTROLS, onOff: can('onOff'), brightness: can('brightness'), cct: can('cct'), rgb: can('rgb') };
}

/** What a member does when it is added: switched on, at full brightness, neutral white, curtains open. */
export function defaultAction(controls: PanelControls): SceneAction {
  if (controls.channels > 0) return { on: true, channels: Array.from({ length: controls.channels }, () => true) };
  if (controls.curtain) return { on: true, position: 100 };
  return {
    on: true,
    ...(controls.brightness ? { percent: 100 } : {}),
    ...(controls.cct ? { kelvin: DEFAULT_KELVIN } : {}),
  };
}

/**
 * The action as it is sent: only what the member can do, and nothing but "off" for a member switched off.
 * A switch is its channels (on when any channel is); a curtain its opening.
 */
export function fitAction(action: SceneAction, controls: PanelControls): SceneAction {
  if (controls.channels > 0) {
    const channels = Array.from({ length: controls.channels }, (_, i) => action.channels?.[i] ?? action.on);
    return { on: channels.some(Boolean), channels };
  }
  if (controls.curtain) return { on: true, position: clampPercent(action.position ?? (action.on ? 100 : 0)) };
  if (!action.on) return { on: false };
  return {
    on: true,
    ...(controls.brightness && action.percent !== undefined ? { percent: clampPercent(action.percent) } : {}),
    ...(controls.cct && action.kelvin !== undefined ? { kelvin: action.kelvin } : {}),
    ...(controls.rgb && action.color !== undefined ? { color: action.color.toLowerCase() } : {}),
  };
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** A device as the device list and the floor plan carry it: its type and the status string it reported. */
export interface ReportingDevice {
  type: number;
  status: string;
}

/**
 * "Capture as they are now": the action that puts a member back into the state it reports. A group takes the
 * state of its members that are on (the brightest one's brightness, the first colour temperature and colour
 * reported); undefined when none of them has reported anything yet.
 */
export function captureAction(controls: PanelControls, devices: readonly ReportingDevice[]): SceneAction | undefined {
  const reports = devices.map((d) => reportedValues(d.type, d.status)).filter((r) => Object.keys(r).length > 0);
  if (reports.length === 0) return undefined;
  const first = <K extends keyof ReportedValues>(from: readonly ReportedValues[], key: K) => from.find((r) => r[key] !== undefined)?.[key];
  const channels = first(reports, 'channels');
  const position = first(reports, 'position');
  const lit = reports.filter((r) => r.on === true);
  const on = lit.length > 0 || Boolean(channels?.some(Boolean));
  const brightest = lit.reduce<number | undefined>(
    (max, r) => (r.brightness === undefined ? max : Math.max(max ?? 0, r.brightness)),
    undefined,
  );
  const captured: SceneAction = {
    on,
    ...(brightest !== undefined ? { percent: brightest } : {}),
    // The device's 0-254 scale gives odd kelvins (4002 K); the editor sets them in steps of 10.
    ...(first(lit, 'kelvin') !== undefined ? { kelvin: Math.round(first(lit, 'kelvin')! / 10) * 10 } : {}),
    ...(first(lit, 'color') !== undefined ? { color: first(lit, 'color') } : {}),
    ...(position !== undefined ? { position } : {}),
    ...(channels ? { channels: [...channels] } : {}),
  };
  return fitAction(captured, controls);
}

/** Members per gateway, to hold each gateway's part within the scene limit (spec section 9). */
export function targetsPerGateway(members: ReadonlyArray<{ gatewayId: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of members) counts.set(m.gatewayId, (counts.get(m.gatewayId) ?? 0) + 1);
  return counts;
}
