import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_TYPE_CODES as C,
  ERRORS,
  GROUP_LIMITS,
  GroupCandidatesParamsSchema,
  GroupControlRequestSchema,
  GroupMembersBodySchema,
  allocateGroupNumber,
  groupControlProblem,
  groupNameProblem,
  groupTypeOf,
  membersProblem,
  type MemberFacts,
} from './index.ts';

const group = { gatewayId: '7', mapId: '3' };
const member = (type: number, over: Partial<MemberFacts> = {}): MemberFacts => ({
  type,
  gatewayId: '7',
  mapId: '3',
  otherGroups: 0,
  ...over,
});

describe('group names', () => {
  it('allows 1-21 characters after trimming, counting each character once', () => {
    expect(groupNameProblem('L')).toBeUndefined();
    expect(groupNameProblem('x'.repeat(21))).toBeUndefined();
    expect(groupNameProblem(` ${'会'.repeat(21)} `)).toBeUndefined();
    expect(groupNameProblem('x'.repeat(22))).toBe(100011);
    expect(groupNameProblem('   ')).toBe(100001);
    expect(groupNameProblem('')).toBe(100001);
  });
});

describe('group numbers', () => {
  it('hands out the lowest free number and skips the gateway large group number', () => {
    expect(allocateGroupNumber([])).toBe(1);
    expect(allocateGroupNumber([1, 2, 4])).toBe(3);
    expect(allocateGroupNumber([1, 2], 3)).toBe(4);
  });

  it('answers undefined when the gateway group table is full', () => {
    const all = Array.from({ length: GROUP_LIMITS.number.max }, (_, i) => i + 1);
    expect(allocateGroupNumber(all)).toBeUndefined();
    expect(allocateGroupNumber(all.slice(1))).toBe(1);
    expect(allocateGroupNumber(all.slice(0, -1), GROUP_LIMITS.number.max)).toBeUndefined();
  });
});

describe('group members', () => {
  it('needs at least one device', () => {
    expect(membersProblem(group, [])).toBe(110009);
  });

  it('accepts lights with the sensors, switches and curtains around them', () => {
    expect(
      membersProblem(group, [member(C['light-cct']), member(C['sensor-motion']), member(C['switch-2']), member(C.curtain)]),
    ).toBeUndefined();
  });

  it('refuses bridges and four-way switches with other devices', () => {
    expect(membersProblem(group, [member(C.bridge), member(C['light-cct'])])).toBe(100202);
    expect(membersProblem(group, [member(C['switch-4']), member(C['light-dimmer'])])).toBe(100202);
    expect(membersProblem(group, [member(C['switch-4']), member(C['switch-4'])])).toBeUndefined();
  });

  it('refuses emergency devices with others', () => {
    expect(membersProblem(group, [member(C.emergency), member(C['light-single'])])).toBe(100203);
    expect(membersProblem(group, [member(C.emergency), member(C['emergency-dimmable'])])).toBeUndefined();
  });

  it('needs a lighting device', () => {
    expect(membersProblem(group, [member(C['sensor-motion']), member(C.curtain)])).toBe(100204);
  });

  it('keeps a group on one map and one gateway', () => {
    expect(membersProblem(group, [member(C['light-cct']), member(C['light-cct'], { mapId: '4' })])).toBe(270010);
    expect(membersProblem(group, [member(C['light-cct']), member(C['light-cct'], { mapId: null })])).toBe(270010);
    expect(membersProblem(group, [member(C['light-cct']), member(C['light-cct'], { gatewayId: '8' })])).toBe(100211);
  });

  it('respects the 16-entry group table of each device', () => {
    expect(membersProblem(group, [member(C['light-cct'], { otherGroups: 15 })])).toBeUndefined();
    expect(membersProblem(group, [member(C['light-cct'], { otherGroups: 16 })])).toBe(100212);
  });

  it('caps a group at the members a gateway configuration carries', () => {
    expect(
      membersProblem(
        group,
        Array.from({ length: GROUP_LIMITS.members + 1 }, () => member(C['light-single'])),
      ),
    ).toBe(100213);
  });

  it('has a localised message for every code it answers', () => {
    for (const code of [100211, 100212, 100213, 100214] as const) {
      for (const lang of ['en', 'cn', 'tc', 'ja'] as const) expect(ERRORS[code][lang].length).toBeGreaterThan(3);
    }
  });
});

describe('group type and control', () => {
  it('calls a group of single-colour lights a single-colour group', () => {
    expect(groupTypeOf([C['light-single'], C['light-single']])).toBe(1);
    expect(groupTypeOf([C['light-single'], C['light-cct']])).toBe(0);
    expect(groupTypeOf([])).toBe(0);
  });

  it('takes an action when at least one member can do it', () => {
    expect(groupControlProblem([C['light-single'], C['sensor-motion']], 'onOff')).toBeUndefined();
    expect(groupControlProblem([C['light-single'], C['light-cct']], 'cct')).toBeUndefined();
    expect(groupControlProblem([C['light-single']], 'brightness')).toBe(100209);
    expect(groupControlProblem([C['light-dimmer']], 'rgb')).toBe(100209);
  });
});

describe('group request schemas', () => {
  it('checks the control action ranges', () => {
    expect(Value.Check(GroupControlRequestSchema, { id: '1', action: { op: 'brightness', percent: 100 } })).toBe(true);
    expect(Value.Check(GroupControlRequestSchema, { id: '1', action: { op: 'brightness', percent: 101 } })).toBe(false);
    expect(Value.Check(GroupControlRequestSchema, { id: '1', action: { op: 'cct', kelvin: 2699 } })).toBe(false);
    expect(Value.Check(GroupControlRequestSchema, { id: '1', action: { op: 'cct', kelvin: 6500 } })).toBe(true);
    expect(Value.Check(GroupControlRequestSchema, { id: '1', action: { op: 'curtain', command: 'open' } })).toBe(false);
  });

  it('takes member changes and the picker path', () => {
    expect(Value.Check(GroupMembersBodySchema, { id: '1', add: ['2'], remove: [] })).toBe(true);
    expect(Value.Check(GroupMembersBodySchema, { id: '1', add: ['x'] })).toBe(false);
    expect(Value.Check(GroupCandidatesParamsSchema, { mapId: '1', gatewayId: '2', groupId: '0', type: 0 })).toBe(true);
    expect(Value.Check(GroupCandidatesParamsSchema, { mapId: '1', gatewayId: '2', groupId: '-1', type: 0 })).toBe(false);
  });
});
