import { Type, type Static } from 'typebox';
import { IdSchema, NoFieldsBodySchema } from './common.ts';
import { DEVICE_FAMILIES, deviceType, groupingProblem } from './device-types.ts';
import { CCT_MAX_K, CCT_MIN_K } from './device-units.ts';
import { DEVICE_LIMITS, DeviceMarkerSchema, GroupSchema } from './devices.ts';
import type { ErrorCode } from './errors.ts';
import { nameLengthProblem } from './validation.ts';

/**
 * Groups (zones), spec sections 3, 5 and 7 "Zones and groups", paths under /api4/zone/v1/. A group lives on
 * one gateway: its members answer one radio group number there, so controlling it is one frame on the air
 * (docs/decisions.md, "Groups live on one gateway"). GroupSchema, groupDisplay and the add/update bodies sit
 * in devices.ts; this file holds the rest of the group contract and its rules.
 */
export const GROUP_LIMITS = {
  /** Group names: 1-21 characters (spec section 5). */
  name: DEVICE_LIMITS.groupName,
  /**
   * Group numbers a gateway hands out, 1-255: the group table of the gateway's coordinator. Zigbee allows
   * 1-0xFFF7, but a gateway keeps far fewer; the gateway's large (broadcast) group number is never used.
   */
  number: { min: 1, max: 255 },
  /** Groups one device can be in: the group table of a Zigbee light holds 16 entries. */
  groupsPerDevice: 16,
  /** Members of one group, as the gateway configuration carries them (packages/protocol GatewayConfig). */
  members: 1024,
} as const;

/** The problem with a group name (after trimming), or undefined: 100001 empty, 100011 longer than 21. */
export function groupNameProblem(name: string): ErrorCode | undefined {
  return nameLengthProblem(name, GROUP_LIMITS.name);
}

/**
 * The lowest group number free on a gateway, or undefined when all are taken. `reserved` is the gateway's
 * large group number, which its broadcast uses.
 */
export function allocateGroupNumber(used: Iterable<number>, reserved?: number | null): number | undefined {
  const taken = new Set(used);
  for (let n = GROUP_LIMITS.number.min; n <= GROUP_LIMITS.number.max; n++) if (!taken.has(n) && n !== reserved) return n;
  return undefined;
}

/** The group type of spec section 3: 1 a single-colour group (every member a single-colour light), 0 any other. */
export function groupTypeOf(types: readonly number[]): 0 | 1 {
  return types.length > 0 && types.every((t) => DEVICE_FAMILIES.singleColour.includes(t)) ? 1 : 0;
}

/** What the cloud knows of one would-be member when checking a group's members. */
export interface MemberFacts {
  type: number;
  gatewayId: string;
  mapId: string | null;
  /** Groups it is in now, other than the group being checked. */
  otherGroups: number;
}

/**
 * Every rule a group's member list must pass, in the order a user fixes them: none selected (110009), each
 * member on the group's map (270010) and gateway (100211), room in each member's group table (100212), the
 * grouping rules of spec section 5 (groupingProblem), at most GROUP_LIMITS.members.
 */
export function membersProblem(group: { gatewayId: string; mapId: string }, members: readonly MemberFacts[]): ErrorCode | undefined {
  if (members.length === 0) return 110009;
  if (members.length > GROUP_LIMITS.members) return 100213;
  if (members.some((m) => m.mapId !== group.mapId)) return 270010;
  if (members.some((m) => m.gatewayId !== group.gatewayId)) return 100211;
  if (members.some((m) => m.otherGroups >= GROUP_LIMITS.groupsPerDevice)) return 100212;
  return groupingProblem(members.map((m) => m.type));
}

/** The group actions of the control panel: a group command carries on/off, brightness, colour temperature or colour. */
export const GROUP_OPS = ['onOff', 'brightness', 'cct', 'rgb'] as const;
export type GroupOp = (typeof GROUP_OPS)[number];

/**
 * Whether a group with members of these types can take the action: at least one member must be able to
 * (members that cannot ignore the frame, as Zigbee lights do). 100209 otherwise.
 */
export function groupControlProblem(types: readonly number[], op: GroupOp): ErrorCode | undefined {
  const can = (code: number) => {
    const t = deviceType(code);
    if (!t) return false;
    return { onOff: t.onOff, brightness: t.dimmable, cct: t.cct, rgb: t.rgb }[op];
  };
  return types.some(can) ? undefined : 100209;
}

/**
 * Whether a device selected on the floor plan takes a light action (device/v1/control_many): lights only,
 * since a sensor's or a switch's on/off means something else than a light's.
 */
