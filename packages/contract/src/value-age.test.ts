import { describe, expect, it } from 'vitest';
import { valueAge } from './index.ts';

describe('the age of a reported value', () => {
  const at = '2026-11-29T10:00:00.000Z';
  const after = (s: number) => Date.parse(at) + s * 1000;

  it('is stale past two report intervals of its gateway, not before', () => {
    expect(valueAge(at, 60, after(120))).toEqual({ ageMs: 120_000, stale: false });
    expect(valueAge(at, 60, after(121))).toEqual({ ageMs: 121_000, stale: true });
    // A gateway "online" last heard 13 minutes ago with a 60 s interval has missed a dozen reports.
    expect(valueAge(at, 60, after(13 * 60)).stale).toBe(true);
    expect(valueAge(at, 900, after(13 * 60)).stale).toBe(false);
  });

  it('takes the gateway default interval when none is set, and never a negative age', () => {
    expect(valueAge(at, null, after(119)).stale).toBe(false);
    expect(valueAge(at, null, after(121)).stale).toBe(true);
    expect(valueAge(at, 60, after(-30))).toEqual({ ageMs: 0, stale: false });
  });
});
