import { Type, type Static } from 'typebox';
import type { AlarmsChangedNotice } from './alarms.ts';
import { IdSchema } from './common.ts';

/**
 * The real-time channel of spec section 7: STOMP 1.2 over SockJS. These are the browser's messages, so
 * they live in the contract beside the HTTP shapes (docs/api.md "Real-time").
 */
export const REALTIME_ENDPOINT = '/ws/endpoint-homa';

declare const carries: unique symbol;
/**
 * A real-time destination with the type of the messages it carries. The server publishes and the browser listens
 * through the same builder (userDestination, mapDestination, ...), so both agree on the payload; the schemas of
 * every topic are in live-topics.ts.
 */
export type Destination<Message> = string & { readonly [carries]?: Message };

/** The per-user topics of spec section 7; `{userId}` is the signed-in user's own id. */
export const USER_TOPICS = ['defective', 'global_message_notice', 'gateway_status', 'alarms'] as const;
export type UserTopic = (typeof USER_TOPICS)[number];

/** What each of a user's own topics carries. */
export interface UserTopicMessages {
  defective: DefectiveNotice;
  global_message_notice: GlobalNotice;
  gateway_status: GatewayStatusNotice;
  alarms: AlarmsChangedNotice;
}

/** The destination a user subscribes to for one of their topics. */
export function userDestination<Topic extends UserTopic>(topic: Topic, userId: string | bigint): Destination<UserTopicMessages[Topic]> {
  return `/topic/${topic}/${String(userId)}`;
}

/** `type` of a global notice: 0 forced logout, 1 gateway firmware update result (spec section 7). */
export const NOTICE_TYPE = { forcedLogout: 0, gatewayUpdate: 1 } as const;

/** The update result a type 1 notice carries (spec section 4): 1 success, 2 failure, anything else a time-out. */
export const GATEWAY_UPDATE_RESULT = { success: 1, failure: 2, timeout: 3 } as const;

/** Type 0: this session was ended on the server; the client signs out and shows `msg`. */
export const ForcedLogoutNoticeSchema = Type.Object({
  type: Type.Literal(NOTICE_TYPE.forcedLogout),
  /** The user the notice is for. */
  userId: IdSchema,
  /** The business code saying why: 250004 ended elsewhere, 100009 expired, 250018 disabled, 250020 deleted. */
  code: Type.Integer(),
  /** The code's message in the user's language. */
  msg: Type.String(),
  /** The ended session; other sessions of the same user are not affected. */
  id: IdSchema,
});
export type ForcedLogoutNotice = Static<typeof ForcedLogoutNoticeSchema>;

/** Type 1: a gateway firmware update finished. */
export const GatewayUpdateNoticeSchema = Type.Object({
  type: Type.Literal(NOTICE_TYPE.gatewayUpdate),
  userId: IdSchema,
  /** The gateway's name, or its MAC while it has none. */
  name: Type.String(),
  /** 1 success, 2 failure (the gateway restarts and reconnects in 1-2 minutes), anything else a time-out. */
  result: Type.Integer(),
  /** The gateway: its id when the cloud knows it, else its MAC. */
  id: Type.String(),
  /** The gateway's MAC. */
  mac: Type.String(),
  /** The firmware part that was updated (gateway, zigbee, ...). */
  target: Type.String(),
  /** The version the update installed or tried to install. */
  version: Type.String(),
});
export type GatewayUpdateNotice = Static<typeof GatewayUpdateNoticeSchema>;

/** A message on /topic/global_message_notice/{userId}. */
export const GlobalNoticeSchema = Type.Union([ForcedLogoutNoticeSchema, GatewayUpdateNoticeSchema]);
export type GlobalNotice = Static<typeof GlobalNoticeSchema>;

/** A message on /topic/defective/{userId}: a device reported a fault (codes of spec section 4). */
export const DefectiveNoticeSchema = Type.Object({
  userId: IdSchema,
  /** The device. */
  id: IdSchema,
  /** The device's name, shown in the warning. */
  name: Type.String(),
  /** The fault code of spec section 4 (1-9). */
  code: Type.Integer({ minimum: 0, maximum: 99 }),
  /** The map the device is on, when it is on one. */
  mapId: Type.Optional(IdSchema),
});
export type DefectiveNotice = Static<typeof DefectiveNoticeSchema>;

/** The header of an ERROR frame that carries the business code (the `message` header carries its text). */
export const STOMP_CODE_HEADER = 'code';

/**
 * A message on /topic/gateway_status/{userId} (Lumigrid's own topic): a gateway of the user's account changed.
 * `presence`: it came online or went offline (reason lost, restart, update, shutdown), or became unknown (reason
 * `unknown`, `online` false: the server lost its MQTT broker and cannot tell); `sync`: its
 * configuration sync status changed (1 not synced, 2 syncing, 3 synced, 4 failed); `firmware`: a firmware
 * update moved on (`progress` and `stage`; `result` 1 success, 2 failure, 3 timeout when it ended).
 */
export const GatewayStatusNoticeSchema = Type.Object({
  kind: Type.Union([Type.Literal('presence'), Type.Literal('sync'), Type.Literal('firmware')]),
  userId: IdSchema,
  /** The gateway. */
  id: IdSchema,
  mac: Type.String(),
  name: Type.String(),
  online: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  syncStatus: Type.Optional(Type.Integer()),
  stage: Type.Optional(Type.String()),
  progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  result: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});
export type GatewayStatusNotice = Static<typeof GatewayStatusNoticeSchema>;
