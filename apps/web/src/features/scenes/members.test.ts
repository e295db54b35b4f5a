import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES } from '@lumigrid/contract/browser';
import { deviceControls } from './members.ts';
import { captureAction, defaultAction, fitAction, groupControls, targetsPerGateway } from './members.ts';

const CCT = DEVICE_TYPE_CODES['light-cct'];
const RGB = DEVICE_TYPE_CODES['light-rgb'];
const SINGLE = DEVICE_TYPE_CODES['light-single'];
const SWITCH2 = DEVICE_TYPE_CODES['switch-2'];
const CURTAIN = DEVICE_TYPE_CODES.curtain;

describe('what a member can be told to do', () => {
  it('offers a group what any of its members can do', () => {
    expect(groupControls([SINGLE, CCT])).toMatchObject({ onOff: true, brightness: true, cct: true, rgb: false, channels: 0 });
    expect(groupControls([SINGLE])).toMatchObject({ onOff: true, brightness: false, cct: false });
  });

  it('starts a new member on at full brightness, a switch with every channel on, a curtain open', () => {
    expect(defaultAction(deviceControls(CCT))).toEqual({ on: true, percent: 100, kelvin: 4000 });
    expect(defaultAction(deviceControls(SINGLE))).toEqual({ on: true });
    expect(defaultAction(deviceControls(SWITCH2))).toEqual({ on: true, channels: [true, true] });
    expect(defaultAction(deviceControls(CURTAIN))).toEqual({ on: true, position: 100 });
  });

  it('sends only what the type can do, and only "off" for a member switched off', () => {
    const everything = { on: true, percent: 40, kelvin: 3000, color: '#FF0000', position: 10, channels: [true] };
    expect(fitAction(everything, deviceControls(SINGLE))).toEqual({ on: true });
    expect(fitAction(everything, deviceControls(RGB))).toEqual({ on: true, percent: 40, color: '#ff0000' });
    expect(fitAction({ ...everything, on: false }, deviceControls(CCT))).toEqual({ on: false });
    expect(fitAction(everything, deviceControls(SWITCH2))).toEqual({ on: true, channels: [true, true] });
    expect(fitAction({ on: false, channels: [false, false] }, deviceControls(SWITCH2))).toEqual({ on: false, channels: [false, false] });
  });
});

describe('capture as they are now', () => {
  it('takes a light that is off as off, whatever level it remembers', () => {
    expect(captureAction(deviceControls(CCT), [{ type: CCT, status: '0:0:200:100' }])).toEqual({ on: false });
  });

  it('takes a dimmed warm light as on at its brightness and colour temperature', () => {
    const action = captureAction(deviceControls(CCT), [{ type: CCT, status: '0:1:127:254' }]);
    expect(action).toEqual({ on: true, percent: 50, kelvin: 2700 });
  });

  it('takes a group at its brightest lit member, and nothing from members that never reported', () => {
    const controls = groupControls([CCT, CCT, SINGLE]);
    const action = captureAction(controls, [
      { type: CCT, status: '0:1:64:0' },
      { type: CCT, status: '0:0:254:0' },
      { type: SINGLE, status: '' },
    ]);
    expect(action).toEqual({ on: true, percent: 25, kelvin: 6500 });
    expect(captureAction(controls, [{ type: SINGLE, status: '' }])).toBeUndefined();
  });
});

describe('targets per gateway', () => {
  it('counts the members of each gateway', () => {
    expect([...targetsPerGateway([{ gatewayId: 'a' }, { gatewayId: 'b' }, { gatewayId: 'a' }])]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
