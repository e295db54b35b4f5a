import { OPERATE_AUTH, hexToRgb, percentToLevel, type ControlAction } from '@lumigrid/contract';
import type { LightAction } from '@lumigrid/protocol';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';

type Caller = Pick<AuthContext, 'operateAuth'>;

/** Owners, editable and controllable users send commands; view-only users only read. */
export function assertCanControl(auth: Caller) {
  const allowed: number[] = [OPERATE_AUTH.owner, OPERATE_AUTH.editable, OPERATE_AUTH.controllable];
  if (!allowed.includes(auth.operateAuth)) throw new AppError(110003);
}

/**
 * The radio action of a control action (docs/protocol.md "device.control"): curtains open and close with
 * on/off and go to a position with the level; a switch channel travels with its `on`.
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
