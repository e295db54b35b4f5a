import { Type, type Static } from 'typebox';
import { IdSchema, Nullable } from './common.ts';

/**
 * Faults and their alerts, spec sections 2 (/alert/index, /alert/list), 4 (device fault codes, alert handling)
 * and 7 ("Status and faults"). An alert is one fault of one device (or one gateway offline) from the moment it
 * was raised until it cleared; a person marks it handled.
 */

export const ALERT_STATES = ['pending', 'handled'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const ALERT_LIMITS = {
  /** How long a device or gateway may be away before its offline alert is raised: a reconnect pages nobody. */
  offlineGraceMs: 60_000,
  note: { max: 500 },
  /** Alerts one call marks handled or deletes. */
  batch: { max: 1000 },
} as const;

/** One alert as the fault list shows it. */
export const AlertSchema = Type.Object({
  id: IdSchema,
  /** A device's fault, or a gateway that went offline. */
  kind: Type.Union([Type.Literal('device'), Type.Literal('gateway')]),
  deviceId: Nullable(IdSchema, 'The device, or null for a gateway alert'),
  /** The device's name (the gateway's for a gateway alert) when the alert was raised, kept if it goes. */
  name: Type.String(),
  deviceType: Nullable(Type.Integer(), 'Device type code, or null for a gateway alert'),
  gatewayId: IdSchema,
  gatewayName: Type.String(),
  code: Type.Integer({ minimum: 1, maximum: 9, description: 'Fault code of spec section 4' }),
  projectId: Nullable(IdSchema, 'Where it stands, or null'),
  projectName: Type.String(),
  buildId: Nullable(IdSchema, 'Where it stands, or null'),
  buildName: Type.String(),
  mapId: Nullable(IdSchema, 'Where it stands, or null'),
  mapName: Type.String(),
  raisedAt: Type.String({ format: 'date-time' }),
  clearedAt: Nullable(Type.String({ format: 'date-time' }), 'When the fault cleared, or null while it lasts'),
  state: Type.Union([Type.Literal('pending'), Type.Literal('handled')]),
  handledBy: Nullable(Type.String(), 'Who marked it handled, or null'),
  handledAt: Nullable(Type.String({ format: 'date-time' }), 'When, or null'),
  note: Type.String(),
});
export type Alert = Static<typeof AlertSchema>;

const LocalDateTime = Type.String({ format: 'date-time' });

/** POST status/v1/page_alerts: the account's alerts, newest first, filtered by place, code, state and time. */
export const AlertListBodySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
  gatewayId: Type.Optional(IdSchema),
  code: Type.Optional(Type.Integer({ minimum: 1, maximum: 9 })),
  state: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('handled')])),
  /** Only alerts whose fault lasts (true) or has cleared (false). */
  open: Type.Optional(Type.Boolean()),
  from: Type.Optional(LocalDateTime),
  to: Type.Optional(LocalDateTime),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
  /**
   * The `next` of the page before: the page after it, found by the index however deep (keyset paging). With it,
   * `page` is ignored.
   */
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,16}_[0-9]{1,19}$', description: 'A cursor from an earlier page' })),
});
export type AlertListBody = Static<typeof AlertListBodySchema>;

export const AlertPageSchema = Type.Object({
  total: Type.Integer(),
  list: Type.Array(AlertSchema),
  /** The cursor of the page after this one, or null on the last page. */
  next: Nullable(Type.String(), 'Cursor of the next page, or null'),
});
export type AlertPage = Static<typeof AlertPageSchema>;

/** POST status/v1/handle: marks alerts handled, with a note. */
export const AlertHandleBodySchema = Type.Object({
  ids: Type.Array(IdSchema, { minItems: 1, maxItems: ALERT_LIMITS.batch.max }),
  note: Type.String({ maxLength: ALERT_LIMITS.note.max }),
});
export type AlertHandleBody = Static<typeof AlertHandleBodySchema>;

/** POST status/v1/delete: deletes alerts. */
export const AlertDeleteBodySchema = Type.Object({
  ids: Type.Array(IdSchema, { minItems: 1, maxItems: ALERT_LIMITS.batch.max }),
});
export type AlertDeleteBody = Static<typeof AlertDeleteBodySchema>;

export const AlertCountSchema = Type.Object({ count: Type.Integer({ description: 'Alerts the call changed' }) });
export type AlertCount = Static<typeof AlertCountSchema>;

/** The device name a defective-device notice shows: a switch's channel names after the first are left out. */
export function defectiveName(name: string): string {
  return name.split('|')[0]!.trim();
}

/** POST status/v1/statistics: fault statistics of the account, or of a place, over a time range. */
export const AlertStatisticsBodySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
  from: LocalDateTime,
  to: LocalDateTime,
  /** The buckets of `overTime`. */
  unit: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]),
  /** The reader's offset from UTC in minutes (east positive), so days begin at the reader's midnight. */
  utcOffsetMin: Type.Optional(Type.Integer({ minimum: -840, maximum: 840, default: 0 })),
});
export type AlertStatisticsBody = Static<typeof AlertStatisticsBodySchema>;

export const AlertStatisticsSchema = Type.Object({
  /** Raised in the range. */
  total: Type.Integer(),
  /** Of those, still pending (not handled). */
  pending: Type.Integer(),
  /** Faults lasting now, whenever raised. */
  open: Type.Integer(),
  /** Mean minutes from raised to cleared of the alerts raised in the range that cleared; null for none. */
  meanMinutesToClear: Nullable(Type.Number(), 'Mean minutes to clear, or null'),
  byCode: Type.Array(Type.Object({ code: Type.Integer(), count: Type.Integer() })),
  /** The maps with the most alerts, most first (at most 20). */
  byMap: Type.Array(
    Type.Object({
      mapId: Nullable(IdSchema, 'The map, or null for no map'),
      mapName: Type.String(),
      buildName: Type.String(),
      count: Type.Integer(),
    }),
  ),
  /** Alerts raised per bucket, oldest first; `bucket` is the bucket's first day (YYYY-MM-DD, reader's time). */
  overTime: Type.Array(Type.Object({ bucket: Type.String(), count: Type.Integer() })),
});
export type AlertStatistics = Static<typeof AlertStatisticsSchema>;
