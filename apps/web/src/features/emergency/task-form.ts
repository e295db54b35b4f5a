import {
  EMERGENCY_FUNCTION_RESULT,
  EMERGENCY_LIFE_RESULT,
  EMERGENCY_LIMITS,
  emergencyDurationProblem,
  emergencyTaskNameProblem,
  type EmergencyLightType,
  type EmergencyRecurrence,
  type EmergencyTask,
  type EmergencyTaskSaveBody,
  type EmergencyTestKind,
  type EmergencyTree,
  type EmergencyTreeDevice,
  type ErrorCode,
} from '@lumigrid/contract/browser';

/** What the task form holds: the place, the lights moved right, the test and its recurrence. */
export interface TaskFormValues {
  name: string;
  buildId?: string;
  mapId?: string;
  gatewayId?: string;
  deviceIds: string[];
  test: EmergencyTestKind;
  /** Seconds (function) or minutes (life), as the spec's ranges count them; empty until typed. */
  duration?: number | null;
  batteryCells?: number | null;
  lightType: EmergencyLightType;
  allowWhileCharging: boolean;
  rule: EmergencyRecurrence;
  day: number;
  month: number;
  time: string;
  spacingM: number;
  planWidthM: number;
}

/** A new task: a function test of 30 s on 1-cell maintained lights, no recurrence, no stagger. */
export const NEW_TASK: TaskFormValues = {
  name: '',
  deviceIds: [],
  test: 'function',
  duration: 30,
  batteryCells: 1,
  lightType: 'maintained',
  allowWhileCharging: false,
  rule: 'none',
  day: 1,
  month: 1,
  time: '02:00',
  spacingM: 0,
  planWidthM: 50,
};

/** The form's values of a saved task. */
export function formOfTask(task: EmergencyTask): TaskFormValues {
  return {
    name: task.name,
    buildId: task.buildId,
    mapId: task.mapId,
    gatewayId: task.gatewayId,
    deviceIds: [...task.deviceIds],
    test: task.test,
    duration: task.duration,
    batteryCells: task.batteryCells,
    lightType: task.lightType,
    allowWhileCharging: task.allowWhileCharging,
    rule: task.schedule.rule,
    day: task.schedule.day,
    month: task.schedule.month,
    time: task.schedule.time,
    spacingM: task.stagger.spacingM,
    planWidthM: task.stagger.planWidthM,
  };
}

/** Why the form cannot be sent (the spec's messages), first problem first; undefined when it can. */
export type TaskFormProblem =
  | { field: 'name'; key: 'emergency.form.nameRequired' | 'emergency.form.nameTooLong' }
  | { field: 'place'; key: 'emergency.form.placeRequired' }
  | { field: 'duration'; key: 'emergency.form.durationRequired' }
  | { field: 'duration'; code: ErrorCode }
  | { field: 'batteryCells'; key: 'emergency.form.cellsRequired' }
  | { field: 'batteryCells'; code: ErrorCode };

/** The name rule of spec section 5: required, 1-8 Chinese characters (a Chinese character counts 3: 24). */
export function nameProblem(name: string): TaskFormProblem | undefined {
  const code = emergencyTaskNameProblem(name);
  if (code === 100001) return { field: 'name', key: 'emergency.form.nameRequired' };
  if (code !== undefined) return { field: 'name', key: 'emergency.form.nameTooLong' };
  return undefined;
}

/** A duration of the test kind: required, then its range ("Invalid Input (15-254)" / "(5-600)"). */
export function durationProblem(test: EmergencyTestKind, duration: number | null | undefined): TaskFormProblem | undefined {
  if (duration === null || duration === undefined) return { field: 'duration', key: 'emergency.form.durationRequired' };
  const code = emergencyDurationProblem(test, duration);
  return code === undefined ? undefined : { field: 'duration', code };
}

export function cellsProblem(cells: number | null | undefined): TaskFormProblem | undefined {
  if (cells === null || cells === undefined) return { field: 'batteryCells', key: 'emergency.form.cellsRequired' };
  const { min, max } = EMERGENCY_LIMITS.batteryCells;
  return Number.isInteger(cells) && cells >= min && cells <= max ? undefined : { field: 'batteryCells', code: 100240 };
}

