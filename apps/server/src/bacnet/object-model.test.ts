import { ASN1_ARRAY_ALL, ApplicationTag, EngineeringUnits, ErrorCode, ObjectType, PropertyIdentifier as P } from '@bacnet-js/client';
import { DEVICE_TYPE_CODES, formatStatus } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { describeObjects, instanceKey, lightPercent, stateNumber, withInstances, type ProjectSnapshot } from './object-model.ts';
import { PriorityArray } from './priority-array.ts';
import { readDeviceProperty, readObjectProperty } from './properties.ts';

const DIMMER = DEVICE_TYPE_CODES['light-dimmer'];
const SINGLE = DEVICE_TYPE_CODES['light-single'];
const MOTION = DEVICE_TYPE_CODES['sensor-motion'];

function lightStatus(type: number, on: boolean, level: number): string {
  const text = formatStatus(type, { family: 'light', mode: 0, on, level });
  if (!text.ok) throw new Error('no status');
  return text.value;
}

const SNAPSHOT: ProjectSnapshot = {
  maps: [
    { id: '1', name: 'Floor 1' },
    { id: '2', name: 'Floor 2' },
  ],
  devices: [
    {
      id: '10',
      name: 'Desk',
      type: DIMMER,
      mapId: '1',
      status: lightStatus(DIMMER, true, 127),
      display: 'onPartial',
      powerW: 6.5,
      energyKwh: 12.345,
    },
    {
      id: '11',
      name: 'Hall',
      type: SINGLE,
      mapId: '1',
      status: lightStatus(SINGLE, true, 254),
      display: 'onFull',
      powerW: 10,
      energyKwh: null,
    },
    { id: '12', name: 'Door', type: MOTION, mapId: '1', status: '', display: 'offline', powerW: null, energyKwh: null },
    {
      id: '13',
      name: 'Desk',
      type: DIMMER,
      mapId: '1',
      status: lightStatus(DIMMER, false, 200),
      display: 'failure',
      powerW: null,
      energyKwh: 0,
    },
  ],
  groups: [{ id: '5', name: 'Open office', mapId: '1', deviceIds: ['10', '11', '13'], display: 'onPartial' }],
};

