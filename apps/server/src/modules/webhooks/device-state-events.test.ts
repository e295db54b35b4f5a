import type { DeviceMarker } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { createDeviceStateEvents } from './device-state-events.ts';
import type { WebhookEventSource } from './webhooks.service.ts';

const marker = (id: string, status: string): DeviceMarker =>
  ({ id, name: `Light ${id}`, type: 1, status, display: {}, manual: false, x: 1, y: 2 }) as unknown as DeviceMarker;

function setup(interested: bigint[]) {
  const emitted: Array<Promise<WebhookEventSource | undefined>> = [];
  let reads = 0;
  const sut = createDeviceStateEvents({
    repo: {
      tenantsTakingAnyTenant: async () => {
        reads += 1;
        return new Set(interested);
      },
    },
    maps: { placeAnyTenant: async ({ id }) => (id === 5n ? { tenantId: 1n, projectId: 3n } : { tenantId: 2n, projectId: 4n }) },
    events: { emit: (source) => void emitted.push(typeof source === 'function' ? source() : Promise.resolve(source)) },
    clock: new TestClock(),
    logger: { warn: () => undefined },
    gatherMs: 60_000,
  });
  return { sut, emitted, reads: () => reads };
}

describe('device state events for webhooks', () => {
  it('gathers a map’s markers into one event with each device’s last marker', async () => {
    const { sut, emitted, reads } = setup([1n]);
    sut.marker(5n, marker('1', 'on'));
    await poll(() => reads() === 1, 'the accounts taking device events read');
    sut.marker(5n, marker('1', 'off'));
    sut.marker(5n, marker('2', 'on'));
    sut.marker(6n, marker('3', 'on'));
    sut.flush();
    const events = (await Promise.all(emitted)).filter((e) => e !== undefined);
    // Map 6 is another account's, which takes no device events.
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'device.stateChanged', tenantId: 1n, projectId: 3n, data: { mapId: '5' } });
    expect((events[0]!.data.devices as DeviceMarker[]).map((d) => [d.id, d.status])).toEqual([
      ['1', 'off'],
      ['2', 'on'],
    ]);
    sut.close();
  });

  it('keeps nothing while no account takes device events', async () => {
    const { sut, emitted, reads } = setup([]);
    sut.marker(5n, marker('1', 'on'));
    await poll(() => reads() === 1, 'the accounts taking device events read');
    sut.marker(5n, marker('1', 'off'));
    sut.flush();
    expect(emitted).toEqual([]);
    sut.close();
  });
});
