import { describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { gatewayQrLabel } from './qr.ts';

describe("a simulated gateway's QR label", () => {
  it('draws the payload as a QR code in block characters and writes it underneath', () => {
    const label = gatewayQrLabel('a4:c1:38:00:00:01');
    const lines = label.split('\n');
    expect(lines.at(-1)).toBe('LG1:A4C138000001');
    const code = lines.slice(0, -1);
    // The smallest QR version holds the 16 characters: 21 modules and a 2-module border each side.
    const size = encode('LG1:A4C138000001', { border: 2 }).size;
    expect(code.every((line) => [...line].length === size)).toBe(true);
    expect(code).toHaveLength(Math.ceil(size / 2));
    expect(code.join('')).toMatch(/^[ █▀▄]+$/);
  });
});
