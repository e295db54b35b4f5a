import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ageText } from './value-age.tsx';

/** A t that answers the key and its count, so the unit chosen shows. */
const t = ((key: string, options: { count: number }) => `${key}:${options.count}`) as unknown as TFunction;

describe('the age of a value as the reader says it', () => {
  it('counts seconds, then minutes, hours and days', () => {
    expect(ageText(t, 12_400)).toBe('age.seconds:12');
    expect(ageText(t, 13 * 60_000 + 5_000)).toBe('age.minutes:13');
    expect(ageText(t, 3 * 3_600_000)).toBe('age.hours:3');
    expect(ageText(t, 47 * 3_600_000)).toBe('age.hours:47');
    expect(ageText(t, 72 * 3_600_000)).toBe('age.days:3');
  });
});
