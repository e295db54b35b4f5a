import type { AuditEntry } from '@lumigrid/contract/browser';

/** What a control of a device did, from the recorded request: a catalogue key and its values. */
export interface ChangeText {
  key:
    | 'audit.change.switchedOn'
    | 'audit.change.switchedOff'
    | 'audit.change.dimmed'
    | 'audit.change.colourTemp'
    | 'audit.change.colour'
    | 'audit.change.curtain'
    | 'audit.change.position'
    | 'audit.change.controlled'
    | 'audit.change.other';
  values: Record<string, string | number>;
}

interface RecordedAction {
  op?: string;
  on?: boolean;
  percent?: number;
  kelvin?: number;
  color?: string;
  command?: string;
  channel?: number;
}

/**
 * The sentence for an entry, without who and when (the caller adds them): a device or group control says what
 * it set; anything else names its endpoint.
 */
export function describeChange(entry: Pick<AuditEntry, 'endpoint' | 'request'>): ChangeText {
  const body = entry.request.body as { action?: RecordedAction; on?: boolean } | undefined;
  const action = body?.action;
  if (action?.op) {
    const channel = action.channel ? ` (${action.channel})` : '';
    switch (action.op) {
      case 'onOff':
      case 'channel':
        return { key: action.on ? 'audit.change.switchedOn' : 'audit.change.switchedOff', values: { channel } };
      case 'brightness':
        return { key: 'audit.change.dimmed', values: { percent: action.percent ?? 0, channel } };
      case 'cct':
        return { key: 'audit.change.colourTemp', values: { kelvin: action.kelvin ?? 0, channel } };
      case 'rgb':
        return { key: 'audit.change.colour', values: { color: action.color ?? '', channel } };
      case 'curtain':
        return { key: 'audit.change.curtain', values: { command: action.command ?? '', channel } };
      case 'position':
        return { key: 'audit.change.position', values: { percent: action.percent ?? 0, channel } };
      default:
        return { key: 'audit.change.controlled', values: { op: action.op, channel } };
    }
  }
  return { key: 'audit.change.other', values: { endpoint: entry.endpoint } };
}
