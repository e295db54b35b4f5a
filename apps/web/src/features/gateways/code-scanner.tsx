import { useEffect, useRef, useState } from 'react';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GatewayQr } from '@lumigrid/contract/browser';
import { createCodeReader } from './code-reader.ts';
import { gatewayCodeAmong } from './gateway-code.ts';
import './code-scanner.css';

/** How often a camera frame is searched for a code: often enough to feel instant, rarely enough for a slow phone. */
const SCAN_EVERY_MS = 200;

type ScannerState = 'starting' | 'scanning' | 'denied' | 'unavailable';

/** Why the camera could not be opened: a refusal the user can undo in the browser, or no camera at all. */
function cameraProblem(error: unknown): ScannerState {
  const name = error instanceof DOMException ? error.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'unavailable';
}

/**
 * The phone's rear camera, reading a gateway's label until a code names a gateway (its QR code or MAC
 * barcode), then closed. Where there is no camera, or it is refused, it says so: the MAC can be typed instead.
 */
export function CodeScanner({ onCode }: { onCode: (code: GatewayQr) => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<ScannerState>('starting');
  const [foreign, setForeign] = useState(false);
  const found = useRef(onCode);
  useEffect(() => {
    found.current = onCode;
  });

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: number | undefined;
    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setState('unavailable');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
      } catch (error) {
        if (!stopped) setState(cameraProblem(error));
        return;
      }
      const node = video.current;
      if (stopped || !node) {
        stop();
        return;
      }
      node.srcObject = stream;
      await node.play().catch(() => undefined);
      const reader = await createCodeReader();
      if (stopped) return;
      setState('scanning');
      const look = async () => {
        if (stopped) return;
        const read = gatewayCodeAmong(await reader.read(node).catch(() => []));
        if (stopped) return;
        if (read.code) {
          stop();
          found.current(read.code);
          return;
        }
        setForeign(read.foreign);
        timer = window.setTimeout(() => void look(), SCAN_EVERY_MS);
      };
      void look();
    };
    void start();
    return stop;
  }, []);

  if (state === 'denied' || state === 'unavailable')
    return (
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message={t(state === 'denied' ? 'gateway.scan.denied' : 'gateway.scan.unavailable')}
        data-testid="scan-problem"
      />
    );
  return (
    <div className="lg-code-scanner" data-testid="code-scanner" data-state={state}>
      <div className="lg-code-scanner-view">
        <video ref={video} muted playsInline aria-label={t('gateway.scan.camera')} />
        <div className="lg-code-scanner-frame" aria-hidden />
      </div>
      <Typography.Text type={foreign ? 'warning' : undefined} role="status" className="lg-code-scanner-hint">
        {foreign ? t('gateway.scan.foreign') : state === 'starting' ? t('gateway.scan.starting') : t('gateway.scan.aim')}
      </Typography.Text>
    </div>
  );
}
