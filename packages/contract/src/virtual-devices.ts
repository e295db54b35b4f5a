import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, PlanCoordinateSchema } from './common.ts';
import { DEVICE_TYPE_CODE_LIST, deviceType } from './device-types.ts';
import { DeviceParamsSchema, paramRules, validateParams, type ParamProblem } from './device-params.ts';
import { DEVICE_LIMITS } from './devices.ts';
import type { ErrorCode } from './errors.ts';
import { nameLengthProblem } from './validation.ts';
import { SceneActionSchema } from './scenes.ts';

/**
 * Parameter templates (spec section 2 /system/functionParameter and /system/interfaceParameter, section 7
 * "Virtual devices") and virtual devices: docs/decisions.md, "Templates and virtual devices".
 */

/** The two parameter sets: behaviour (function) and communication or electrical limits (interface). */
export const PARAM_CLASSES = ['function', 'interface'] as const;
export type ParamClass = (typeof PARAM_CLASSES)[number];
export const ParamClassSchema = Type.Union([Type.Literal('function'), Type.Literal('interface')], {
  description: 'function: behaviour (hold time, lux, fade, levels...); interface: communication and electrical limits',
});

/**
 * The set each parameter of `paramRules` belongs to. Functional parameters say how a device behaves for the
 * people in the room; interface parameters how it talks to the network and what it may draw or hold.
 */
export const PARAM_FIELD_CLASS: Readonly<Record<string, ParamClass>> = {
  brightness: 'function',
  minBrightness: 'function',
  fadeTime: 'function',
  minPowerLevel: 'function',
  maxPowerLevel: 'function',
  sensorMode: 'function',
  holdTime: 'function',
  linkageHoldTime: 'function',
  sensingCount: 'function',
  lux: 'function',
  stairsMode: 'function',
  stairsHoldTime: 'function',
  curtainRunTime: 'function',
  sequenceNumber: 'function',
  functionTestDuration: 'function',
  lifeTestDuration: 'function',
  reportInterval: 'interface',
  commandInterval: 'interface',
  maxPower: 'interface',
  powerIncreasePeriod: 'interface',
  recoveryTime: 'interface',
  lampCounts: 'interface',
  lowTemperature: 'interface',
  highTemperature: 'interface',
  batteryCells: 'interface',
};

/** The set a parameter belongs to; a parameter nobody classified yet counts as functional. */
export function paramClassOf(field: string): ParamClass {
  return Object.hasOwn(PARAM_FIELD_CLASS, field) ? PARAM_FIELD_CLASS[field]! : 'function';
}

/** The parameters of a device type in one set, in the order of `paramRules`. */
export function classFields(typeCode: number, kind: ParamClass): string[] {
  return Object.keys(paramRules(typeCode) ?? {}).filter((field) => paramClassOf(field) === kind);
}

/** The device types that have at least one parameter of a set (what a template of that set can be for). */
export function typesWithClass(kind: ParamClass): number[] {
  return DEVICE_TYPE_CODE_LIST.filter((code) => classFields(code, kind).length > 0);
}

export const TEMPLATE_LIMITS = {
  /** Template names, 1-25 characters like device names. */
  name: DEVICE_LIMITS.name,
  /** Templates one account keeps. */
  perAccount: 200,
  /** Devices one apply call sets; the web sends larger choices in several calls to show progress. */
  applyBatch: 20,
} as const;

export const VIRTUAL_LIMITS = {
  name: DEVICE_LIMITS.name,
  /** Virtual devices one build_devs_vir call creates. */
  build: { min: 1, max: 50 },
  /** Virtual devices on one map. */
  perMap: 500,
} as const;

/** The problem with a template or virtual device name (after trimming): 100001 empty, 100011 too long. */
export function templateNameProblem(name: string): ErrorCode | undefined {
  return nameLengthProblem(name, TEMPLATE_LIMITS.name);
}

/**
 * Checks the parameters of a template: at least one, each of the type and within its range (validateParams,
 * the same check as set_device_params), and each of the template's set (100701).
 */
export function templateParamsProblems(typeCode: number, kind: ParamClass, params: Readonly<Record<string, unknown>>): ParamProblem[] {
  if (Object.keys(params).length === 0) return [{ field: 'params', code: 100001 }];
  const problems = validateParams(typeCode, params);
  if (problems.length > 0) return problems;
  return Object.keys(params)
    .filter((field) => paramClassOf(field) !== kind)
    .map((field) => ({ field, code: 100701 as ErrorCode }));
}

const TypeCode = Type.Integer({ minimum: 0, maximum: 65535, description: 'Device type code (DEVICE_TYPES)' });
const DateTime = Type.String({ format: 'date-time' });

