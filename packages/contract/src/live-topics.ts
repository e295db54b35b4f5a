import type { TSchema } from 'typebox';
import { AlarmsChangedNoticeSchema } from './alarms.ts';
import { MapTopicMessageSchema } from './devices.ts';
import { EmergencyTopicMessageSchema } from './emergency.ts';
import { ROLLOUT_TOPIC, RolloutSchema } from './platform.ts';
import { DefectiveNoticeSchema, GatewayStatusNoticeSchema, GlobalNoticeSchema, USER_TOPICS, type UserTopic } from './realtime.ts';

/** One live topic: its destination pattern (each `{placeholder}` one path segment) and the schema of what it carries. */
export interface LiveTopic<Message extends TSchema = TSchema> {
  pattern: string;
  message: Message;
}

const USER_TOPIC_MESSAGES = {
  defective: DefectiveNoticeSchema,
  global_message_notice: GlobalNoticeSchema,
  gateway_status: GatewayStatusNoticeSchema,
  alarms: AlarmsChangedNoticeSchema,
} satisfies Record<UserTopic, TSchema>;

/**
 * The event side's table, beside the endpoint table: every destination of the real-time channel with the schema of
 * its messages. The server registers its destinations from it and, in tests, checks every message it publishes
 * against it; the destination builders (mapDestination, ...) carry the same types to the browser.
 */
export const LIVE_TOPICS = {
  map: { pattern: '/topic/map/{mapId}', message: MapTopicMessageSchema },
  emergency: { pattern: '/topic/emergency/{mapId}', message: EmergencyTopicMessageSchema },
  firmwareRollouts: { pattern: ROLLOUT_TOPIC, message: RolloutSchema },
  ...(Object.fromEntries(
    USER_TOPICS.map((topic) => [topic, { pattern: `/topic/${topic}/{userId}`, message: USER_TOPIC_MESSAGES[topic] }]),
  ) as { [Topic in UserTopic]: LiveTopic<(typeof USER_TOPIC_MESSAGES)[Topic]> }),
} satisfies Record<string, LiveTopic>;
export type LiveTopicName = keyof typeof LIVE_TOPICS;
