import { describe, expect, it } from 'vitest';
import { defectiveWarning, reactionToNotice, signOutText } from './notices.ts';

describe('real-time notices', () => {
  it('type 0 signs out with the code the server sent, 250004 when it sent none', () => {
    expect(reactionToNotice({ type: 0, userId: '5', code: 250018, msg: 'x', id: '9' })).toEqual({ kind: 'signOut', code: 250018 });
    expect(reactionToNotice({ type: 0 })).toEqual({ kind: 'signOut', code: 250004 });
  });

  it.each([
    [1, 'success', 'realtime.update.success'],
    [2, 'error', 'realtime.update.failure'],
    [3, 'warning', 'realtime.update.timeout'],
    [4, 'warning', 'realtime.update.timeout'],
    [undefined, 'warning', 'realtime.update.timeout'],
  ])('type 1 with result %s is a %s notification (%s): 1 success, 2 failure, anything else a time-out', (result, level, key) => {
    expect(reactionToNotice({ type: 1, userId: '5', name: 'Lobby', result, id: '7', mac: 'AA' })).toEqual({
      kind: 'gatewayUpdate',
      level,
      key,
      name: 'Lobby',
    });
  });

  it('names a gateway by its MAC when it has no name', () => {
    expect(reactionToNotice({ type: 1, name: '', result: 1, mac: 'AA:BB' })).toMatchObject({ name: 'AA:BB' });
  });

  it.each([null, 'text', 42, { type: 7 }, { kind: 'other' }])('ignores %j', (payload) => {
    expect(reactionToNotice(payload)).toBeUndefined();
  });

  it('explains a forced logout in the user’s language, falling back to "log in again" for unknown codes', () => {
    expect(signOutText(250018, 'en')).toBe('Account disabled, contact the administrator');
    expect(signOutText(250004, 'ja')).toBe('再度ログインしてください');
    expect(signOutText(999999, 'cn')).toBe('请重新登录');
  });

  it('reads a defective notice: the device name and its fault', () => {
    expect(defectiveWarning({ userId: '5', id: '1', name: 'Lamp 3', code: 8 })).toEqual({ name: 'Lamp 3', faultKey: 'realtime.fault.led' });
    expect(defectiveWarning({ name: 'Lamp 4', code: 42 })).toEqual({ name: 'Lamp 4', faultKey: 'realtime.fault.unknown' });
    expect(defectiveWarning({ code: 8 })).toBeUndefined();
  });
});

describe('gateway status changes', () => {
  it('reads presence, sync and firmware changes and ignores anything else', async () => {
    const { gatewayStatusChange } = await import('./notices.ts');
    expect(gatewayStatusChange({ kind: 'presence', id: '7', online: true })).toEqual({ kind: 'presence', id: '7', result: null });
    expect(gatewayStatusChange({ kind: 'firmware', id: '7', progress: 40, result: 2 })).toEqual({ kind: 'firmware', id: '7', result: 2 });
    expect(gatewayStatusChange({ kind: 'other', id: '7' })).toBeUndefined();
    expect(gatewayStatusChange({ kind: 'sync', id: 7 })).toBeUndefined();
    expect(gatewayStatusChange('x')).toBeUndefined();
  });
});
