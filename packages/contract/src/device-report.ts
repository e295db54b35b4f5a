import { formatStatus, statusFamily, type DeviceStatus, type StatusResult } from './device-status.ts';
import { deviceType } from './device-types.ts';
import { LEVEL_MAX, cctValueToKelvin, kelvinToCctValue } from './device-units.ts';

/**
 * What a gateway reports about a device: the fields of packages/protocol's DeviceState, taken structurally
 * so the contract does not depend on the protocol package. Fields that do not apply are absent.
 */
export interface DeviceReport {
  on?: boolean;
  /** 0-254. */
  level?: number;
  /** Kelvin. */
  cct?: number;
  rgb?: readonly [number, number, number];
  /** Curtain opening, percent. */
  position?: number;
  channels?: readonly boolean[];
  occupied?: boolean;
  lux?: number;
  /** Degrees Celsius. */
  temperature?: number;
  battery?: number;
  emergencyState?: number;
  /** A panel's keys are locked. */
  locked?: boolean;
}

const int = (n: number | undefined, fallback: number) => (typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : fallback);

/**
 * The state a report leaves a device in: the reported fields over the previous state (fields a report
 * leaves out keep their value; the mode is never reported). The colour temperature becomes the nearest the
 * device can hold. Never throws; the result passes `formatStatus` when the report's values are in range.
 */
export function statusFromReport(typeCode: number, report: DeviceReport, previous?: DeviceStatus): StatusResult<DeviceStatus> {
  const family = statusFamily(typeCode);
  const t = deviceType(typeCode);
  if (!family || !t) return { ok: false, error: { reason: 'unknownType' } };
  const prev = previous?.family === family ? previous : undefined;
  const mode = prev?.mode ?? 0;
  const r = report ?? {};
  let state: DeviceStatus;
  switch (family) {
    case 'light': {
      const p = prev?.family === 'light' ? prev : undefined;
      state = { family, mode, on: r.on ?? p?.on ?? false, level: int(r.level, p?.level ?? 0) };
      // A light that does not dim (single colour) is at full whenever it is on, whatever level a gateway echoes.
      if (!t.dimmable) state.level = state.on ? LEVEL_MAX : 0;
      if (t.cct) state.cct = cctValueToKelvin(kelvinToCctValue(r.cct ?? p?.cct ?? 4600));
      if (t.rgb) state.rgb = r.rgb ? { r: r.rgb[0], g: r.rgb[1], b: r.rgb[2] } : (p?.rgb ?? { r: 255, g: 255, b: 255 });
      break;
    }
    case 'switch': {
      const p = prev?.family === 'switch' ? prev.channels : [];
      state = { family, mode, channels: Array.from({ length: t.channels }, (_, i) => r.channels?.[i] ?? p[i] ?? false) };
      break;
    }
    case 'curtain': {
      const p = prev?.family === 'curtain' ? prev : undefined;
      state = { family, mode, position: int(r.position, p?.position ?? 0), motion: 'stopped' };
      break;
    }
    case 'motion': {
      const p = prev?.family === 'motion' ? prev : undefined;
      state = {
        family,
        mode,
        enabled: r.on ?? p?.enabled ?? true,
        occupied: r.occupied ?? p?.occupied ?? false,
        lux: int(r.lux, p?.lux ?? 0),
      };
      break;
    }
    case 'daylight': {
      const p = prev?.family === 'daylight' ? prev : undefined;
      state = { family, mode, enabled: r.on ?? p?.enabled ?? true, lux: int(r.lux, p?.lux ?? 0) };
      break;
    }
    case 'temperature': {
      const p = prev?.family === 'temperature' ? prev : undefined;
      state = {
        family,
        mode,
        temperature: typeof r.temperature === 'number' ? Math.round(r.temperature * 10) / 10 : (p?.temperature ?? 0),
      };
      break;
    }
    case 'cctSensor': {
      const p = prev?.family === 'cctSensor' ? prev : undefined;
      state = { family, mode, kelvin: int(r.cct, p?.kelvin ?? 4000), lux: int(r.lux, p?.lux ?? 0) };
      break;
    }
    case 'emergency': {
      const p = prev?.family === 'emergency' ? prev : undefined;
      state = {
        family,
        mode,
        on: r.on ?? p?.on ?? false,
        level: int(r.level, p?.level ?? 0),
        emergencyState: int(r.emergencyState, p?.emergencyState ?? 0),
        battery: int(r.battery, p?.battery ?? 0),
      };
      break;
    }
    case 'panel': {
      const p = prev?.family === 'panel' ? prev : undefined;
      state = { family, mode, key: p?.key ?? 0, locked: r.locked ?? p?.locked ?? false };
      break;
    }
    default:
      // Bridges and super gateways report nothing of their own state here; keep what is known.
      state = prev ?? emptyState(family, mode);
  }
  const written = formatStatus(typeCode, state);
  return written.ok ? { ok: true, value: state } : written;
}

function emptyState(family: 'bridge' | 'superGateway', mode: number): DeviceStatus {
  if (family === 'bridge') return { family, mode, devices: 0 };
  return { family, mode, bridges: 0 };
}
