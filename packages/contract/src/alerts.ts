import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, pageFields } from './common.ts';
import { DISPLAY_STATES, type DisplayState } from './device-status.ts';
import type { Localised } from './lang.ts';

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

/** The filters of the fault list and of its report, all optional. */
const alertFilters = {
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
};

/** POST status/v1/page_alerts: the account's alerts, newest first, filtered by place, code, state and time. */
export const AlertListBodySchema = Type.Object({
  ...alertFilters,
  ...pageFields,
  /**
   * The `next` of the page before: the page after it, found by the index however deep (keyset paging). With it,
   * `page` is ignored.
   */
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,16}_[0-9]{1,19}$', description: 'A cursor from an earlier page' })),
});
export type AlertListBody = Static<typeof AlertListBodySchema>;

/** POST status/v1/download_fail_report: every alert the filters take, newest first. */
export const AlertReportBodySchema = Type.Object(alertFilters);
export type AlertReportBody = Static<typeof AlertReportBodySchema>;

export const AlertPageSchema = Type.Object({
  /** Alerts the filters take; a lower bound when `totalCapped`. */
  total: Type.Integer(),
  /**
   * True when counting stopped: there are more than `total` alerts (the server counts at most 10,000 past the
   * page's offset, so a page costs the same at a million alerts). A pager may show "10,000+" and go on by `next`.
   */
  totalCapped: Type.Boolean({ description: 'More alerts than total: counting stopped at total' }),
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

/** What each fault code of spec section 4 means, for reports the server writes (the screens use their catalogues). */
export const FAULT_TEXT: Record<number, Localised> = {
  0: { en: 'Normal', cn: '正常', tc: '正常', ja: '正常' },
  1: { en: 'Power anomaly', cn: '电源异常', tc: '電源異常', ja: '電源異常' },
  2: { en: 'Offline', cn: '离线', tc: '離線', ja: 'オフライン' },
  3: { en: 'DC sensor error', cn: '直流传感器错误', tc: '直流感測器錯誤', ja: 'DCセンサーエラー' },
  4: { en: 'Motion sensor error', cn: '人体感应器错误', tc: '人體感應器錯誤', ja: '人感センサーエラー' },
  5: { en: 'Daylight sensor error', cn: '日光传感器错误', tc: '日光感測器錯誤', ja: '照度センサーエラー' },
  6: { en: 'Battery fault', cn: '电池故障', tc: '電池故障', ja: 'バッテリー故障' },
  7: { en: 'Charge/discharge management fault', cn: '充放电管理故障', tc: '充放電管理故障', ja: '充放電管理故障' },
  8: { en: 'LED fault', cn: 'LED故障', tc: 'LED故障', ja: 'LED故障' },
  9: { en: 'Emergency communication anomaly', cn: '应急通信异常', tc: '應急通訊異常', ja: '非常用通信異常' },
};

/** The display states of spec section 4, for reports the server writes. */
export const DISPLAY_TEXT: Record<DisplayState, Localised> = {
  onFull: { en: 'On at full load', cn: '满载开启', tc: '滿載開啟', ja: '全負荷点灯' },
  onPartial: { en: 'On, not at full load', cn: '开启（非满载）', tc: '開啟（非滿載）', ja: '点灯（全負荷ではない）' },
  off: { en: 'Off', cn: '关闭', tc: '關閉', ja: '消灯' },
  working: { en: 'Working', cn: '正常工作', tc: '正常工作', ja: '動作中' },
  offline: { en: 'Offline', cn: '离线', tc: '離線', ja: 'オフライン' },
  failure: { en: 'Failure', cn: '故障', tc: '故障', ja: '故障' },
};

const StatusFilterFields = {
  projectId: Type.Optional(IdSchema),
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
  gatewayId: Type.Optional(IdSchema),
};

/** POST status/v1/device_state: how the devices of the account, or of a place or gateway, stand now. */
export const DeviceStateBodySchema = Type.Object(StatusFilterFields);
export type DeviceStateBody = Static<typeof DeviceStateBodySchema>;

const DisplayCounts = Type.Object(
  Object.fromEntries(DISPLAY_STATES.map((d) => [d, Type.Integer()])) as Record<DisplayState, ReturnType<typeof Type.Integer>>,
);

export const DeviceStateSummarySchema = Type.Object({
  total: Type.Integer({ description: 'Devices the filters take' }),
  /** Devices in each display state of spec section 4. */
  display: DisplayCounts,
  /** Devices with each fault code (offline included), most first. */
  byFault: Type.Array(Type.Object({ code: Type.Integer(), count: Type.Integer() })),
  /** Gateways online and offline among those the filters take. */
  gateways: Type.Object({ online: Type.Integer(), offline: Type.Integer() }),
  /** Alerts whose fault lasts now. */
  openAlerts: Type.Integer(),
});
export type DeviceStateSummary = Static<typeof DeviceStateSummarySchema>;

/** How a place stands: its devices, those failing or offline, and its open alerts. */
const StatusCounts = {
  devices: Type.Integer({ description: 'Devices in it' }),
  failure: Type.Integer({ description: 'Of those, in failure' }),
  offline: Type.Integer({ description: 'Of those, offline' }),
  openAlerts: Type.Integer({ description: 'Alerts whose fault lasts now' }),
};
export const StatusNodeSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  /** The parent in the same level (a sub-project's project, a sub-building's building), or null. */
  parentId: Nullable(IdSchema, 'The parent project or building, or null'),
  ...StatusCounts,
});
export type StatusNode = Static<typeof StatusNodeSchema>;

/** GET status/v1/projects/{id}: a project (0: the whole account) with its sub-projects and buildings, counted. */
export const ProjectStatusSchema = Type.Object({
  /** The project (all its buildings, not its sub-projects, as the lists filter); for id 0 the account, named ''. */
  project: StatusNodeSchema,
  children: Type.Array(StatusNodeSchema, {
    description: 'Direct sub-projects (for id 0: top-level projects), each counted as a project',
  }),
  builds: Type.Array(StatusNodeSchema, { description: 'The project\u2019s buildings (none for id 0); nest them by parentId' }),
});
export type ProjectStatus = Static<typeof ProjectStatusSchema>;

/** GET status/v1/{id}/builds/{buildId}: a building with its maps, counted. */
export const BuildingStatusSchema = Type.Object({ build: StatusNodeSchema, maps: Type.Array(StatusNodeSchema) });
export type BuildingStatus = Static<typeof BuildingStatusSchema>;

/** GET status/v1/{id}/maps/{mapId}: a map with the gateways on it, counted. */
export const MapStatusSchema = Type.Object({
  map: StatusNodeSchema,
  gateways: Type.Array(
    Type.Object({ ...StatusNodeSchema.properties, mac: Type.String(), online: Type.Boolean({ description: 'Connected now' }) }),
  ),
});
export type MapStatus = Static<typeof MapStatusSchema>;