/** Every rule of spec section 5 the form checks before it sends, in the order of the form. */
export function taskFormProblems(values: TaskFormValues): TaskFormProblem[] {
  const place =
    !values.buildId || !values.mapId || !values.gatewayId || values.deviceIds.length === 0
      ? ({ field: 'place', key: 'emergency.form.placeRequired' } as const)
      : undefined;
  return [nameProblem(values.name), place, durationProblem(values.test, values.duration), cellsProblem(values.batteryCells)].filter(
    (p): p is TaskFormProblem => p !== undefined,
  );
}

/** The body of emergency/v1/opt; only for values without problems. */
export function saveBodyOf(values: TaskFormValues, projectId: string, id?: string): EmergencyTaskSaveBody {
  return {
    ...(id ? { id } : {}),
    name: values.name.trim(),
    projectId,
    buildId: values.buildId ?? '',
    mapId: values.mapId ?? '',
    gatewayId: values.gatewayId ?? '',
    deviceIds: values.deviceIds,
    test: values.test,
    duration: values.duration ?? 0,
    batteryCells: values.batteryCells ?? 0,
    lightType: values.lightType,
    // The setting is the life test's (spec section 4); a function test never waits for a full battery.
    allowWhileCharging: values.test === 'life' && values.allowWhileCharging,
    // '' lets the server use the gateway's zone, where the lights are.
    schedule: { rule: values.rule, day: values.day, month: values.month, time: values.time, timeZone: '' },
    stagger: { spacingM: values.spacingM, planWidthM: values.planWidthM },
  };
}

type TreeGateway = EmergencyTree['builds'][number]['maps'][number]['gateways'][number];

/** The buildings, maps and gateways the place selects offer, and the chosen gateway's lights. */
export function placeChoices(tree: EmergencyTree | undefined, values: Pick<TaskFormValues, 'buildId' | 'mapId' | 'gatewayId'>) {
  const builds = tree?.builds ?? [];
  const build = builds.find((b) => b.id === values.buildId);
  const maps = build?.maps ?? [];
  const map = maps.find((m) => m.id === values.mapId);
  const gateways: TreeGateway[] = map?.gateways ?? [];
  const gateway = gateways.find((g) => g.id === values.gatewayId);
  return { builds, maps, gateways, devices: gateway?.devices ?? ([] as EmergencyTreeDevice[]) };
}

/** Where a new task starts: the first building, map and gateway that have an emergency light. */
export function firstPlaceWithLights(tree: EmergencyTree | undefined): Pick<TaskFormValues, 'buildId' | 'mapId' | 'gatewayId'> {
  for (const build of tree?.builds ?? [])
    for (const map of build.maps)
      for (const gateway of map.gateways) if (gateway.devices.length) return { buildId: build.id, mapId: map.id, gatewayId: gateway.id };
  return {};
}

/** The catalogue key of a result code: function and life tests number their results differently (spec section 4). */
export function resultKey(test: EmergencyTestKind, result: number | null): string | undefined {
  if (result === null) return undefined;
  const codes: readonly number[] = Object.values(test === 'function' ? EMERGENCY_FUNCTION_RESULT : EMERGENCY_LIFE_RESULT);
  if (!codes.includes(result)) return undefined;
  return test === 'function' ? `emergency.functionResult.${result}` : `emergency.lifeResult.${result}`;
}

/** The antd tag colour of a result code: pass green, testing blue, anything else red (stopped grey). */
export function resultColour(test: EmergencyTestKind, result: number | null): string {
  if (result === null) return 'default';
  if (test === 'function') return result === 0 ? 'green' : result === 1 ? 'processing' : 'red';
  if (result === 2) return 'green';
  if (result === 4) return 'processing';
  return result === 0 ? 'default' : 'red';
}

/** The unit a test kind's duration is typed in. */
export const durationUnit = (test: EmergencyTestKind): 's' | 'min' => (test === 'function' ? 's' : 'min');
