import {
  FIRMWARE_RESULT,
  GATEWAY_LIMITS,
  MAC_INPUT_PATTERN,
  hasAtMostTwoDecimals,
  parseGatewayQr,
  SYNC_STATUS,
  type FirmwareProgressView,
  type Gateway,
  type GatewaySyncItem,
} from '@lumigrid/contract/browser';

/** Catalogue keys of the configuration sync states (spec section 4: 2 syncing, 3 finished, else abnormal). */
export type SyncLabelKey =
  'gateway.sync.state.notSynced' | 'gateway.sync.state.syncing' | 'gateway.sync.state.synced' | 'gateway.sync.state.failed';

export function syncLabel(status: number): { key: SyncLabelKey; color: 'default' | 'processing' | 'success' | 'error' | 'warning' } {
  if (status === SYNC_STATUS.syncing) return { key: 'gateway.sync.state.syncing', color: 'processing' };
  if (status === SYNC_STATUS.synced) return { key: 'gateway.sync.state.synced', color: 'success' };
  if (status === SYNC_STATUS.notSynced) return { key: 'gateway.sync.state.notSynced', color: 'warning' };
  return { key: 'gateway.sync.state.failed', color: 'error' };
}

/** The number the header banner shows: gateways whose configuration is not synced (synced ones never count). */
export function unsyncedCount(items: readonly Pick<GatewaySyncItem, 'status'>[] | undefined): number {
  return (items ?? []).filter((item) => item.status !== SYNC_STATUS.synced).length;
}

/**
 * The sync progress bar of spec section 4: one percent every 100 ms from the start, held at 99 until the
 * gateway acknowledges; 100 once it has.
 */
export function syncPercent(elapsedMs: number, acknowledged: boolean): number {
  if (acknowledged) return 100;
  const { stepPercent, stepMs, cap } = GATEWAY_LIMITS.syncProgress;
  return Math.min(cap, Math.max(0, Math.floor(elapsedMs / stepMs) * stepPercent));
}

/** What a gateway is doing, as one catalogue key for the status column. */
export type PresenceKey =
  'gateway.status.online' | 'gateway.status.offline' | 'gateway.status.restarting' | 'gateway.status.updating' | 'gateway.status.unknown';

/**
 * The status column's tag; `hint` explains it where the word alone would mislead. Unknown comes first: while
 * the server has lost its broker, nothing it last heard (a restart, an update) can be vouched for.
 */
export function presenceOf(gateway: Pick<Gateway, 'online' | 'activity' | 'presence'>): {
  key: PresenceKey;
  color: 'success' | 'default' | 'processing' | 'warning';
  hint?: 'gateway.status.unknownHint';
} {
  if (gateway.presence === 'unknown') return { key: 'gateway.status.unknown', color: 'warning', hint: 'gateway.status.unknownHint' };
  if (gateway.activity === 'restarting') return { key: 'gateway.status.restarting', color: 'warning' };
  if (gateway.activity === 'updating') return { key: 'gateway.status.updating', color: 'processing' };
  return gateway.online ? { key: 'gateway.status.online', color: 'success' } : { key: 'gateway.status.offline', color: 'default' };
}

/** Whether a firmware update has ended, and how (spec section 4: 1 success, 2 failure, anything else a time-out). */
export function firmwareOutcome(
  progress: Pick<FirmwareProgressView, 'state' | 'result'> | undefined,
): 'running' | 'success' | 'failure' | 'timeout' | 'idle' {
  if (!progress) return 'idle';
  if (progress.state === 'updating') return 'running';
  if (progress.state === 'idle') return 'idle';
  if (progress.result === FIRMWARE_RESULT.success || progress.state === 'success') return 'success';
  if (progress.result === FIRMWARE_RESULT.failure || progress.state === 'failed') return 'failure';
  return 'timeout';
}

/** Catalogue keys of the gateway form texts (spec section 5). */
export type GatewayRuleKey =
  | 'gateway.rules.nameRequired'
  | 'gateway.rules.nameLength'
  | 'gateway.rules.mac'
  | 'gateway.rules.longitude'
  | 'gateway.rules.latitude'
  | 'gateway.rules.reportInterval'
  | 'gateway.rules.channel'
  | 'gateway.rules.largeGroup'
  | 'gateway.rules.mapRequired';

/** The values the rule messages interpolate. */
export const GATEWAY_RULE_VARS = {
  nameMax: GATEWAY_LIMITS.name.max,
  intervalMin: GATEWAY_LIMITS.reportIntervalS.min,
  intervalMax: GATEWAY_LIMITS.reportIntervalS.max,
  channelMin: GATEWAY_LIMITS.channel.min,
  channelMax: GATEWAY_LIMITS.channel.max,
  groupMin: GATEWAY_LIMITS.largeGroupNumber.min,
  groupMax: GATEWAY_LIMITS.largeGroupNumber.max,
} as const;

const MAC = new RegExp(MAC_INPUT_PATTERN);

export function checkGatewayName(value: string | undefined): GatewayRuleKey | undefined {
  if (!value || !value.trim()) return 'gateway.rules.nameRequired';
  return [...value.trim()].length > GATEWAY_LIMITS.name.max ? 'gateway.rules.nameLength' : undefined;
}

/** A name is optional when binding: the server names the gateway after its MAC. */
export function checkOptionalGatewayName(value: string | undefined): GatewayRuleKey | undefined {
  return value && value.trim() ? checkGatewayName(value) : undefined;
}

/** Twelve hex digits, optionally separated by ':' or '-' (the contract's MacSchema), or a gateway's QR text. */
export function checkMac(value: string | undefined): GatewayRuleKey | undefined {
  return value && macFromInput(value) ? undefined : 'gateway.rules.mac';
}

/**
 * The MAC a person typed or pasted, or a hand-held scanner typed from the gateway's QR code (`LG1:...`,
 * docs/protocol.md section 8), as the bind call takes it; undefined for anything else.
 */
export function macFromInput(value: string): string | undefined {
  const trimmed = value.trim();
  if (MAC.test(trimmed)) return trimmed;
  return parseGatewayQr(trimmed)?.mac;
}

/** Longitude -180 to 180, latitude -90 to 90, at most two decimals; both are required on a gateway. */
export function checkGatewayCoordinate(kind: 'longitude' | 'latitude', value: number | null | undefined): GatewayRuleKey | undefined {
  const { min, max } = GATEWAY_LIMITS[kind];
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && hasAtMostTwoDecimals(value);
  return ok ? undefined : `gateway.rules.${kind}`;
}

const inRange = (value: number | null | undefined, range: { min: number; max: number }) =>
  value === null || value === undefined || (Number.isInteger(value) && value >= range.min && value <= range.max);

export const checkReportInterval = (value: number | null | undefined): GatewayRuleKey | undefined =>
  inRange(value, GATEWAY_LIMITS.reportIntervalS) ? undefined : 'gateway.rules.reportInterval';
export const checkChannel = (value: number | null | undefined): GatewayRuleKey | undefined =>
  inRange(value, GATEWAY_LIMITS.channel) ? undefined : 'gateway.rules.channel';
export const checkLargeGroup = (value: number | null | undefined): GatewayRuleKey | undefined =>
  inRange(value, GATEWAY_LIMITS.largeGroupNumber) ? undefined : 'gateway.rules.largeGroup';
