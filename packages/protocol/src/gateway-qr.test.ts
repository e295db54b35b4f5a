import { describe, expect, it } from 'vitest';
import { gatewayQrText, parseGatewayQr } from './gateway-qr.ts';

describe("a gateway's QR code", () => {
  it('carries the MAC in topic form and an optional pairing secret, and reads back', () => {
    expect(gatewayQrText({ mac: 'a4:c1:38:0b:22:9f' })).toBe('LG1:A4C1380B229F');
    const text = gatewayQrText({ mac: 'A4C1380B229F', secret: 'k9Qx-2_abcdEFGH1' });
    expect(text).toBe('LG1:A4C1380B229F:k9Qx-2_abcdEFGH1');
    expect(parseGatewayQr(text)).toEqual({ mac: 'A4C1380B229F', secret: 'k9Qx-2_abcdEFGH1' });
    expect(parseGatewayQr(' lg1:a4c1380b229f ')).toEqual({ mac: 'A4C1380B229F' });
  });

  it('takes a MAC typed by hand, with or without separators', () => {
    for (const typed of ['A4C1380B229F', 'a4:c1:38:0b:22:9f', 'A4-C1-38-0B-22-9F'])
      expect(parseGatewayQr(typed)).toEqual({ mac: 'A4C1380B229F' });
  });

  it('refuses other codes, broken MACs and secrets', () => {
    for (const text of [
      'https://example.com/A4C1380B229F',
      'LG1:A4C1380B229',
      'LG1:A4C1380B229F:short',
      'LG1:A4C1380B229F:k9Qx-2_abcdEFGH1:extra',
      'LG2:A4C1380B229F',
      'A4C1380B229FF',
      'A4.C1.38.0B.22.9F.',
      '',
    ])
      expect(parseGatewayQr(text), text).toBeUndefined();
    expect(() => gatewayQrText({ mac: 'nope' })).toThrow();
    expect(() => gatewayQrText({ mac: 'A4C1380B229F', secret: 'a:b' })).toThrow();
  });
});