/** Template parameters as they travel; `templateParamsProblems` checks shapes and ranges (DeviceParamsSchema's values). */
const TemplateParamsSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Parameters by name (paramRules of the device type, only those of the set)',
});

/** A parameter template: a named, reusable parameter set for one device type, owned by the account. */
export const ParamTemplateSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  kind: ParamClassSchema,
  deviceType: TypeCode,
  params: DeviceParamsSchema,
  /** Virtual devices that carry it. */
  virtualDevices: Type.Integer({ minimum: 0 }),
  /** Real devices it was last applied to (or inherited through a relation). */
  devices: Type.Integer({ minimum: 0 }),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type ParamTemplate = Static<typeof ParamTemplateSchema>;
export const ParamTemplateListSchema = Type.Array(ParamTemplateSchema);

/** GET vir/v1/get_param_templates/{type}: 0 for every type; `kind` narrows to one set. */
export const ParamTemplateListParamsSchema = Type.Object({
  type: Type.Integer({ minimum: 0, maximum: 65535, description: 'Device type code, 0 for all' }),
});
export const ParamTemplateListQuerySchema = Type.Object({ kind: Type.Optional(ParamClassSchema) });
export type ParamTemplateListQuery = Static<typeof ParamTemplateListQuerySchema>;

export const ParamTemplateBuildBodySchema = Type.Object({
  name: Type.String({ maxLength: 64 }),
  kind: ParamClassSchema,
  deviceType: TypeCode,
  params: TemplateParamsSchema,
});
export type ParamTemplateBuildBody = Static<typeof ParamTemplateBuildBodySchema>;

/** The device type and set stay; name and parameters change (the parameters replace the old ones whole). */
export const ParamTemplateUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(Type.String({ maxLength: 64 })),
  params: Type.Optional(TemplateParamsSchema),
});
export type ParamTemplateUpdateBody = Static<typeof ParamTemplateUpdateBodySchema>;

export const ParamTemplateIdParamsSchema = Type.Object({ id: IdSchema });

export const ParamTemplateApplyBodySchema = Type.Object({
  id: IdSchema,
  deviceIds: Type.Array(IdSchema, { minItems: 1, maxItems: TEMPLATE_LIMITS.applyBatch }),
});
export type ParamTemplateApplyBody = Static<typeof ParamTemplateApplyBodySchema>;

/** How one device took a template: code 0 set, otherwise the localised reason (offline, no reply, wrong type...). */
export const ParamApplyResultSchema = Type.Object({
  deviceId: IdSchema,
  name: Type.String(),
  code: Type.Integer(),
  msg: Type.String({ description: "The reason in the caller's language, empty on success" }),
});
export type ParamApplyResult = Static<typeof ParamApplyResultSchema>;
export const ParamApplyResultListSchema = Type.Array(ParamApplyResultSchema);

/** A group a virtual device is in (planned until it is related). */
const VirtualGroupSchema = Type.Object({ id: IdSchema, name: Type.String() });
/** A scene a virtual device is in, with what it does there. */
export const VirtualSceneSchema = Type.Object({
  sceneId: IdSchema,
  step: Type.Integer({ minimum: 0, maximum: 63, description: 'The step of a sequence; 0 for every other kind' }),
  action: SceneActionSchema,
});
export type VirtualScene = Static<typeof VirtualSceneSchema>;

/** The real device a virtual device stands for now, or null while it is not related. */
const RelatedSchema = Type.Object({
  deviceId: IdSchema,
  deviceName: Type.String(),
  at: DateTime,
});

/**
 * A virtual device: a cloud-side stand-in for a device not yet installed, bound to a map and a gateway. It is
 * never part of any gateway's configuration; relation hands its place, groups, scenes and templates to a real
 * device of the same gateway and type.
 */
export const VirtualDeviceSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  type: TypeCode,
  mapId: IdSchema,
  gatewayId: IdSchema,
  gatewayName: Type.String(),
  x: Nullable(PlanCoordinateSchema, 'Position on the map, or null while not placed'),
  y: Nullable(PlanCoordinateSchema, 'Position on the map, or null while not placed'),
  functionTemplateId: Nullable(IdSchema, 'Its functional parameter template, or null'),
  interfaceTemplateId: Nullable(IdSchema, 'Its interface parameter template, or null'),
  groups: Type.Array(VirtualGroupSchema),
  scenes: Type.Array(Type.Object({ ...VirtualSceneSchema.properties, name: Type.String() })),
  related: Nullable(RelatedSchema, 'The real device it was related to, or null'),
  createdAt: DateTime,
});
export type VirtualDevice = Static<typeof VirtualDeviceSchema>;
export const VirtualDeviceListSchema = Type.Array(VirtualDeviceSchema);

