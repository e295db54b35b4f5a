import { describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { gatewayQrText } from '@lumigrid/protocol';
import { frameSize, gatewayCodeAmong, greyscale, readGatewayCode } from './gateway-code.ts';
import { decodeFrame, newZxingReader } from './zxing-reader.ts';

/** A QR code as a camera would see it: black modules `scale` pixels wide on white, a quiet zone around, in RGBA. */
function qrFrame(text: string, scale = 4, border = 4) {
  const { data, size } = encode(text, { border });
  const width = size * scale;
  const rgba = new Uint8ClampedArray(width * width * 4);
  for (let y = 0; y < width; y++)
    for (let x = 0; x < width; x++) {
      const value = data[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255;
      rgba.set([value, value, value, 255], (y * width + x) * 4);
    }
  return { rgba, width, height: width };
}

describe('reading a gateway label', () => {
  it('takes the QR payload, a bare MAC and a captioned MAC barcode', () => {
    expect(readGatewayCode('LG1:A4C1380B229F')).toEqual({ mac: 'A4C1380B229F' });
    expect(readGatewayCode('LG1:A4C1380B229F:k9Qx-2_abcdEFGH1')).toEqual({ mac: 'A4C1380B229F', secret: 'k9Qx-2_abcdEFGH1' });
    expect(readGatewayCode('a4:c1:38:0b:22:9f')).toEqual({ mac: 'A4C1380B229F' });
    expect(readGatewayCode('A4C1380B229F')).toEqual({ mac: 'A4C1380B229F' });
    for (const captioned of ['MAC: A4-C1-38-0B-22-9F', 'mac=A4C1380B229F', 'MAC A4C1380B229F', 'MAC#A4:C1:38:0B:22:9F'])
      expect(readGatewayCode(captioned), captioned).toEqual({ mac: 'A4C1380B229F' });
  });

  it('refuses what is not a gateway: other products, URLs, partial MACs, a fourth field', () => {
    for (const text of [
      'https://example.com/A4C1380B229F',
      'A4C1380B22',
      'LG1:A4C1380B229F:short',
      'LG2:A4C1380B229F',
      'SN: A4C1380B229F',
      '',
    ])
      expect(readGatewayCode(text), text).toBeUndefined();
  });

  it('picks the gateway code among the codes of one frame, and says when only other codes were read', () => {
    expect(gatewayCodeAmong(['4006381333931', 'LG1:A4C1380B229F'])).toEqual({ code: { mac: 'A4C1380B229F' }, foreign: false });
    expect(gatewayCodeAmong(['4006381333931'])).toEqual({ foreign: true });
    expect(gatewayCodeAmong([])).toEqual({ foreign: false });
  });

  it('scales camera frames down to at most 800 pixels a side, never up', () => {
    expect(frameSize(1920, 1080)).toEqual({ width: 800, height: 450 });
    expect(frameSize(480, 640)).toEqual({ width: 480, height: 640 });
    expect(frameSize(0, 0)).toEqual({ width: 0, height: 0 });
  });

  it('greys RGBA pixels by their brightness', () => {
    const rgba = new Uint8ClampedArray([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255]);
    expect([...greyscale(rgba, 4, 1)]).toEqual([255, 0, 76, 150]);
  });

  it('decodes a gateway QR code with ZXing (the fallback where the browser has no barcode detector)', () => {
    const text = gatewayQrText({ mac: 'A4C1380B229F', secret: 'k9Qx-2_abcdEFGH1' });
    const { rgba, width, height } = qrFrame(text);
    const reader = newZxingReader();
    expect(decodeFrame(reader, rgba, width, height)).toBe(text);
    // A symbol ZXing misreads upright (its detector misplaces the finder patterns) is read turned half a turn.
    const misread = qrFrame('LG1:07B089610C93');
    const readings = [false, true].map((turned) => decodeFrame(reader, misread.rgba, misread.width, misread.height, turned));
    expect(readings).toContain('LG1:07B089610C93');
    // A frame with no code in it is no error: the next frame is tried.
    expect(decodeFrame(reader, new Uint8ClampedArray(64 * 64 * 4).fill(255), 64, 64)).toBeUndefined();
  });
});
