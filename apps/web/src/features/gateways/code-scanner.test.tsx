import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatewayQr } from '@lumigrid/contract/browser';
import { renderInApp } from '../../test/render.tsx';
import { CodeScanner } from './code-scanner.tsx';

/** What the camera shows, frame after frame, as the browser's barcode detector reads it. */
let inView: string[] = [];
const stopped = vi.fn();

class FakeDetector {
  static getSupportedFormats = async () => ['qr_code', 'code_128', 'ean_13'];
  detect = async () => inView.map((rawValue) => ({ rawValue }));
}

function cameraThat(open: () => Promise<MediaStream>) {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(open) } });
}
const stream = () => Promise.resolve({ getTracks: () => [{ stop: stopped }] } as unknown as MediaStream);

beforeEach(() => {
  inView = [];
  stopped.mockClear();
  vi.stubGlobal('BarcodeDetector', FakeDetector);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CodeScanner: the camera reading a gateway label', () => {
  it('asks for the rear camera, says when another code is in view, and answers the gateway code once read', async () => {
    cameraThat(stream);
    const read: GatewayQr[] = [];
    await renderInApp(<CodeScanner onCode={(code) => read.push(code)} />);
    expect(navigator.mediaDevices.getUserMedia).toHaveBeenCalledWith({ video: { facingMode: { ideal: 'environment' } }, audio: false });
    await screen.findByText(/Hold the QR code or the MAC barcode/);

    inView = ['4006381333931'];
    await screen.findByText(/That code is not a gateway’s/);
    expect(read).toEqual([]);

    inView = ['4006381333931', 'MAC: A4-C1-38-0B-22-9F'];
    await waitFor(() => expect(read).toEqual([{ mac: 'A4C1380B229F' }]));
    // Read once: the camera is let go.
    expect(stopped).toHaveBeenCalled();
  });

  it('says the camera was refused, and that the MAC can be typed', async () => {
    cameraThat(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    await renderInApp(<CodeScanner onCode={() => undefined} />);
    await screen.findByText(/not allowed to use the camera.*type the MAC below/);
  });

  it('says so where there is no camera at all', async () => {
    cameraThat(() => Promise.reject(new DOMException('none', 'NotFoundError')));
    await renderInApp(<CodeScanner onCode={() => undefined} />, { lang: 'ja' });
    await screen.findByText('この端末ではカメラを開けません。ラベルの MAC を下に入力してください。');
  });
});
