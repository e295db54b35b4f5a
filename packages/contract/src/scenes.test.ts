import { describe, expect, it } from 'vitest';
import { newSceneFields, sceneFieldsProblem, sceneNameProblem, type SceneFields } from './scenes.ts';

const base: SceneFields = {
  ...newSceneFields('1', 'manual', 'Evening'),
  steps: [{ holdS: 0, members: [{ type: 'device', id: '7', action: { on: true } }] }],
};
const start = { at: '18:00', offsetMin: 0, then: 'start' as const };

describe('scene names', () => {
  it('allows 7 Chinese characters or 21 others, without special characters', () => {
    expect(sceneNameProblem('会议室晚间照明')).toBeUndefined();
    expect(sceneNameProblem('会议室晚间照明模')).toBe(100011);
    expect(sceneNameProblem('a'.repeat(21))).toBeUndefined();
    expect(sceneNameProblem('a'.repeat(22))).toBe(100011);
    expect(sceneNameProblem('  ')).toBe(100001);
    expect(sceneNameProblem('Lobby <b>')).toBe(310010);
    expect(sceneNameProblem('Lobby\u0007')).toBe(310010);
    expect(sceneNameProblem('Hall (east) 2-B')).toBeUndefined();
  });
});

describe('scene rules', () => {
  it('passes a plain manual scene and each timed kind built right', () => {
    expect(sceneFieldsProblem(base)).toBeUndefined();
    expect(sceneFieldsProblem({ ...base, kind: 'schedule', days: [1], triggers: [start] })).toBeUndefined();
    expect(
      sceneFieldsProblem({ ...base, kind: 'sun', days: [1], triggers: [{ at: 'sunset', offsetMin: -15, then: 'start' }] }),
    ).toBeUndefined();
    expect(sceneFieldsProblem({ ...base, kind: 'once', from: '2026-12-24', to: '2026-12-24', triggers: [start] })).toBeUndefined();
  });

  it('refuses each broken rule with its code', () => {
    expect(sceneFieldsProblem({ ...base, steps: [{ holdS: 0, members: [] }] })).toBe(110009);
    expect(sceneFieldsProblem({ ...base, steps: [...base.steps, ...base.steps] })).toBe(100001);
    expect(sceneFieldsProblem({ ...base, kind: 'groupSchedule', days: [1], triggers: [start] })).toBe(310011);
    expect(sceneFieldsProblem({ ...base, kind: 'schedule', triggers: [start] })).toBe(310006);
    expect(sceneFieldsProblem({ ...base, kind: 'schedule', days: [1], triggers: [{ ...start, then: 'end' }] })).toBe(310008);
    expect(sceneFieldsProblem({ ...base, kind: 'schedule', days: [1], triggers: [{ ...start, at: 'sunset' }] })).toBe(100001);
    expect(sceneFieldsProblem({ ...base, triggers: [start] })).toBe(100001);
    expect(sceneFieldsProblem({ ...base, kind: 'once', from: null, triggers: [start] })).toBe(310012);
    expect(sceneFieldsProblem({ ...base, from: '2026-12-02', to: '2026-12-01' })).toBe(310012);
    expect(sceneFieldsProblem({ ...base, kind: 'sequence' })).toBe(100001);
  });
});
