import { describe, expect, it } from 'vitest';
import { minutesUntilWindow } from './maintenance-window.ts';

describe('maintenance window', () => {
  const at = new Date('2026-11-23T23:30:00Z');

  it('is always open without a window', () => {
    expect(minutesUntilWindow(null, 'Asia/Tokyo', at)).toBe(0);
  });

  it('reads the window on each gateway’s own clock', () => {
    // 23:30 UTC is 08:30 in Tokyo and 00:30 in Berlin.
    const window = { start: '01:00', end: '05:00' };
    expect(minutesUntilWindow(window, 'Europe/Berlin', at)).toBe(30);
    expect(minutesUntilWindow(window, 'Asia/Tokyo', at)).toBe(16 * 60 + 30);
    expect(minutesUntilWindow({ start: '08:00', end: '09:00' }, 'Asia/Tokyo', at)).toBe(0);
  });

  it('runs a window past midnight and keeps UTC for a gateway without a known zone', () => {
    const night = { start: '22:00', end: '04:00' };
    expect(minutesUntilWindow(night, null, at)).toBe(0);
    expect(minutesUntilWindow(night, 'Not/AZone', at)).toBe(0);
    expect(minutesUntilWindow(night, 'Asia/Tokyo', at)).toBe(13 * 60 + 30);
    // The end is not part of the window.
    expect(minutesUntilWindow({ start: '20:00', end: '23:30' }, 'UTC', at)).toBe(20 * 60 + 30);
  });
});
