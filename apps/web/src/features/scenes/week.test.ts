import { describe, expect, it } from 'vitest';
import type { SceneWeekRun } from '@lumigrid/contract/browser';
import { localParts } from '../../i18n/time-format.ts';
import { addDays, mondayOf, runsByDay, sceneColour, SCENE_COLOURS } from './week.ts';

const run = (over: Partial<SceneWeekRun>): SceneWeekRun => ({
  sceneId: '1',
  name: 'Lobby',
  kind: 'schedule',
  gatewayId: 'g',
  gatewayName: 'Floor',
  at: 0,
  timezone: 'UTC',
  then: 'start',
  ...over,
});

describe('the week view', () => {
  it('starts weeks on Monday', () => {
    expect(mondayOf('2026-03-04')).toBe('2026-03-02'); // a Wednesday
    expect(mondayOf('2026-03-08')).toBe('2026-03-02'); // a Sunday
    expect(mondayOf('2026-03-02')).toBe('2026-03-02');
    expect(addDays('2026-02-27', 3)).toBe('2026-03-02');
  });

  it("shows each run at its gateway's local date and time", () => {
    const at = Date.UTC(2026, 2, 2, 23, 30); // Monday 23:30 UTC is Tuesday 08:30 in Tokyo
    expect(localParts(at, 'Asia/Tokyo')).toEqual({ date: '2026-03-03', time: '08:30' });
    expect(localParts(at, 'No/Such_Zone')).toEqual({ date: '2026-03-02', time: '23:30' });
    const days = runsByDay(
      [
        run({ at, timezone: 'Asia/Tokyo', name: 'Tokyo' }),
        run({ at: Date.UTC(2026, 2, 3, 6, 0), name: 'Early' }),
        run({ at: Date.UTC(2026, 2, 20, 6, 0), name: 'Later week' }),
      ],
      '2026-03-02',
    );
    expect(days.map((d) => d.date)).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
    ]);
    expect(days[1]!.runs.map((r) => `${r.time} ${r.name}`)).toEqual(['06:00 Early', '08:30 Tokyo']);
    expect(days.flatMap((d) => d.runs)).toHaveLength(2);
  });

  it('gives a scene the same colour every time', () => {
    expect(sceneColour('12345')).toBe(sceneColour('12345'));
    expect(SCENE_COLOURS).toContain(sceneColour('987'));
  });
});