export const VirtualBuildBodySchema = Type.Object({
  mapId: IdSchema,
  gatewayId: IdSchema,
  type: TypeCode,
  count: Type.Integer({ minimum: VIRTUAL_LIMITS.build.min, maximum: VIRTUAL_LIMITS.build.max }),
  /** The name, numbered " 1", " 2"... when several are built. */
  name: Type.String({ maxLength: 64 }),
  functionTemplateId: Type.Optional(Nullable(IdSchema, 'A functional template of the same type, or null')),
  interfaceTemplateId: Type.Optional(Nullable(IdSchema, 'An interface template of the same type, or null')),
  /** Where the first one goes; the others follow in a row. Left out: not placed yet. */
  x: Type.Optional(PlanCoordinateSchema),
  y: Type.Optional(PlanCoordinateSchema),
});
export type VirtualBuildBody = Static<typeof VirtualBuildBodySchema>;

export const VirtualUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(Type.String({ maxLength: 64 })),
  x: Type.Optional(PlanCoordinateSchema),
  y: Type.Optional(PlanCoordinateSchema),
  functionTemplateId: Type.Optional(Nullable(IdSchema, 'A functional template of the same type, or null for none')),
  interfaceTemplateId: Type.Optional(Nullable(IdSchema, 'An interface template of the same type, or null for none')),
  /** Replaces its groups: groups of its gateway on its map. */
  groupIds: Type.Optional(Type.Array(IdSchema, { maxItems: 16 })),
  /** Replaces its scenes: scenes of its map's project. */
  scenes: Type.Optional(Type.Array(VirtualSceneSchema, { maxItems: 64 })),
});
export type VirtualUpdateBody = Static<typeof VirtualUpdateBodySchema>;

export const VirtualIdParamsSchema = Type.Object({ id: IdSchema });
export const VirtualDeleteParamsSchema = Type.Object({ mapId: IdSchema, id: IdSchema });
export const VirtualGatewaysParamsSchema = Type.Object({ projectId: IdSchema, buildId: IdSchema, mapId: IdSchema });
export type VirtualGatewaysParams = Static<typeof VirtualGatewaysParamsSchema>;
/** GET vir/v1/get_unrelat_vir_devices/{mapId}/{gatewayId}: gatewayId 0 for every gateway. */
export const VirtualListParamsSchema = Type.Object({ mapId: IdSchema, gatewayId: IdSchema });
export type VirtualListParams = Static<typeof VirtualListParamsSchema>;

/** A gateway a virtual device of a map can be bound to. */
export const VirtualGatewaySchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  mac: Type.String(),
  online: Type.Boolean(),
  /** The gateway stands on this map (the others are elsewhere in the project). */
  onMap: Type.Boolean(),
  /** Virtual devices of this map bound to it, related ones included. */
  virtualDevices: Type.Integer({ minimum: 0 }),
});
export type VirtualGateway = Static<typeof VirtualGatewaySchema>;
export const VirtualGatewayListSchema = Type.Array(VirtualGatewaySchema);

export const VirtualIdBodySchema = Type.Object({ id: IdSchema });
export const RelationBodySchema = Type.Object({ id: IdSchema, deviceId: IdSchema });
export type RelationBody = Static<typeof RelationBodySchema>;

/** A real device a virtual device can be related to. */
export const RelationCandidateSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  type: TypeCode,
  addr: Type.String(),
  mapId: Nullable(IdSchema, 'The map it is placed on, or null while outmap'),
});
export type RelationCandidate = Static<typeof RelationCandidateSchema>;
export const RelationCandidateListSchema = Type.Array(RelationCandidateSchema);

/** relation and unrelat: the virtual device after it, the parameters' fate and the gateway's sync. */
export const RelationResultSchema = Type.Object({
  virtual: VirtualDeviceSchema,
  /** Its templates on the real device: 0 set, null no template, otherwise why not (the relation stands). */
  params: Nullable(Type.Integer(), 'Outcome of setting the templates, or null when there were none'),
  /** The gateway's sync with the new groups and scenes: 0 synced, 100101 offline (the banner offers it), or the failure code. */
  sync: Type.Integer(),
});
export type RelationResult = Static<typeof RelationResultSchema>;

/** Whether a device type can be a virtual device: any type the device table knows. */
export function virtualTypeProblem(typeCode: number): ErrorCode | undefined {
  return deviceType(typeCode) ? undefined : 100208;
}
