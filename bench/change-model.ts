import { isLight } from '@lumigrid/gateway-sim';
import type { DeviceState } from '@lumigrid/protocol';

/**
 * Changes a day per device, by what it reports (assumptions, not measurements): a light or switch is switched or
 * dimmed 6 times a day (schedules, scenes, people); a motion sensor's occupancy flips 72 times (a busy office);
 * a light sensor's reading moves 144 times (every 10 minutes, in steps its rounding shows); a temperature sensor's
 * 48 times; anything else (curtains, panels, emergency lights) twice.
 */
export function changesPerDay(state: DeviceState): number {
  if (state.occupied !== undefined) return 72;
  if (state.lux !== undefined) return 144;
  if (state.temperature !== undefined) return 48;
  if (isLight(state.kind) || state.channels) return 6;
  return 2;
}

/** The next state after a change: the field the model changes, moved. */
export function changed(state: DeviceState, random: () => number): DeviceState {
  if (state.occupied !== undefined) return { ...state, occupied: !state.occupied };
  if (state.lux !== undefined) return { ...state, lux: Math.round(random() * 1000) };
  if (state.temperature !== undefined) return { ...state, temperature: Math.round((18 + random() * 8) * 10) / 10 };
  if (state.channels) return { ...state, channels: state.channels.map((c, i) => (i === 0 ? !c : c)) };
  if (state.level !== undefined) {
    const level = state.level > 0 ? 0 : 1 + Math.floor(random() * 254);
    return { ...state, on: level > 0, level };
  }
  if (state.position !== undefined) return { ...state, position: state.position > 0 ? 0 : 100 };
  if (state.locked !== undefined) return { ...state, locked: !state.locked };
  return { ...state, online: !state.online };
}

/** A device's state after one minute: changed with the chance its rate a day gives (times `scale`), else the same. */
export function afterOneMinute(state: DeviceState, random: () => number, scale = 1): DeviceState {
  return random() < (changesPerDay(state) * scale) / 1440 ? changed(state, random) : state;
}
