import { SYNC_STATUS } from '@lumigrid/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorCodeFor, type CommandOutcome } from '../../gateway-link/command-bus.ts';
import { createFirmwareCatalogue } from './firmware-catalogue.ts';
import type { GatewayLinkPort } from './gateway-context.ts';
import type { GatewayRow, GatewaysRepo } from './gateways.repo.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { DevicesRepo } from '../devices/devices.repo.ts';
import { createGatewaysService } from './gateways.service.ts';

type Ending = 'succeeded' | 'expired' | 'timed_out' | 'failed';

/**
 * A gateway online and one configuration version behind, whose link answers each config.apply with the next of
 * `endings` (the last one repeats): the automatic push as the server runs it, with the gateway's answers scripted.
 */
function rig(endings: Ending[]) {
  const row = { id: 7n, tenantId: 1n, mac: 'A4C138000007', mapId: 3n, online: true, configVersion: 5, syncedVersion: 4 } as GatewayRow;
  const repo = {
    find: vi.fn(async () => ({ ...row })),
    setSyncStatus: vi.fn(async (q: { status: number }) => void (row.syncStatus = q.status)),
    acknowledge: vi.fn(async (q: { version: number }) => {
      row.syncedVersion = q.version;
      row.syncStatus = SYNC_STATUS.synced;
    }),
  } as unknown as GatewaysRepo;
  const send = vi.fn(async (mac: string, name: 'config.apply', params: { version: number }) => {
    const state = endings[Math.min(send.mock.calls.length - 1, endings.length - 1)]!;
    const base = { id: String(send.mock.calls.length), mac, name };
    return (
      state === 'succeeded'
        ? { ...base, state, result: { version: params.version } }
        : { ...base, state, error: { code: state }, errorCode: errorCodeFor(name, state) }
    ) as CommandOutcome;
  });
  const unused = <T>() => new Proxy({}, { get: () => vi.fn(() => Promise.reject(new Error('not expected'))) }) as T;
  const service = createGatewaysService({
    repo,
    devices: unused<DevicesRepo>(),
    access: unused<ProjectAccess>(),
    link: { bus: { send } } as unknown as GatewayLinkPort,
    firmware: createFirmwareCatalogue([]),
    clock: { now: () => new Date() },
    logger: { error: vi.fn(), warn: vi.fn() },
    fleet: { statusChanged: vi.fn() },
  });
  return { row, send, service, push: () => service.pushConfig({ tenantId: row.tenantId!, gatewayIds: [row.id] }) };
}

/** The answer to a config.apply the gateway never ran, for the reason given. */
const neverRan = (id: string, mac: string, reason: 'expired' | 'offline') =>
  ({
    id,
    mac,
    name: 'config.apply',
    state: 'expired',
    error: { code: reason },
    errorCode: errorCodeFor('config.apply', 'expired'),
  }) as CommandOutcome;

describe('automatic configuration push', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tries again a push the gateway never ran, until it is acknowledged', async () => {
    const { row, send, push } = rig(['expired', 'expired', 'succeeded']);
    push();
    await vi.runAllTimersAsync();
    expect(send).toHaveBeenCalledTimes(3);
    expect(row).toMatchObject({ syncStatus: SYNC_STATUS.synced, syncedVersion: 5 });
  });

  it.each<Ending>(['timed_out', 'failed'])('does not repeat a push that ended %s: the gateway may have run it', async (ending) => {
    const { row, send, push } = rig([ending, 'succeeded']);
    push();
    await vi.runAllTimersAsync();
    expect(send).toHaveBeenCalledTimes(1);
    expect(row.syncStatus).toBe(SYNC_STATUS.failed);
  });

  it('gives up after six retries, and spreads them out', async () => {
    const { row, send, push } = rig(['expired']);
    const sentAt: number[] = [];
    send.mockImplementation(async (mac) => {
      sentAt.push(Date.now());
      return neverRan(String(sentAt.length), mac, 'expired');
    });
    push();
    await vi.runAllTimersAsync();
    expect(send).toHaveBeenCalledTimes(7);
    expect(row.syncStatus).toBe(SYNC_STATUS.failed);
    const waits = sentAt.slice(1).map((at, i) => at - sentAt[i]!);
    // Each wait is the one before doubled, jittered by half either way.
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(wait).toBeLessThanOrEqual(1500 * 2 ** i);
    });
  });

  it('stops retrying once the gateway has gone offline', async () => {
    const { row, send, push } = rig(['expired']);
    send.mockImplementationOnce(async (mac) => {
      row.online = false;
      return neverRan('1', mac, 'offline');
    });
    push();
    await vi.runAllTimersAsync();
    expect(send).toHaveBeenCalledTimes(1);
  });
});
