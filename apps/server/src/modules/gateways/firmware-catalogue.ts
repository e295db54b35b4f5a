import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_FIRMWARE_TARGETS, type GatewayFirmwareTarget } from '@lumigrid/contract';

/** A firmware image the cloud can hand to gateways: where they download it, its size and checksum. */
export interface FirmwareFile {
  target: GatewayFirmwareTarget;
  version: string;
  /** HTTPS URL the gateway downloads from. */
  url: string;
  size?: number;
  sha256?: string;
  /** Offered only to gateways whose MAC starts with this (the demo site's simulated gateways). */
  macPrefix?: string;
}

/** The newest firmware file per part; a part without one answers undefined (260007). */
export interface FirmwareCatalogue {
  /** The newest file of a part for a gateway (files limited to some MACs are offered to those alone). */
  latest(target: GatewayFirmwareTarget, mac: string): FirmwareFile | undefined;
  /** One version of a part for a gateway, when the catalogue holds it (a rollout's or a rollback's file). */
  find(target: GatewayFirmwareTarget, version: string, mac: string): FirmwareFile | undefined;
  /** Every file, newest first per part. */
  files(): FirmwareFile[];
}

/** Compares dotted versions numerically (3.10.0 > 3.9.1); non-numeric parts compare as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = Number(x);
    const ny = Number(y);
    const c = Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
    if (c !== 0) return Math.sign(c);
  }
  return 0;
}

export function createFirmwareCatalogue(files: FirmwareFile[]): FirmwareCatalogue {
  const offered = (target: GatewayFirmwareTarget, mac: string) =>
    files.filter((f) => f.target === target && (f.macPrefix === undefined || mac.startsWith(f.macPrefix)));
  return {
    latest(target, mac) {
      return offered(target, mac).sort((a, b) => compareVersions(b.version, a.version))[0];
    },
    find(target, version, mac) {
      return offered(target, mac).find((f) => f.version === version);
    },
    files() {
      return [...files].sort((a, b) => a.target.localeCompare(b.target) || compareVersions(b.version, a.version));
    },
  };
}

/**
 * The catalogue of DATA_DIR/firmware/manifest.json: an array of { target, version, url, size?, sha256? }
 * (docs/operations.md). Without the file no update is available and starting one answers 260007.
 */
export function loadFirmwareCatalogue(dataDir: string, extra: FirmwareFile[] = []): FirmwareCatalogue {
  const file = join(dataDir, 'firmware', 'manifest.json');
  if (!existsSync(file)) return createFirmwareCatalogue(extra);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const files = (Array.isArray(parsed) ? parsed : []).filter(
    (f): f is FirmwareFile =>
      typeof f === 'object' &&
      f !== null &&
      (GATEWAY_FIRMWARE_TARGETS as readonly string[]).includes((f as FirmwareFile).target) &&
      typeof (f as FirmwareFile).version === 'string' &&
      typeof (f as FirmwareFile).url === 'string',
  );
  return createFirmwareCatalogue([...files, ...extra]);
}
