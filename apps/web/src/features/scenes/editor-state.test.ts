import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES, sceneFieldsProblem, type SceneDetail } from '@lumigrid/contract/browser';
import { fieldsOf, initialState, stateFromDetail, type EditorMember } from './editor-state.ts';
import { deviceControls, groupControls } from './members.ts';

const CCT = DEVICE_TYPE_CODES['light-cct'];
const lamp: EditorMember = {
  type: 'device',
  id: '11',
  name: 'Lamp',
  gatewayId: '1',
  mapId: '5',
  deviceType: CCT,
  action: { on: true, percent: 60, kelvin: 3000, color: '#ffffff' },
};
const hall: EditorMember = {
  type: 'group',
  id: '21',
  name: 'Hall',
  gatewayId: '1',
  mapId: '5',
  deviceType: null,
  action: { on: true, percent: 80 },
};
const controlsOf = (m: EditorMember) => (m.type === 'device' ? deviceControls(m.deviceType ?? 0) : groupControls([CCT]));

describe('the fields an editor saves', () => {
  it('saves a manual scene without times, its actions cut to what each member can do', () => {
    const state = { ...initialState('manual'), name: ' Evening ', steps: [{ members: [lamp, hall], holdS: 0 }] };
    const fields = fieldsOf(state, '3', controlsOf);
    expect(fields).toMatchObject({
      projectId: '3',
      name: 'Evening',
      kind: 'manual',
      triggers: [],
      days: [],
      from: null,
      skipHolidays: false,
    });
    expect(fields.steps).toEqual([
      {
        holdS: 0,
        members: [
          { type: 'device', id: '11', action: { on: true, percent: 60, kelvin: 3000 } },
          { type: 'group', id: '21', action: { on: true, percent: 80 } },
        ],
      },
    ]);
    expect(sceneFieldsProblem(fields)).toBeUndefined();
  });

  it('saves a group schedule from its time slots and days, and a missing repeat day is 310006', () => {
    const state = {
      ...initialState('groupSchedule'),
      name: 'Night',
      steps: [{ members: [hall], holdS: 0 }],
      days: [5, 1],
      skipHolidays: true,
    };
    const fields = fieldsOf(state, '3', controlsOf);
    expect(fields).toMatchObject({
      kind: 'groupSchedule',
      triggers: [
        { at: '18:00', offsetMin: 0, then: 'start' },
        { at: '23:00', offsetMin: 0, then: 'end' },
      ],
      days: [1, 5],
      skipHolidays: true,
    });
    expect(sceneFieldsProblem(fields)).toBeUndefined();
    expect(sceneFieldsProblem(fieldsOf({ ...state, days: [] }, '3', controlsOf))).toBe(310006);
  });

  it('saves a sunrise/sunset scene as on at sunset -15 and off at sunrise +10 by default', () => {
    const state = { ...initialState('sun'), name: 'Outdoor', steps: [{ members: [hall], holdS: 0 }] };
    const fields = fieldsOf(state, '3', controlsOf);
    expect(fields.triggers).toEqual([
      { at: 'sunset', offsetMin: -15, then: 'start' },
      { at: 'sunrise', offsetMin: 10, then: 'end' },
    ]);
    expect(sceneFieldsProblem(fields)).toBeUndefined();
  });

  it('keeps every step of a sequence with its hold, and its DALI and sequence numbers', () => {
    const state = {
      ...initialState('sequence'),
      name: 'Show',
      daliScene: 4,
      sequenceNo: 2,
      steps: [
        { members: [lamp], holdS: 30 },
        { members: [hall], holdS: 0 },
      ],
    };
    const fields = fieldsOf(state, '3', controlsOf);
    expect(fields.steps.map((s) => s.holdS)).toEqual([30, 0]);
    expect(fields).toMatchObject({ daliScene: 4, sequenceNo: 2, triggers: [] });
    expect(sceneFieldsProblem(fields)).toBeUndefined();
  });

  it('reads a saved scene back into the same editor state', () => {
    const state = {
      ...initialState('schedule'),
      name: 'Office',
      steps: [{ members: [lamp], holdS: 0 }],
      slots: [{ start: '08:00', end: null }],
    };
    const fields = fieldsOf(state, '3', controlsOf);
    const detail = {
      fields,
      members: [{ ...fields.steps[0]!.members[0]!, name: 'Lamp', gatewayId: '1', mapId: '5', deviceType: CCT }],
    } as unknown as SceneDetail;
    const back = stateFromDetail(detail);
    expect(back.slots).toEqual([{ start: '08:00', end: null }]);
    expect(back.steps[0]!.members[0]).toEqual({ ...lamp, action: { on: true, percent: 60, kelvin: 3000 } });
    expect(fieldsOf(back, '3', controlsOf)).toEqual(fields);
  });
});
