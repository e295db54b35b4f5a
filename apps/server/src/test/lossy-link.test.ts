import { describe, expect, it } from 'vitest';
import { createPacketFaults, WIRE_FAULTS } from './lossy-link.fixtures.ts';

/** A random source that answers the given numbers in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('the userspace link decides as tc netem does', () => {
  it('passes everything at once without faults', () => {
    const sut = createPacketFaults(
      () => undefined,
      () => 0,
    );
    expect(sut.decide()).toBe(0);
  });

  it('drops the packets its loss draw picks', () => {
    // 0.04 < 5 %: dropped. Then kept (0.5), not reordered (0.25 after the correlation), delayed by the mean (0.5).
    const sut = createPacketFaults(() => WIRE_FAULTS, sequence(0.04, 0.5, 0.5, 0.5));
    expect(sut.decide()).toBeUndefined();
    expect(sut.decide()).toBe(200);
  });

  it('sends a reordered packet at once and the others within the jitter of the delay', () => {
    const sut = createPacketFaults(() => ({ ...WIRE_FAULTS, reorderCorrelationPercent: 0 }), sequence(0.5, 0.1, 0.5, 0.9, 1));
    expect(sut.decide()).toBe(0);
    expect(sut.decide()).toBe(250);
  });

  it('loses about its share and, uncorrelated, reorders about its share over many packets', () => {
    const sut = createPacketFaults(() => ({ ...WIRE_FAULTS, reorderCorrelationPercent: 0 }));
    const waits = Array.from({ length: 20_000 }, () => sut.decide());
    const lost = waits.filter((w) => w === undefined).length / waits.length;
    const atOnce = waits.filter((w) => w === 0).length / waits.length;
    expect(lost).toBeGreaterThan(0.04);
    expect(lost).toBeLessThan(0.06);
    // 25 % of the 95 % kept.
    expect(atOnce).toBeGreaterThan(0.21);
    expect(atOnce).toBeLessThan(0.27);
    expect(Math.max(...waits.filter((w): w is number => w !== undefined))).toBeLessThanOrEqual(250);
  });
});
