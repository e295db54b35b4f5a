import type { SceneAction, SceneDetail, SceneFields, SceneKind, SceneMember } from '@lumigrid/contract/browser';
import type { PanelControls } from '../devices/device-controls.ts';
import { fitAction } from './members.ts';
import {
  DEFAULT_SUN_ROWS,
  onceTiming,
  slotsToTriggers,
  sunRowsToTriggers,
  triggersToSlots,
  triggersToSunRows,
  type SunRow,
  type TimeSlot,
} from './timing.ts';

/** A member as the editor holds it: what it is and where, and the action it takes. */
export interface EditorMember {
  type: 'device' | 'group';
  id: string;
  name: string;
  gatewayId: string;
  mapId: string | null;
  /** Device type code, or null for a group. */
  deviceType: number | null;
  action: SceneAction;
}

export interface EditorStep {
  members: EditorMember[];
  holdS: number;
}

/** Everything the scene editors edit; each kind uses its own part. */
export interface EditorState {
  kind: SceneKind;
  name: string;
  fadeS: number;
  steps: EditorStep[];
  slots: TimeSlot[];
  sunRows: SunRow[];
  days: number[];
  from: string | null;
  to: string | null;
  skipHolidays: boolean;
  onceDate: string | null;
  onceTime: string | null;
  daliScene: number;
  sequenceNo: number;
}

export const memberKey = (m: Pick<SceneMember, 'type' | 'id'>) => `${m.type}:${m.id}`;

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

/** A new scene of a kind: every day, no dates, one slot from 18:00 to 23:00, or on at sunset and off at sunrise. */
export function initialState(kind: SceneKind): EditorState {
  return {
    kind,
    name: '',
    fadeS: 0,
    steps: [{ members: [], holdS: kind === 'sequence' ? 10 : 0 }],
    slots: [{ start: '18:00', end: '23:00' }],
    sunRows: DEFAULT_SUN_ROWS.map((row) => ({ ...row })),
    days: [...EVERY_DAY],
    from: null,
    to: null,
    skipHolidays: false,
    onceDate: null,
    onceTime: null,
    daliScene: 0,
    sequenceNo: 1,
  };
}

/** The editor's state of a saved scene; members take their names and places from the detail's member views. */
export function stateFromDetail(detail: SceneDetail): EditorState {
  const { fields } = detail;
  const views = new Map(detail.members.map((m) => [memberKey(m), m]));
  const base = initialState(fields.kind);
  const steps = fields.steps.map((step) => ({
    holdS: step.holdS,
    members: step.members.map((member) => {
      const view = views.get(memberKey(member));
      return {
        type: member.type,
        id: member.id,
        action: member.action,
        name: view?.name ?? member.id,
        gatewayId: view?.gatewayId ?? '',
        mapId: view?.mapId ?? null,
        deviceType: view?.deviceType ?? null,
      };
    }),
  }));
  const clockStart = fields.triggers.find((t) => t.then === 'start' && t.at !== 'sunrise' && t.at !== 'sunset');
  return {
    ...base,
    name: fields.name,
    fadeS: fields.fadeS,
    steps: steps.length ? steps : base.steps,
    slots: fields.kind === 'schedule' || fields.kind === 'groupSchedule' ? triggersToSlots(fields.triggers) : base.slots,
    sunRows: fields.kind === 'sun' ? triggersToSunRows(fields.triggers) : base.sunRows,
    days: fields.kind === 'once' ? base.days : [...fields.days],
    from: fields.from,
    to: fields.to,
    skipHolidays: fields.skipHolidays,
    onceDate: fields.kind === 'once' ? fields.from : null,
    onceTime: fields.kind === 'once' ? (clockStart?.at ?? null) : null,
    daliScene: fields.daliScene ?? base.daliScene,
    sequenceNo: fields.sequenceNo ?? base.sequenceNo,
  };
}

/**
 * The fields add/big and update/big take: each member's action cut to what it can do, the kind's times as
 * triggers, and nothing of the other kinds' parts. Check the result with the contract's sceneFieldsProblem.
 */
export function fieldsOf(state: EditorState, projectId: string, controlsOf: (member: EditorMember) => PanelControls): SceneFields {
  const { kind } = state;
  const steps = (kind === 'sequence' ? state.steps : state.steps.slice(0, 1)).map((step) => ({
    holdS: kind === 'sequence' ? step.holdS : 0,
    members: step.members.map((m) => ({ type: m.type, id: m.id, action: fitAction(m.action, controlsOf(m)) })),
  }));
  const repeating = kind === 'schedule' || kind === 'groupSchedule' || kind === 'sun';
  const base: SceneFields = {
    projectId,
    name: state.name.trim(),
    kind,
    fadeS: state.fadeS,
    steps,
    triggers: [],
    days: [],
    from: null,
    to: null,
    skipHolidays: false,
    daliScene: kind === 'sequence' ? state.daliScene : null,
    sequenceNo: kind === 'sequence' ? state.sequenceNo : null,
  };
  if (repeating) {
    return {
      ...base,
      triggers: kind === 'sun' ? sunRowsToTriggers(state.sunRows) : slotsToTriggers(state.slots),
      days: [...state.days].sort((a, b) => a - b),
      from: state.from,
      to: state.to,
      skipHolidays: state.skipHolidays,
    };
  }
  if (kind === 'once') {
    if (!state.onceDate || !state.onceTime) return { ...base, from: state.onceDate, to: state.onceDate };
    return { ...base, ...onceTiming(state.onceDate, state.onceTime) };
  }
  return base;
}
