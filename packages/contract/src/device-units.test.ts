import { describe, expect, it } from 'vitest';
import { cctValueToKelvin, hexToRgb, kelvinToCctValue, levelToPercent, percentToLevel, rgbToHex } from './index.ts';

describe('brightness 0-254 <-> 0-100 %', () => {
  it('keeps the edges', () => {
    expect([0, 1, 99, 100].map(percentToLevel)).toEqual([0, 3, 251, 254]);
    expect([0, 1, 253, 254].map(levelToPercent)).toEqual([0, 1, 99, 100]);
  });

  it('reads only 0 as off and only 254 as full', () => {
    for (let level = 1; level < 254; level++) {
      const p = levelToPercent(level);
      expect(p, String(level)).toBeGreaterThanOrEqual(1);
      expect(p, String(level)).toBeLessThanOrEqual(99);
    }
  });

  it('brings every percent back unchanged', () => {
    for (let p = 0; p <= 100; p++) expect(levelToPercent(percentToLevel(p)), String(p)).toBe(p);
  });

  it('is stable after one round trip from the device side', () => {
    for (let level = 0; level <= 254; level++) {
      const once = percentToLevel(levelToPercent(level));
      expect(percentToLevel(levelToPercent(once)), String(level)).toBe(once);
      expect(Math.abs(once - level), String(level)).toBeLessThanOrEqual(2);
    }
  });

  it('clamps what is out of range', () => {
    expect(percentToLevel(-5)).toBe(0);
    expect(percentToLevel(150)).toBe(254);
    expect(percentToLevel(Number.NaN)).toBe(0);
    expect(levelToPercent(300)).toBe(100);
    expect(levelToPercent(-1)).toBe(0);
  });
});

describe('colour temperature 2700-6500 K <-> inverted device value', () => {
  it('maps the edges inverted', () => {
    expect(kelvinToCctValue(6500)).toBe(0);
    expect(kelvinToCctValue(2700)).toBe(254);
    expect(cctValueToKelvin(0)).toBe(6500);
    expect(cctValueToKelvin(254)).toBe(2700);
    expect(cctValueToKelvin(1)).toBe(6485);
    expect(cctValueToKelvin(253)).toBe(2715);
    expect(kelvinToCctValue(4600)).toBe(127);
  });

  it('brings every device value back unchanged', () => {
    for (let v = 0; v <= 254; v++) expect(kelvinToCctValue(cctValueToKelvin(v)), String(v)).toBe(v);
  });

  it('clamps kelvin outside the range', () => {
    expect(kelvinToCctValue(2000)).toBe(254);
    expect(kelvinToCctValue(9000)).toBe(0);
    expect(cctValueToKelvin(400)).toBe(2700);
  });
});

describe('RGB', () => {
  it('writes and reads #rrggbb', () => {
    expect(rgbToHex({ r: 255, g: 0, b: 16 })).toBe('#ff0010');
    expect(hexToRgb('#FF0010')).toEqual({ r: 255, g: 0, b: 16 });
    expect(hexToRgb('00ff00')).toEqual({ r: 0, g: 255, b: 0 });
    expect(hexToRgb('#fff')).toBeUndefined();
    expect(rgbToHex({ r: 300, g: -1, b: 1.4 })).toBe('#ff0001');
  });
});