describe('the BACnet object model of a project', () => {
  const drafts = describeObjects(SNAPSHOT);
  const find = (source: string, id: string, type: number) =>
    drafts.find((d) => d.source === source && d.sourceId === id && d.objectType === type);

  it('gives the project a scene selector whose states are its scenes, oldest first, at the one that ran last', () => {
    const withScenes = describeObjects({
      ...SNAPSHOT,
      scenes: {
        projectId: '3',
        list: [
          { id: '7', name: 'Morning', lastRunAt: '2026-11-29T08:00:00.000Z' },
          { id: '8', name: 'Evening', lastRunAt: '2026-11-29T18:00:00.000Z' },
          { id: '9', name: 'Night', lastRunAt: null },
        ],
      },
    });
    const selector = withScenes.find((d) => d.objectType === ObjectType.MULTI_STATE_OUTPUT)!;
    expect(selector).toMatchObject({
      source: 'project',
      sourceId: '3',
      name: 'Scenes',
      value: 3,
      command: 'scene',
      states: ['none', 'Morning', 'Evening', 'Night'],
      sceneIds: [null, '7', '8', '9'],
    });
    const never = describeObjects({ ...SNAPSHOT, scenes: { projectId: '3', list: [{ id: '7', name: 'Morning', lastRunAt: null }] } });
    expect(never.find((d) => d.objectType === ObjectType.MULTI_STATE_OUTPUT)?.value).toBe(1);
    expect(drafts.some((d) => d.objectType === ObjectType.MULTI_STATE_OUTPUT)).toBe(false);
  });

  it('gives each group and dimmable light a Lighting Output, a light that only switches a Binary Lighting Output', () => {
    expect(find('group', '5', ObjectType.LIGHTING_OUTPUT)).toMatchObject({ name: 'Floor 1/Open office', command: 'level' });
    expect(find('device', '10', ObjectType.LIGHTING_OUTPUT)).toMatchObject({ value: 50, command: 'level' });
    expect(find('device', '11', ObjectType.BINARY_LIGHTING_OUTPUT)).toMatchObject({ name: 'Floor 1/Hall', value: 1, command: 'onOff' });
    expect(find('device', '11', ObjectType.LIGHTING_OUTPUT)).toBeUndefined();
    // A sensor commands no light.
    expect(drafts.filter((d) => d.sourceId === '12').map((d) => d.objectType)).toEqual([
      ObjectType.ANALOG_INPUT,
      ObjectType.MULTI_STATE_VALUE,
    ]);
  });

  it('levels a group at the mean of its members that answer, leaving out a failed one', () => {
    // Desk 50 % and Hall 100 %; the failed Desk (13) does not count.
    expect(find('group', '5', ObjectType.LIGHTING_OUTPUT)!.value).toBe(75);
  });

  it('gives every device its power and state, in fault when offline or failed, and each map its total power', () => {
    expect(find('device', '10', ObjectType.ANALOG_INPUT)).toMatchObject({ value: 6.5, reliability: 'ok' });
    expect(find('device', '12', ObjectType.MULTI_STATE_VALUE)).toMatchObject({
      value: stateNumber('offline'),
      reliability: 'communicationFailure',
    });
    expect(find('device', '13', ObjectType.MULTI_STATE_VALUE)).toMatchObject({
      value: stateNumber('failure'),
      reliability: 'unreliableOther',
    });
    expect(find('device', '11', ObjectType.MULTI_STATE_VALUE)!.value).toBe(stateNumber('onFull'));
    expect(find('map', '1', ObjectType.ANALOG_INPUT)).toMatchObject({ name: 'Floor 1 total power', value: 16.5 });
    expect(find('map', '2', ObjectType.ANALOG_INPUT)!.value).toBe(0);
  });

  it('gives a device with a meter an Analog Input of its energy in kWh beside its power in W, and none to one without', () => {
    const energy = drafts.filter((d) => d.source === 'energy');
    expect(energy).toEqual([
      expect.objectContaining({
        sourceId: '10',
        objectType: ObjectType.ANALOG_INPUT,
        name: 'Floor 1/Desk #10 energy',
        value: 12.345,
        units: EngineeringUnits.KILOWATT_HOURS,
        reliability: 'ok',
        command: null,
      }),
      // A meter that reads 0 is a meter; the failed light's objects all say so.
      expect.objectContaining({ sourceId: '13', value: 0, reliability: 'unreliableOther' }),
    ]);
    expect(find('device', '10', ObjectType.ANALOG_INPUT)).toMatchObject({ name: 'Floor 1/Desk #10 power', units: EngineeringUnits.WATTS });
    // Its own kept instance: a key apart from the device's power.
    expect(new Set(drafts.map(instanceKey)).size).toBe(drafts.length);
  });

  it('keeps object names unique: two devices of one name get their ids appended', () => {
    const names = drafts.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('Floor 1/Desk #10');
    expect(names).toContain('Floor 1/Desk #13 state');
  });

  it('answers a light off as 0 % whatever level it keeps, and an on/off light on as 100 %', () => {
    expect(lightPercent(DIMMER, lightStatus(DIMMER, false, 200))).toBe(0);
    expect(lightPercent(SINGLE, lightStatus(SINGLE, true, 254))).toBe(100);
    expect(lightPercent(DIMMER, 'unreadable')).toBe(0);
  });

  it('serves only objects that have their kept instance', () => {
    const instances = new Map([[instanceKey({ source: 'group', sourceId: '5', objectType: ObjectType.LIGHTING_OUTPUT }), 7]]);
    expect(withInstances(drafts, instances)).toEqual([expect.objectContaining({ source: 'group', instance: 7 })]);
  });
});

describe('a priority array', () => {
  it('commands the written value when its priority is in force, even unchanged, and nothing below a higher one', () => {
    const array = new PriorityArray();
    expect(array.write(8, 60)).toBe(60);
    expect(array.write(8, 60)).toBe(60);
    expect(array.write(10, 20)).toBeUndefined();
    expect(array.inForce()).toEqual({ value: 60, priority: 8 });
  });

  it('hands over to the next priority when the one in force is relinquished, and commands nothing when none is left', () => {
    const array = new PriorityArray();
    array.write(8, 60);
    array.write(10, 20);
    expect(array.write(10, null)).toBeUndefined();
    array.write(10, 20);
    expect(array.write(8, null)).toBe(20);
    expect(array.write(10, null)).toBeUndefined();
    expect(array.isEmpty()).toBe(true);
  });
});

