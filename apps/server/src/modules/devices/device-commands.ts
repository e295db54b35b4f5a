import { hexToRgb, percentToLevel, type ControlAction } from '@lumigrid/contract';
import type { LightAction } from '@lumigrid/protocol';

/**
 * The radio action of a control action (docs/protocol.md "device.control"): curtains open and close with
 * on/off and go to a position with the level; a switch channel travels with its `on`. Group commands and
 * scene steps carry the same actions, so this is the one place the UI's settings become radio fields.
 */
export function radioAction(action: ControlAction): LightAction {
  switch (action.op) {
    case 'onOff':
      return { on: action.on };
    case 'brightness':
      return { level: percentToLevel(action.percent) };
    case 'cct':
      return { cct: action.kelvin };
    case 'curtain':
      return action.command === 'stop' ? { stop: true } : { on: action.command === 'open' };
    case 'position':
      return { level: percentToLevel(action.percent) };
    case 'channel':
      return { on: action.on, channel: action.channel };
    case 'rgb': {
      const { r, g, b } = hexToRgb(action.color) ?? { r: 0, g: 0, b: 0 };
      return { rgb: [r, g, b] };
    }
  }
}
