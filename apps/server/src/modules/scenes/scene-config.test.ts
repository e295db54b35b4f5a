import { describe, expect, it } from 'vitest';
import {
  allocatePartNumber,
  gatewaySceneId,
  gatewayScheduleId,
  lightActions,
  partConfig,
  partOfGatewayScene,
  type PartPlan,
} from './scene-config.ts';

const plan = (over: Partial<PartPlan> = {}): PartPlan => ({
  number: 3,
  name: 'Evening',
  kind: 'manual',
  fadeS: 0,
  holds: [0],
  triggers: [],
  days: [],
  fromDate: null,
  toDate: null,
  skipHolidays: false,
  daliScene: null,
  members: [{ step: 0, target: { device: 'A1' }, action: { on: true, percent: 50 } }],
  ...over,
});

describe('gateway numbering of scene parts', () => {
  it('gives each part a start and an end scene and eight schedules that map back to it', () => {
    expect([gatewaySceneId(3, 'start'), gatewaySceneId(3, 'end')]).toEqual([5, 6]);
    expect(partOfGatewayScene(5)).toEqual({ number: 3, then: 'start' });
    expect(partOfGatewayScene(6)).toEqual({ number: 3, then: 'end' });
    expect([gatewayScheduleId(1, 0), gatewayScheduleId(1, 7), gatewayScheduleId(2, 0)]).toEqual([1, 8, 9]);
  });

  it('hands out the lowest free number', () => {
    expect(allocatePartNumber([])).toBe(1);
    expect(allocatePartNumber([1, 2, 4])).toBe(3);
  });
});

describe('radio actions of a member', () => {
  it('carries brightness, colour temperature and colour with the fade in tenths of a second', () => {
    expect(lightActions({ on: true, percent: 100, kelvin: 3000, color: '#00ff80' }, 2)).toEqual([
      { on: true, level: 254, cct: 3000, rgb: [0, 255, 128], fade: 20 },
    ]);
    expect(lightActions({ on: false, percent: 80 }, 0)).toEqual([{ on: false }]);
  });

  it('sends a curtain position as its level and each switch channel on its own', () => {
    expect(lightActions({ on: true, position: 50 }, 0)).toEqual([{ on: true, level: 127 }]);
    expect(lightActions({ on: true, channels: [true, false] }, 0)).toEqual([
      { on: true, channel: 1 },
      { on: false, channel: 2 },
    ]);
  });
});

describe('the configuration of a part', () => {
  it('turns start and end times into schedules of the start and end scenes', () => {
    const config = partConfig(
      plan({
        kind: 'schedule',
        days: [1, 5],
        fromDate: '2026-12-01',
        skipHolidays: true,
        triggers: [
          { at: '18:00', offsetMin: 0, then: 'start' },
          { at: '23:00', offsetMin: 0, then: 'end' },
        ],
      }),
    );
    expect(config.scenes.map((s) => [s.id, s.steps.map((step) => step.action)])).toEqual([
      [5, [{ on: true, level: 127 }]],
      [6, [{ on: false }]],
    ]);
    expect(config.schedules).toEqual([
      { id: 17, scene: 5, days: [1, 5], at: '18:00', from: '2026-12-01', skipHolidays: true },
      { id: 18, scene: 6, days: [1, 5], at: '23:00', from: '2026-12-01', skipHolidays: true },
    ]);
  });

  it('runs a one-off scene on the weekday of its date only', () => {
    const config = partConfig(
      plan({ kind: 'once', fromDate: '2026-11-26', toDate: '2026-11-26', triggers: [{ at: '07:30', offsetMin: 0, then: 'start' }] }),
    );
    expect(config.schedules[0]).toMatchObject({ days: [4], from: '2026-11-26', to: '2026-11-26' });
  });

  it('delays each sequence step by the holds before it, also across steps with no member here', () => {
    const config = partConfig(
      plan({
        kind: 'sequence',
        daliScene: 4,
        holds: [5, 7, 0],
        members: [
          { step: 0, target: { device: 'A1' }, action: { on: true } },
          { step: 0, target: { group: 2 }, action: { on: true } },
          { step: 2, target: { device: 'A1' }, action: { on: false } },
        ],
      }),
    );
    expect(config.scenes[0]).toMatchObject({ daliScene: 4 });
    expect(config.scenes[0]!.steps.map((s) => s.delayS ?? 0)).toEqual([0, 0, 12]);
  });
});
