import { describe, expect, it } from 'vitest';
import { DEVICE_FAMILIES, type Device, type Gateway, type GroupView } from '@lumigrid/contract/browser';
import { groupsForSensor, LINKAGE_RANGES, linkageDraft, linkageSensorKind, linkageSensors, linkageWaits, snapHold } from './linkage.ts';

const MOTION = DEVICE_FAMILIES.motion[0]!;
const DAYLIGHT = DEVICE_FAMILIES.daylight[0]!;
const LIGHT = DEVICE_FAMILIES.dimming[0]!;

const device = (id: string, type: number, name: string, gatewayId = '1') => ({ id, type, name, gatewayId }) as Device;
const group = (id: string, name: string, gatewayId: string) => ({ id, name, gatewayId }) as GroupView;

describe('sensor linkage rules', () => {
  it('takes its ranges from the contract: hold 10-2540 s in steps of 10, daylight up to 60000 lx', () => {
    expect(LINKAGE_RANGES).toEqual({
      detect: { min: 1, max: 100 },
      clear: { min: 0, max: 100 },
      hold: { min: 10, max: 2540, step: 10 },
      lux: { min: 0, max: 60000 },
    });
  });

  it('offers motion and daylight sensors only, by name', () => {
    expect(linkageSensorKind(MOTION)).toBe('motion');
    expect(linkageSensorKind(DAYLIGHT)).toBe('daylight');
    expect(linkageSensorKind(LIGHT)).toBeUndefined();
    const list = linkageSensors([device('1', LIGHT, 'Lamp'), device('2', MOTION, 'Z motion'), device('3', DAYLIGHT, 'A daylight')]);
    expect(list.map((d) => d.id)).toEqual(['3', '2']);
  });

  it("offers the groups of the sensor's own gateway", () => {
    const groups = [group('10', 'West', '2'), group('11', 'Lobby', '1'), group('12', 'Atrium', '1')];
    expect(groupsForSensor(groups, { gatewayId: '1' }).map((g) => g.id)).toEqual(['12', '11']);
    expect(groupsForSensor(groups, undefined)).toEqual([]);
  });

  it('snaps hold times to whole steps within the range', () => {
    expect(snapHold(64)).toBe(60);
    expect(snapHold(65)).toBe(70);
    expect(snapHold(3)).toBe(10);
    expect(snapHold(9999)).toBe(2540);
    expect(snapHold(Number.NaN)).toBe(10);
  });

  it('starts a new linkage at full light, off after a minute, whatever the daylight, with the only group picked', () => {
    const sensor = device('2', MOTION, 'Motion');
    expect(linkageDraft(undefined, sensor, [group('11', 'Lobby', '1'), group('10', 'West', '2')])).toEqual({
      sensorId: '2',
      groupId: '11',
      onDetectPercent: 100,
      onClearPercent: 0,
      holdS: 60,
      lux: null,
    });
    expect(linkageDraft(undefined, sensor, [group('11', 'Lobby', '1'), group('12', 'Atrium', '1')]).groupId).toBeUndefined();
    const existing = { sensorId: '2', groupId: '11', onDetectPercent: 80, onClearPercent: 10, holdS: 120, lux: 300 };
    expect(linkageDraft({ ...existing, sensorName: 'M', groupName: 'L', gatewayId: '1', onGateway: true })).toEqual(existing);
  });

  it('says why a linkage waits: no sync yet, or sensors not in default linkage', () => {
    const gateway = (sensorMode: 'independent' | 'linkage' | null) => ({ id: '1', settings: { sensorMode } }) as unknown as Gateway;
    const gateways = (mode: 'independent' | 'linkage' | null) => new Map([['1', gateway(mode)]]);
    expect(linkageWaits({ onGateway: true, gatewayId: '1' }, gateways('linkage'))).toEqual({ sync: false, sensorMode: false });
    expect(linkageWaits({ onGateway: false, gatewayId: '1' }, gateways('independent'))).toEqual({ sync: true, sensorMode: true });
    expect(linkageWaits({ onGateway: true, gatewayId: '1' }, gateways(null)).sensorMode).toBe(true);
    expect(linkageWaits({ onGateway: true, gatewayId: '9' }, gateways('independent')).sensorMode).toBe(false);
  });
});
