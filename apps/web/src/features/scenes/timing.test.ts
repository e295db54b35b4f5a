import { describe, expect, it } from 'vitest';
import { sceneFieldsProblem } from '@lumigrid/contract/browser';
import {
  DEFAULT_SUN_ROWS,
  editPath,
  onceTiming,
  slotProblems,
  slotsToTriggers,
  sunRowsToTriggers,
  triggersToSlots,
  triggersToSunRows,
  weekdayOf,
} from './timing.ts';

describe('time slots and triggers', () => {
  it('writes each slot as a start and an end, and reads them back', () => {
    const slots = [
      { start: '07:00', end: '09:30' },
      { start: '18:00', end: null },
      { start: '20:00', end: '23:59' },
    ];
    const triggers = slotsToTriggers(slots);
    expect(triggers).toEqual([
      { at: '07:00', offsetMin: 0, then: 'start' },
      { at: '09:30', offsetMin: 0, then: 'end' },
      { at: '18:00', offsetMin: 0, then: 'start' },
      { at: '20:00', offsetMin: 0, then: 'start' },
      { at: '23:59', offsetMin: 0, then: 'end' },
    ]);
    expect(triggersToSlots(triggers)).toEqual(slots);
  });

  it('keeps an end without a start as a slot of its own, and ignores sun triggers', () => {
    expect(
      triggersToSlots([
        { at: '06:00', offsetMin: 0, then: 'end' },
        { at: 'sunset', offsetMin: 0, then: 'start' },
      ]),
    ).toEqual([{ start: null, end: '06:00' }]);
  });

  it('flags a slot without a start, or ending before it starts', () => {
    expect(
      slotProblems([
        { start: null, end: '08:00' },
        { start: '09:00', end: '08:00' },
        { start: '09:00', end: null },
      ]),
    ).toEqual(['noStart', 'endBeforeStart', undefined]);
  });
});

describe('sunrise and sunset rows', () => {
  it('defaults to on 15 minutes before sunset and off 10 minutes after sunrise', () => {
    expect(sunRowsToTriggers(DEFAULT_SUN_ROWS)).toEqual([
      { at: 'sunset', offsetMin: -15, then: 'start' },
      { at: 'sunrise', offsetMin: 10, then: 'end' },
    ]);
  });

  it('reads triggers back into rows, zero counting as after', () => {
    const rows = triggersToSunRows([
      { at: 'sunrise', offsetMin: -30, then: 'start' },
      { at: 'sunset', offsetMin: 0, then: 'end' },
      { at: '08:00', offsetMin: 0, then: 'start' },
    ]);
    expect(rows).toEqual([
      { event: 'sunrise', direction: 'before', minutes: 30, then: 'start' },
      { event: 'sunset', direction: 'after', minutes: 0, then: 'end' },
    ]);
    expect(sunRowsToTriggers(rows)).toEqual([
      { at: 'sunrise', offsetMin: -30, then: 'start' },
      { at: 'sunset', offsetMin: 0, then: 'end' },
    ]);
  });
});

describe('a scene that runs once', () => {
  it('runs on its date only, at its time, and passes the contract rules', () => {
    expect(weekdayOf('2026-03-01')).toBe(0);
    const timing = onceTiming('2026-03-04', '21:15');
    expect(timing).toEqual({ triggers: [{ at: '21:15', offsetMin: 0, then: 'start' }], days: [3], from: '2026-03-04', to: '2026-03-04' });
    const fields = {
      projectId: '1',
      name: 'Fireworks',
      kind: 'once' as const,
      fadeS: 0,
      steps: [{ holdS: 0, members: [{ type: 'device' as const, id: '5', action: { on: true } }] }],
      skipHolidays: false,
      daliScene: null,
      sequenceNo: null,
      ...timing,
    };
    expect(sceneFieldsProblem(fields)).toBeUndefined();
  });
});

describe('editor routes', () => {
  it('opens a group schedule in the schedule editor and a sun scene in the sunrise/sunset one', () => {
    expect(editPath({ id: '9', kind: 'groupSchedule' })).toBe('/scene/add/schedule?id=9');
    expect(editPath({ id: '9', kind: 'sun' })).toBe('/scene/add/sunriseSunset?id=9');
    expect(editPath({ id: '9', kind: 'once' })).toBe('/scene/add/reportonce?id=9');
  });
});
