import { describe, expect, it, vi } from 'vitest';
import { groupStateNotes, throttle } from './group-state.ts';

describe('group state notes', () => {
  const group = { gatewayOnline: true, offlineCount: 0, failureCount: 0, deviceIds: ['1', '2'] };

  it('says nothing for a healthy group', () => {
    expect(groupStateNotes(group)).toEqual([]);
  });

  it('names offline and failed members', () => {
    expect(groupStateNotes({ ...group, offlineCount: 1, failureCount: 2 })).toEqual([
      { key: 'groups.offlineMembers', count: 1 },
      { key: 'groups.failureMembers', count: 2 },
    ]);
  });

  it('blames the gateway when it is offline rather than counting members', () => {
    expect(groupStateNotes({ ...group, gatewayOnline: false, offlineCount: 2 })).toEqual([{ key: 'groups.gatewayOffline' }]);
  });
});

describe('throttle', () => {
  it('runs at once, then once more after a burst', () => {
    vi.useFakeTimers();
    try {
      const run = vi.fn();
      const call = throttle(run, 100);
      for (let i = 0; i < 40; i++) call();
      expect(run).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(100);
      expect(run).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(500);
      expect(run).toHaveBeenCalledTimes(2);
      call();
      expect(run).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