describe('reading properties', () => {
  const objects = withInstances(describeObjects(SNAPSHOT), new Map(describeObjects(SNAPSHOT).map((d, i) => [instanceKey(d), i + 1])));
  const group = objects.find((o) => o.source === 'group')!;
  const failed = objects.find((o) => o.sourceId === '13' && o.objectType === ObjectType.LIGHTING_OUTPUT)!;

  it('answers Present_Value from the priority in force, otherwise from the lights, and Tracking_Value from the lights', () => {
    const array = new PriorityArray();
    expect(readObjectProperty(group, array, P.PRESENT_VALUE, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.REAL, value: 75 }],
    });
    array.write(8, 30);
    expect(readObjectProperty(group, array, P.PRESENT_VALUE, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.REAL, value: 30 }],
    });
    expect(readObjectProperty(group, array, P.TRACKING_VALUE, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.REAL, value: 75 }],
    });
    expect(readObjectProperty(group, array, P.CURRENT_COMMAND_PRIORITY, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.UNSIGNED_INTEGER, value: 8 }],
    });
  });

  it('answers the priority array whole, its length at index 0 and one slot by index', () => {
    const array = new PriorityArray();
    array.write(8, 30);
    const all = readObjectProperty(group, array, P.PRIORITY_ARRAY, ASN1_ARRAY_ALL);
    expect('values' in all && all.values).toHaveLength(16);
    expect(readObjectProperty(group, array, P.PRIORITY_ARRAY, 0)).toEqual({
      values: [{ type: ApplicationTag.UNSIGNED_INTEGER, value: 16 }],
    });
    expect(readObjectProperty(group, array, P.PRIORITY_ARRAY, 8)).toEqual({ values: [{ type: ApplicationTag.REAL, value: 30 }] });
    expect(readObjectProperty(group, array, P.PRIORITY_ARRAY, 17)).toEqual({
      error: expect.objectContaining({ errorCode: ErrorCode.INVALID_ARRAY_INDEX }),
    });
  });

  it('sets the fault flag of a failed light and answers unknown-property for what its type lacks', () => {
    expect(readObjectProperty(failed, undefined, P.STATUS_FLAGS, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.BIT_STRING, value: expect.objectContaining({ bitsUsed: 4, value: [2] }) }],
    });
    expect(readObjectProperty(group, undefined, P.STATUS_FLAGS, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.BIT_STRING, value: expect.objectContaining({ value: [0] }) }],
    });
    expect(readObjectProperty(group, undefined, P.UNITS, ASN1_ARRAY_ALL)).toEqual({
      error: expect.objectContaining({ errorCode: ErrorCode.UNKNOWN_PROPERTY }),
    });
    expect(readObjectProperty(group, undefined, P.OBJECT_NAME, 1)).toEqual({
      error: expect.objectContaining({ errorCode: ErrorCode.PROPERTY_IS_NOT_AN_ARRAY }),
    });
  });

  it('answers an energy Analog Input in kilowatt-hours and a power one in watts', () => {
    const energy = objects.find((o) => o.source === 'energy' && o.sourceId === '10')!;
    const power = objects.find((o) => o.source === 'device' && o.sourceId === '10' && o.objectType === ObjectType.ANALOG_INPUT)!;
    expect(readObjectProperty(energy, undefined, P.UNITS, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.ENUMERATED, value: EngineeringUnits.KILOWATT_HOURS }],
    });
    expect(readObjectProperty(energy, undefined, P.PRESENT_VALUE, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.REAL, value: 12.345 }],
    });
    expect(readObjectProperty(power, undefined, P.UNITS, ASN1_ARRAY_ALL)).toEqual({
      values: [{ type: ApplicationTag.ENUMERATED, value: EngineeringUnits.WATTS }],
    });
  });

  it('lists the device, every object and the Notification Class in the Device object', () => {
    const device = { instance: 1234, name: 'Lumigrid Site', description: '', databaseRevision: 1, version: '1' };
    const list = readDeviceProperty(device, objects, P.OBJECT_LIST, ASN1_ARRAY_ALL);
    expect('values' in list && list.values).toHaveLength(objects.length + 2);
    expect('values' in list && list.values.at(-1)).toEqual({
      type: ApplicationTag.OBJECTIDENTIFIER,
      value: { type: ObjectType.NOTIFICATION_CLASS, instance: 1 },
    });
    expect(readDeviceProperty(device, objects, P.OBJECT_LIST, 1)).toEqual({
      values: [{ type: ApplicationTag.OBJECTIDENTIFIER, value: { type: ObjectType.DEVICE, instance: 1234 } }],
    });
  });
});
