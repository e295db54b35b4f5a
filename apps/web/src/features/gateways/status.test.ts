import { describe, expect, it } from 'vitest';
import { GATEWAY_LIMITS } from '@lumigrid/contract/browser';
import {
  checkChannel,
  checkGatewayCoordinate,
  checkGatewayName,
  checkLargeGroup,
  checkMac,
  macFromInput,
  checkOptionalGatewayName,
  checkReportInterval,
  firmwareOutcome,
  presenceOf,
  syncLabel,
  syncPercent,
  unsyncedCount,
} from './status.ts';

describe('sync progress ticker (spec section 4)', () => {
  it('rises one percent every 100 ms from 0', () => {
    expect(syncPercent(0, false)).toBe(0);
    expect(syncPercent(99, false)).toBe(0);
    expect(syncPercent(100, false)).toBe(1);
    expect(syncPercent(4_250, false)).toBe(42);
  });

  it('stops at 99 until the gateway acknowledges, then shows 100', () => {
    expect(syncPercent(9_900, false)).toBe(99);
    expect(syncPercent(60_000, false)).toBe(GATEWAY_LIMITS.syncProgress.cap);
    expect(syncPercent(300, true)).toBe(100);
  });

  it('never goes below 0 when the clock steps back', () => {
    expect(syncPercent(-500, false)).toBe(0);
  });
});

describe('banner count and sync labels', () => {
  it('counts every gateway not synced and none that is', () => {
    expect(unsyncedCount(undefined)).toBe(0);
    expect(unsyncedCount([{ status: 1 }, { status: 2 }, { status: 4 }, { status: 3 }])).toBe(3);
  });

  it('reads 2 as syncing, 3 as finished, 1 as not synchronized and anything else as abnormal', () => {
    expect(syncLabel(2).key).toBe('gateway.sync.state.syncing');
    expect(syncLabel(3).key).toBe('gateway.sync.state.synced');
    expect(syncLabel(1).key).toBe('gateway.sync.state.notSynced');
    expect(syncLabel(4).key).toBe('gateway.sync.state.failed');
    expect(syncLabel(0).key).toBe('gateway.sync.state.failed');
  });
});

describe('presence and firmware outcome', () => {
  it('shows restarting and updating before online or offline', () => {
    expect(presenceOf({ online: false, presence: 'offline', activity: 'restarting' }).key).toBe('gateway.status.restarting');
    expect(presenceOf({ online: true, presence: 'online', activity: 'updating' }).key).toBe('gateway.status.updating');
    expect(presenceOf({ online: true, presence: 'online', activity: 'idle' }).key).toBe('gateway.status.online');
    expect(presenceOf({ online: false, presence: 'offline', activity: 'idle' }).key).toBe('gateway.status.offline');
  });

  it('says unknown, with why, while the server has lost its broker, whatever it last heard', () => {
    for (const activity of ['idle', 'restarting', 'updating'] as const)
      expect(presenceOf({ online: false, presence: 'unknown', activity })).toEqual({
        key: 'gateway.status.unknown',
        color: 'warning',
        hint: 'gateway.status.unknownHint',
      });
  });

  it('maps result 1 to success, 2 to failure and anything else to a time-out', () => {
    expect(firmwareOutcome(undefined)).toBe('idle');
    expect(firmwareOutcome({ state: 'updating', result: null })).toBe('running');
    expect(firmwareOutcome({ state: 'success', result: 1 })).toBe('success');
    expect(firmwareOutcome({ state: 'failed', result: 2 })).toBe('failure');
    expect(firmwareOutcome({ state: 'timeout', result: 3 })).toBe('timeout');
    expect(firmwareOutcome({ state: 'timeout', result: 7 })).toBe('timeout');
  });
});

describe('gateway field rules (spec section 5)', () => {
  it('takes names of 1-50 characters; the bind name may be empty', () => {
    expect(checkGatewayName('')).toBe('gateway.rules.nameRequired');
    expect(checkGatewayName('   ')).toBe('gateway.rules.nameRequired');
    expect(checkGatewayName('a'.repeat(50))).toBeUndefined();
    expect(checkGatewayName('a'.repeat(51))).toBe('gateway.rules.nameLength');
    expect(checkOptionalGatewayName('')).toBeUndefined();
    expect(checkOptionalGatewayName('x'.repeat(51))).toBe('gateway.rules.nameLength');
  });

  it('takes a MAC of twelve hex digits with or without separators', () => {
    expect(checkMac('AA:BB:CC:DD:EE:FF')).toBeUndefined();
    expect(checkMac('aa-bb-cc-dd-ee-ff')).toBeUndefined();
    expect(checkMac('AABBCCDDEEFF')).toBeUndefined();
    expect(checkMac('AA:BB:CC:DD:EE')).toBe('gateway.rules.mac');
    expect(checkMac('GG:BB:CC:DD:EE:FF')).toBe('gateway.rules.mac');
    expect(checkMac(undefined)).toBe('gateway.rules.mac');
    // The text of a gateway's QR code, as a hand-held scanner types it, names its MAC.
    expect(checkMac('LG1:A4C1380B229F:k9Qx-2_abcdEFGH1')).toBeUndefined();
    expect(macFromInput('LG1:A4C1380B229F')).toBe('A4C1380B229F');
    expect(macFromInput(' aa:bb:cc:dd:ee:ff ')).toBe('aa:bb:cc:dd:ee:ff');
    expect(checkMac('LG1:A4C1380B229')).toBe('gateway.rules.mac');
  });

  it('takes longitude -180..180 and latitude -90..90 with at most two decimals, both required', () => {
    expect(checkGatewayCoordinate('longitude', 114.17)).toBeUndefined();
    expect(checkGatewayCoordinate('longitude', -180)).toBeUndefined();
    expect(checkGatewayCoordinate('longitude', 180.01)).toBe('gateway.rules.longitude');
    expect(checkGatewayCoordinate('longitude', 1.234)).toBe('gateway.rules.longitude');
    expect(checkGatewayCoordinate('longitude', null)).toBe('gateway.rules.longitude');
    expect(checkGatewayCoordinate('latitude', 90)).toBeUndefined();
    expect(checkGatewayCoordinate('latitude', -90.5)).toBe('gateway.rules.latitude');
  });

  it('takes optional whole-number parameters within their ranges', () => {
    expect(checkReportInterval(undefined)).toBeUndefined();
    expect(checkReportInterval(10)).toBeUndefined();
    expect(checkReportInterval(901)).toBe('gateway.rules.reportInterval');
    expect(checkReportInterval(12.5)).toBe('gateway.rules.reportInterval');
    expect(checkChannel(11)).toBeUndefined();
    expect(checkChannel(27)).toBe('gateway.rules.channel');
    expect(checkLargeGroup(65535)).toBeUndefined();
    expect(checkLargeGroup(-1)).toBe('gateway.rules.largeGroup');
  });
});
