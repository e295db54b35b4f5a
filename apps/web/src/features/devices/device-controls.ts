import { deviceType, levelToPercent, parseStatus, rgbToHex, splitChannelNames, type CurtainMotion } from '@lumigrid/contract/browser';

/** Which controls the panel offers for a device type: exactly what its capabilities allow (device-types.ts). */
export interface PanelControls {
  onOff: boolean;
  brightness: boolean;
  cct: boolean;
  rgb: boolean;
  curtain: boolean;
  /** Switch channels, 0 when none; each gets its own on/off. */
  channels: number;
}

export function panelControls(typeCode: number): PanelControls {
  const t = deviceType(typeCode);
  if (!t) return { onOff: false, brightness: false, cct: false, rgb: false, curtain: false, channels: 0 };
  return {
    // A switch is switched per channel, a curtain opened and closed; sensors' on/off is their sensing (another screen).
    onOff: t.onOff && t.channels === 0 && !t.curtain && !t.sensor,
    brightness: t.dimmable,
    cct: t.cct,
    rgb: t.rgb,
    curtain: t.curtain,
    channels: t.channels,
  };
}

/**
 * A light that switches on and off but does not dim (single colour): the panel offers no brightness, and a
 * dimmed group or scene turns it on at full (docs/decisions.md, "Single-colour lights do not dim").
 */
export function switchesOnly(typeCode: number): boolean {
  const t = deviceType(typeCode);
  return t !== undefined && t.lighting && t.onOff && !t.dimmable && !t.emergency;
}

export function hasAnyControl(controls: PanelControls): boolean {
  return controls.onOff || controls.brightness || controls.cct || controls.rgb || controls.curtain || controls.channels > 0;
}

/** What the panel shows as the device's current (reported) values; undefined where unknown or not applicable. */
export interface ReportedValues {
  on?: boolean;
  /** 0-100 %. */
  brightness?: number;
  kelvin?: number;
  /** #rrggbb */
  color?: string;
  /** Curtain opening 0-100 %. */
  position?: number;
  motion?: CurtainMotion;
  channels?: boolean[];
}

/** The reported values of a status string; an empty or unreadable string (never reported) gives none. */
export function reportedValues(typeCode: number, status: string): ReportedValues {
  if (!status) return {};
  const parsed = parseStatus(typeCode, status);
  if (!parsed.ok) return {};
  const s = parsed.value;
  switch (s.family) {
    case 'light':
      return {
        on: s.on,
        brightness: levelToPercent(s.level),
        kelvin: s.cct,
        color: s.rgb ? rgbToHex(s.rgb) : undefined,
      };
    case 'emergency':
      return { on: s.on, brightness: levelToPercent(s.level) };
    case 'curtain':
      return { position: s.position, motion: s.motion };
    case 'switch':
      return { channels: s.channels };
    default:
      return {};
  }
}

/** The names a switch's channels go by: its stored name split by the delimiter, padded to the channel count. */
export function channelNames(name: string, channels: number): string[] {
  const parts = splitChannelNames(name);
  return Array.from({ length: Math.max(1, channels) }, (_, i) => parts[i] ?? parts[0] ?? '');
}