export function takesLightAction(code: number, op: GroupOp): boolean {
  const t = deviceType(code);
  return Boolean(t?.lighting) && groupControlProblem([code], op) === undefined;
}

/** The body of the zone calls whose id is in the path (spec section 7 makes them POST): none, or {}. */
export const ZonePathCallBodySchema = NoFieldsBodySchema;

/** A group as the group screen lists it: the group, where it lives, and whether its gateway runs it yet. */
export const GroupViewSchema = Type.Object({
  ...GroupSchema.properties,
  failureCount: Type.Integer({ minimum: 0, description: 'Members in failure' }),
  gatewayName: Type.String(),
  gatewayOnline: Type.Boolean(),
  /**
   * True when the gateway acknowledged a configuration with the current members (its group table has the
   * group); false until the next sync. Until then control goes to each member in turn.
   */
  onGateway: Type.Boolean(),
});
export type GroupView = Static<typeof GroupViewSchema>;

export const GroupViewListSchema = Type.Array(GroupViewSchema);
export type GroupViewList = Static<typeof GroupViewListSchema>;

/** POST zone/v1/get/{id}: the group with each member as the floor plan draws it. */
export const GroupDetailSchema = Type.Object({ ...GroupViewSchema.properties, members: Type.Array(DeviceMarkerSchema) });
export type GroupDetail = Static<typeof GroupDetailSchema>;

const SomeIds = Type.Array(IdSchema, { maxItems: GROUP_LIMITS.members, description: 'Device ids' });

/** POST zone/v1/succeed_device: adds and removes members; the result must still pass membersProblem. */
export const GroupMembersBodySchema = Type.Object({
  id: IdSchema,
  add: Type.Optional(SomeIds),
  remove: Type.Optional(SomeIds),
});
export type GroupMembersBody = Static<typeof GroupMembersBodySchema>;

/**
 * POST zone/v1/control: one action for the whole group, as one flat object (the server's validator strips
 * union branches; see DeviceControlRequestSchema).
 */
export const GroupControlRequestSchema = Type.Object({
  id: IdSchema,
  action: Type.Object({
    // Spelled out: a mapped array loses the literal types, and Static<> of it would be never.
    op: Type.Union([Type.Literal('onOff'), Type.Literal('brightness'), Type.Literal('cct'), Type.Literal('rgb')], {
      description: 'onOff with on, brightness with percent, cct with kelvin, rgb with color',
    }),
    on: Type.Optional(Type.Boolean()),
    percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Brightness 0-100 %' })),
    kelvin: Type.Optional(Type.Integer({ minimum: CCT_MIN_K, maximum: CCT_MAX_K, description: 'Colour temperature 2700-6500 K' })),
    color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' })),
  }),
});
export type GroupControlRequest = Static<typeof GroupControlRequestSchema>;

/** How a group command went out: one group frame, or one unicast per member while the gateway lacks the group. */
export const GroupControlResultSchema = Type.Object({
  mode: Type.Union([Type.Literal('group'), Type.Literal('unicast')], {
    description: 'group: one group.control frame; unicast: the gateway drains one frame per member at its radio rate',
  }),
  /** Radio frames the command costs on the gateway's network. */
  frames: Type.Integer({ minimum: 0 }),
  /** Members that were online and addressed. */
  targets: Type.Integer({ minimum: 0 }),
});
export type GroupControlResult = Static<typeof GroupControlResultSchema>;

/** GET zone/v1/add_group_devices/{mapId}/{gatewayId}/{groupId}/{type}: groupId 0 for a new group, type 0 for every type. */
export const GroupCandidatesParamsSchema = Type.Object({
  mapId: IdSchema,
  gatewayId: IdSchema,
  groupId: Type.String({ pattern: '^[0-9]{1,19}$', description: 'The group being edited, or 0 for a new one' }),
  type: Type.Integer({ minimum: 0, maximum: 65535, description: 'Only devices of this type code; 0 for all' }),
});
export type GroupCandidatesParams = Static<typeof GroupCandidatesParamsSchema>;

/** One device the member picker offers, with whether it is a member and why it could not join on its own. */
export const GroupCandidateSchema = Type.Object({
  ...DeviceMarkerSchema.properties,
  member: Type.Boolean({ description: 'In the group now' }),
  groups: Type.Integer({ minimum: 0, description: 'Groups it is in' }),
  /** 100201 for a type that never groups, 100212 for a full group table; null when it may join. */
  problem: Type.Union([Type.Integer(), Type.Null()]),
});
export type GroupCandidate = Static<typeof GroupCandidateSchema>;

export const GroupCandidateListSchema = Type.Array(GroupCandidateSchema);
export type GroupCandidateList = Static<typeof GroupCandidateListSchema>;
