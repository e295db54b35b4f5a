import { OPERATE_AUTH } from '@lumigrid/contract';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { compareVersions, createFirmwareCatalogue } from './firmware-catalogue.ts';
import { activityOf, mapFirmware } from './gateways.mappers.ts';
import type { GatewaysRepo } from './gateways.repo.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { DevicesRepo } from '../devices/devices.repo.ts';
import { createGatewaysService } from './gateways.service.ts';

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 0;
  } catch (error) {
    return (error as AppError).code;
  }
};

describe('gateway rules', () => {
  it('compares firmware versions numerically and picks the newest file of a part', () => {
    expect(compareVersions('3.10.0', '3.9.1')).toBe(1);
    expect(compareVersions('3.2', '3.2.0')).toBe(0);
    expect(compareVersions('1.0.7', '1.0.10')).toBe(-1);
    const catalogue = createFirmwareCatalogue([
      { target: 'gateway', version: '3.9.0', url: 'https://x/a' },
      { target: 'gateway', version: '3.10.0', url: 'https://x/b' },
      { target: 'zigbee', version: '9.0.0', url: 'https://x/c' },
    ]);
    expect(catalogue.latest('gateway', 'A1B2C3D4E5F6')?.version).toBe('3.10.0');
    expect(catalogue.latest('plc', 'A1B2C3D4E5F6')).toBeUndefined();
    // A file limited to some MACs (the demo's) is offered to those gateways alone.
    const demo = createFirmwareCatalogue([
      { target: 'gateway', version: '3.9.0', url: 'https://x/a' },
      { target: 'gateway', version: '4.0.0', url: 'https://x/demo', macPrefix: '02DE30' },
    ]);
    expect(demo.latest('gateway', '02DE30000001')?.version).toBe('4.0.0');
    expect(demo.latest('gateway', 'A1B2C3D4E5F6')?.version).toBe('3.9.0');
  });

  it('tells updating before restarting, and idle otherwise', () => {
    const running = {
      mac: 'A',
      update: 'u',
      target: 'gateway' as const,
      version: '1',
      stage: 'downloading' as const,
      progress: 40,
      startedAt: 0,
      result: undefined,
    };
    expect(activityOf({ online: false, offlineReason: 'update' }, running)).toBe('updating');
    expect(activityOf({ online: false, offlineReason: 'restart' }, undefined)).toBe('restarting');
    expect(activityOf({ online: false, offlineReason: 'lost' }, undefined)).toBe('idle');
    expect(activityOf({ online: true, offlineReason: null }, { ...running, result: 2 })).toBe('idle');
    expect(mapFirmware({ ...running, result: 3 })).toMatchObject({ state: 'timeout', result: 3, progress: 40 });
    expect(mapFirmware(undefined)).toMatchObject({ state: 'idle', result: null });
  });
});

describe('gateways service', () => {
  /** A service whose repo and link must never be reached: authority is checked first. */
  function untouched() {
    const repo = new Proxy({}, { get: () => vi.fn(() => Promise.reject(new Error('the repo was reached'))) }) as unknown as GatewaysRepo;
    const sut = createGatewaysService({
      repo,
      devices: new Proxy(
        {},
        { get: () => vi.fn(() => Promise.reject(new Error('the devices repo was reached'))) },
      ) as unknown as DevicesRepo,
      access: new Proxy(
        {},
        { get: () => vi.fn(() => Promise.reject(new Error('the access check was reached'))) },
      ) as unknown as ProjectAccess,
      link: undefined,
      firmware: createFirmwareCatalogue([]),
      clock: { now: () => new Date() },
      logger: { error: vi.fn(), warn: vi.fn() },
      fleet: {
        statusChanged: vi.fn(() => {
          throw new Error('a status change was told');
        }),
      },
    });
    return sut;
  }

  it('refuses changes to view-only and controllable users before any query', async () => {
    const sut = untouched();
    for (const operateAuth of [OPERATE_AUTH.controllable, OPERATE_AUTH.viewOnly]) {
      const auth = { tenantId: 1n, operateAuth };
      expect(await code(sut.bind(auth, { mac: 'A4C138000001', mapId: '1' }))).toBe(110003);
      expect(await code(sut.rename(auth, { id: '1', name: 'x' }))).toBe(110003);
      expect(await code(sut.unbind(auth, '1'))).toBe(110003);
      expect(await code(sut.importDevices(auth, '1'))).toBe(110003);
      expect(await code(sut.startUpdate(auth, { id: '1', target: 'gateway' }))).toBe(110003);
    }
    const viewer = { tenantId: 1n, operateAuth: OPERATE_AUTH.viewOnly };
    expect(await code(sut.restart(viewer, '1'))).toBe(110003);
    expect(await code(sut.sync(viewer, '1'))).toBe(110003);
  });

  it('answers 110011 for ids past 64 bits without reaching the database', async () => {
    const sut = untouched();
    expect(await code(sut.detail({ tenantId: 1n, operateAuth: OPERATE_AUTH.owner }, '9999999999999999999'))).toBe(110011);
  });
});
