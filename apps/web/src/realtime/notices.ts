import {
  FAULT_CODES,
  GATEWAY_UPDATE_RESULT,
  NOTICE_TYPE,
  errorMessage,
  isErrorCode,
  type FaultName,
  type Lang,
} from '@lumigrid/contract/browser';

/** Catalogue keys of the gateway update results (spec section 4). */
export type UpdateResultKey = 'realtime.update.success' | 'realtime.update.failure' | 'realtime.update.timeout';

/** Catalogue keys of the fault codes of spec section 4 that a defective notice may carry. */
export type FaultKey = `realtime.fault.${FaultName}` | 'realtime.fault.unknown';

export function faultKey(code: unknown): FaultKey {
  const name = (Object.keys(FAULT_CODES) as FaultName[]).find((n) => FAULT_CODES[n] === code);
  return name ? `realtime.fault.${name}` : 'realtime.fault.unknown';
}

/** What the app does about a global notice. */
export type NoticeReaction =
  { kind: 'signOut'; code: number } | { kind: 'gatewayUpdate'; level: 'success' | 'error' | 'warning'; key: UpdateResultKey; name: string };

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/**
 * Reads a message of /topic/global_message_notice/{userId}: type 0 signs out, type 1 reports a gateway
 * update (1 success, 2 failure, anything else a time-out). Anything unrecognised is ignored.
 */
export function reactionToNotice(payload: unknown): NoticeReaction | undefined {
  if (!isRecord(payload)) return undefined;
  if (payload.type === NOTICE_TYPE.forcedLogout) {
    return { kind: 'signOut', code: typeof payload.code === 'number' ? payload.code : 250004 };
  }
  if (payload.type === NOTICE_TYPE.gatewayUpdate) {
    const name = typeof payload.name === 'string' && payload.name ? payload.name : typeof payload.mac === 'string' ? payload.mac : '';
    if (payload.result === GATEWAY_UPDATE_RESULT.success)
      return { kind: 'gatewayUpdate', level: 'success', key: 'realtime.update.success', name };
    if (payload.result === GATEWAY_UPDATE_RESULT.failure)
      return { kind: 'gatewayUpdate', level: 'error', key: 'realtime.update.failure', name };
    return { kind: 'gatewayUpdate', level: 'warning', key: 'realtime.update.timeout', name };
  }
  return undefined;
}

/** The text of a forced logout: the business code's own message, or "please log in again". */
export function signOutText(code: number, lang: Lang): string {
  return errorMessage(isErrorCode(code) ? code : 250004, lang);
}

/** Reads a message of /topic/defective/{userId}: the device's name and the catalogue key of its fault. */
export function defectiveWarning(payload: unknown): { name: string; faultKey: FaultKey } | undefined {
  if (!isRecord(payload) || typeof payload.name !== 'string') return undefined;
  return { name: payload.name, faultKey: faultKey(payload.code) };
}

/** Reads a message of /topic/gateway_status/{userId}: which gateway changed and how; undefined for anything else. */
export function gatewayStatusChange(
  payload: unknown,
): { kind: 'presence' | 'sync' | 'firmware'; id: string; result: number | null } | undefined {
  if (!isRecord(payload) || typeof payload.id !== 'string') return undefined;
  const kind = payload.kind;
  if (kind !== 'presence' && kind !== 'sync' && kind !== 'firmware') return undefined;
  return { kind, id: payload.id, result: typeof payload.result === 'number' ? payload.result : null };
}
