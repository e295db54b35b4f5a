import { gatewayQrText } from '@lumigrid/protocol';
import { renderUnicodeCompact } from 'uqr';

/**
 * A simulated gateway's label as the terminal shows it: its QR code (docs/protocol.md section 8) in block
 * characters, two modules per character row, and the payload under it for those who type the MAC instead.
 */
export function gatewayQrLabel(mac: string): string {
  const text = gatewayQrText({ mac });
  return `${renderUnicodeCompact(text, { border: 2 })}\n${text}`;
}
