import { describe, expect, it } from 'vitest';
import type { EmergencyTree } from '@lumigrid/contract/browser';
import { NEW_TASK, durationProblem, firstPlaceWithLights, nameProblem, resultKey, saveBodyOf, taskFormProblems } from './task-form.ts';
import { countByCategory, emergencyMarkerStyle } from './emergency-markers.ts';

const light = (id: string) => ({ id, name: `Exit ${id}`, type: 1, addr: id, state: 23, online: true, selected: false, busy: false });
const tree: EmergencyTree = {
  project: { id: '1', name: 'Site' },
  selected: [],
  builds: [
    { id: '10', name: 'Empty wing', maps: [{ id: '100', name: 'Roof', gateways: [] }] },
    {
      id: '11',
      name: 'Main',
      maps: [{ id: '110', name: 'Ground', gateways: [{ id: '7', name: 'GW', mac: 'AA', online: true, devices: [light('70')] }] }],
    },
  ],
};

describe('the task form (spec section 5)', () => {
  it('requires a name of at most 8 Chinese characters', () => {
    expect(nameProblem('  ')).toEqual({ field: 'name', key: 'emergency.form.nameRequired' });
    expect(nameProblem('应急照明月度检测')).toBeUndefined();
    expect(nameProblem('应急照明月度检测一')).toEqual({ field: 'name', key: 'emergency.form.nameTooLong' });
    expect(nameProblem('a'.repeat(24))).toBeUndefined();
  });

  it('checks the duration against its test kind: function 15-254 s, life 5-600 min', () => {
    expect(durationProblem('function', null)).toEqual({ field: 'duration', key: 'emergency.form.durationRequired' });
    expect(durationProblem('function', 14)).toEqual({ field: 'duration', code: 100243 });
    expect(durationProblem('function', 254)).toBeUndefined();
    expect(durationProblem('life', 254)).toBeUndefined();
    expect(durationProblem('life', 601)).toEqual({ field: 'duration', code: 100244 });
  });

  it('wants the place chosen and lights moved right, the duration and the cells', () => {
    const problems = taskFormProblems({ ...NEW_TASK, name: 'Monthly', duration: null, batteryCells: 21 });
    expect(problems.map((p) => p.field)).toEqual(['place', 'duration', 'batteryCells']);
    expect(taskFormProblems({ ...NEW_TASK, name: 'Monthly', buildId: '11', mapId: '110', gatewayId: '7', deviceIds: ['70'] })).toEqual([]);
  });

  it('sends the allow-while-charging setting only with a life test', () => {
    const values = {
      ...NEW_TASK,
      name: ' Monthly ',
      buildId: '11',
      mapId: '110',
      gatewayId: '7',
      deviceIds: ['70'],
      allowWhileCharging: true,
    };
    expect(saveBodyOf(values, '1')).toMatchObject({ name: 'Monthly', projectId: '1', test: 'function', allowWhileCharging: false });
    expect(saveBodyOf({ ...values, test: 'life', duration: 180 }, '1', '5')).toMatchObject({ id: '5', allowWhileCharging: true });
  });

  it('opens a new task on the first gateway with emergency lights', () => {
    expect(firstPlaceWithLights(tree)).toEqual({ buildId: '11', mapId: '110', gatewayId: '7' });
    expect(firstPlaceWithLights(undefined)).toEqual({});
  });

  it('reads result codes by test kind (function 0/1/2, life 0-4)', () => {
    expect(resultKey('function', 0)).toBe('emergency.functionResult.0');
    expect(resultKey('life', 2)).toBe('emergency.lifeResult.2');
    expect(resultKey('function', 4)).toBeUndefined();
    expect(resultKey('life', null)).toBeUndefined();
  });
});

describe('the emergency map markers', () => {
  it('draws every light as the emergency cross in its legend colour, offline dashed', () => {
    expect(emergencyMarkerStyle('testing')).toMatchObject({ shape: 'cross', fill: '#1677ff', dashed: false });
    expect(emergencyMarkerStyle('offline').dashed).toBe(true);
    expect(countByCategory([{ category: 'full' }, { category: 'full' }, { category: 'failed' }])).toMatchObject({
      full: 2,
      failed: 1,
      testing: 0,
    });
  });
});
