import { Type, type Static } from 'typebox';
import { IdSchema, Nullable } from './common.ts';

/**
 * Signed webhooks (docs/api.md "Webhooks"): an account's users register endpoints that are told, by a signed
 * HTTP POST, when something happens in the account. Deliveries are durable jobs retried with back-off.
 */

/** What an endpoint may subscribe to. */
export const WEBHOOK_EVENT_KINDS = [
  'alarm.raised',
  'alarm.cleared',
  'alarm.acknowledged',
  'device.stateChanged',
  'gateway.online',
  'gateway.offline',
  'scene.ran',
  'emergency.testFinished',
  'energy.dayClosed',
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The kind of the event the "send test event" button sends; nobody subscribes to it. */
export const WEBHOOK_TEST_KIND = 'webhook.test';
export type WebhookDeliveryKind = WebhookEventKind | typeof WEBHOOK_TEST_KIND;

export function isWebhookEventKind(kind: string): kind is WebhookEventKind {
  return (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind);
}

/** The headers of every delivery (Stripe and GitHub style); a receiver checks the signature before the body. */
export const WEBHOOK_HEADERS = {
  /** The event's id: the same on every attempt, so a receiver drops one it has seen. */
  eventId: 'lumigrid-event-id',
  kind: 'lumigrid-event-kind',
  /** Seconds since 1970 when this attempt was signed. */
  timestamp: 'lumigrid-timestamp',
  /** Which endpoint secret signed it (`whk_...`, shown on the page). */
  keyId: 'lumigrid-key-id',
  /** `v1=` and the hex HMAC-SHA256 of `${timestamp}.${body}` with the endpoint's secret. */
  signature: 'lumigrid-signature',
} as const;

export const WEBHOOK_LIMITS = {
  name: { min: 1, max: 50 },
  url: { max: 2000 },
  /** Endpoints an account keeps (102004 past it). */
  perAccount: 20,
  /** Deliveries kept per endpoint, newest first; finished ones past it are removed. */
  deliveriesKept: 100,
  /** How long a failing delivery is retried after its event. */
  retryForMs: 24 * 60 * 60_000,
  /** How long one attempt waits for an answer. */
  attemptTimeoutMs: 10_000,
  /** How much of an answer a delivery keeps. */
  answerExcerptChars: 200,
  /** Devices one `device.stateChanged` event carries; a busier map sends several. */
  devicesPerEvent: 500,
} as const;

/** Where a delivery is: waiting for its next attempt, answered 2xx, or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

const KindSchema = Type.Unsafe<WebhookEventKind>({ type: 'string', enum: [...WEBHOOK_EVENT_KINDS] });
const Time = Type.String({ format: 'date-time' });

/** An endpoint as its list shows it: never its secret, which only the create answer carries, once. */
export const WebhookEndpointSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  url: Type.String(),
  kinds: Type.Array(KindSchema),
  enabled: Type.Boolean(),
  /** Names the secret in every delivery's `lumigrid-key-id` header. */
  keyId: Type.String(),
  createdAt: Time,
  /** Who made it: it hears only of the projects this user sees. */
  userId: IdSchema,
  userName: Type.String(),
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = Type.Array(WebhookEndpointSchema);
export type WebhookEndpointList = Static<typeof WebhookEndpointListSchema>;

/** The create answer: the endpoint and, this once, its signing secret. */
export const WebhookEndpointCreatedSchema = Type.Object({
  ...WebhookEndpointSchema.properties,
  secret: Type.String({ description: 'The signing secret (whsec_...): shown this once, never answered again' }),
});
export type WebhookEndpointCreated = Static<typeof WebhookEndpointCreatedSchema>;

const NameSchema = Type.String({
  minLength: WEBHOOK_LIMITS.name.min,
  maxLength: WEBHOOK_LIMITS.name.max,
  pattern: '\\S',
  description: 'What the endpoint is for (not only spaces)',
});
const UrlSchema = Type.String({
  minLength: 8,
  maxLength: WEBHOOK_LIMITS.url.max,
  description: 'https:// (or http://); in SaaS mode it must not resolve to a loopback, private or link-local address (102002)',
});
const KindsSchema = Type.Array(KindSchema, { minItems: 1, maxItems: WEBHOOK_EVENT_KINDS.length, uniqueItems: true });

export const WebhookCreateBodySchema = Type.Object({ name: NameSchema, url: UrlSchema, kinds: KindsSchema });
export type WebhookCreateBody = Static<typeof WebhookCreateBodySchema>;

export const WebhookUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: NameSchema,
  url: UrlSchema,
  kinds: KindsSchema,
  enabled: Type.Boolean({ description: 'A disabled endpoint is sent nothing; its pending deliveries stop' }),
});
export type WebhookUpdateBody = Static<typeof WebhookUpdateBodySchema>;

export const WebhookIdBodySchema = Type.Object({ id: IdSchema });
export type WebhookIdBody = Static<typeof WebhookIdBodySchema>;

/** One delivery of an event to an endpoint, with its last attempt's answer. */
export const WebhookDeliverySchema = Type.Object({
  id: IdSchema,
  eventId: Type.String(),
  kind: Type.Unsafe<WebhookDeliveryKind>({ type: 'string', enum: [...WEBHOOK_EVENT_KINDS, WEBHOOK_TEST_KIND] }),
  state: Type.Unsafe<WebhookDeliveryState>({ type: 'string', enum: [...WEBHOOK_DELIVERY_STATES] }),
  attempts: Type.Integer(),
  answerCode: Nullable(Type.Integer(), 'The HTTP status of the last answer, or null when none came'),
  answerExcerpt: Nullable(Type.String(), 'The start of the last answer, or why none came'),
  createdAt: Time,
  lastAttemptAt: Nullable(Time, 'When it was last sent, or null'),
  nextAttemptAt: Nullable(Time, 'When it is sent again, or null'),
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = Type.Array(WebhookDeliverySchema);
export type WebhookDeliveryList = Static<typeof WebhookDeliveryListSchema>;

/** What a receiver gets as the body of every delivery. */
export interface WebhookEventBody {
  /** `evt_` and a random id: the same on every attempt of the event. */
  id: string;
  kind: WebhookDeliveryKind;
  /** When it happened. */
  createdAt: string;
  accountId: string;
  /** The project it happened in, or null (a gateway not placed in one, the test event). */
  projectId: string | null;
  data: Record<string, unknown>;
}
