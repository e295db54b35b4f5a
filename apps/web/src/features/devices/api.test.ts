import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { DeviceMarker } from '@lumigrid/contract/browser';
import { deviceConfigKeys } from '../device-config/api.ts';
import { applyMapMessage, applyMarker, deviceKeys, deviceMapApi, deviceMapKeys, isMarker, isRemoved, readMarkers } from './api.ts';

const marker = (id: string, over: Partial<DeviceMarker> = {}): DeviceMarker => ({
  id,
  name: `Light ${id}`,
  type: 1,
  status: '0:0:0:0',
  display: 'off',
  manual: false,
  x: 0.5,
  y: 0.5,
  ...over,
});

describe('markers from the map topic', () => {
  it('replace the cached marker in place, join the map, or leave it without a position', () => {
    const client = new QueryClient();
    const key = deviceMapKeys.markers('7');
    client.setQueryData(key, [marker('1'), marker('2')]);
    applyMarker(client, '7', marker('2', { status: '0:1:254:0', display: 'onFull' }));
    expect(client.getQueryData<DeviceMarker[]>(key)?.map((m) => [m.id, m.display])).toEqual([
      ['1', 'off'],
      ['2', 'onFull'],
    ]);
    applyMarker(client, '7', marker('3', { x: 0.1, y: 0.9 }));
    expect(client.getQueryData<DeviceMarker[]>(key)?.map((m) => m.id)).toEqual(['1', '2', '3']);
    applyMarker(client, '7', marker('1', { x: null, y: null }));
    expect(client.getQueryData<DeviceMarker[]>(key)?.map((m) => m.id)).toEqual(['2', '3']);
  });

  it('leave a map not loaded yet alone (its first read brings everything)', () => {
    const client = new QueryClient();
    applyMarker(client, '8', marker('1'));
    expect(client.getQueryData(deviceMapKeys.markers('8'))).toBeUndefined();
  });

  it('are recognised by their shape; anything else on the socket is ignored', () => {
    expect(isMarker(marker('1'))).toBe(true);
    expect(isMarker({ id: 1, type: 1, status: '', display: 'off' })).toBe(false);
    expect(isMarker('{"id":"1"}')).toBe(false);
    expect(isMarker(null)).toBe(false);
  });

  it('drop the markers of devices that left the map ({removed: [ids]}) and ignore anything else', () => {
    const client = new QueryClient();
    const key = deviceMapKeys.markers('7');
    client.setQueryData(key, [marker('1'), marker('2'), marker('3')]);
    applyMapMessage(client, '7', { removed: ['1', '3', '99'] });
    expect(client.getQueryData<DeviceMarker[]>(key)?.map((m) => m.id)).toEqual(['2']);
    applyMapMessage(client, '7', { removed: [2] });
    applyMapMessage(client, '7', 'junk');
    expect(client.getQueryData<DeviceMarker[]>(key)?.map((m) => m.id)).toEqual(['2']);
    applyMapMessage(client, '7', marker('4'));
    expect(client.getQueryData<DeviceMarker[]>(key)?.map((m) => m.id)).toEqual(['2', '4']);
    expect(isRemoved({ removed: [] })).toBe(true);
    expect(isRemoved(marker('1'))).toBe(false);
  });
});

describe('a read of the markers beside the map topic', () => {
  function answerLater() {
    let answer: (markers: DeviceMarker[]) => void = () => undefined;
    const spy = vi.spyOn(deviceMapApi, 'markers').mockImplementation(() => new Promise((settle) => (answer = settle)));
    return { answer: (markers: DeviceMarker[]) => answer(markers), spy };
  }

  it('keeps what the topic said while the read was on its way: the database may answer from before the report', async () => {
    const client = new QueryClient();
    const later = answerLater();
    const read = readMarkers(client, '7');
    applyMapMessage(client, '7', marker('1', { display: 'failure' }));
    applyMapMessage(client, '7', { removed: ['2'] });
    applyMapMessage(client, '7', marker('5', { x: 0.2, y: 0.2 }));
    applyMapMessage(client, '8', marker('3', { display: 'failure' }));
    later.answer([marker('1'), marker('2'), marker('3')]);
    expect((await read).map((m) => [m.id, m.display])).toEqual([
      ['1', 'failure'],
      ['3', 'off'],
      ['5', 'off'],
    ]);
    // Heard after the answer: the cache's business, not a later read's.
    const next = readMarkers(client, '7');
    later.answer([marker('1')]);
    expect((await next).map((m) => m.display)).toEqual(['off']);
    later.spy.mockRestore();
  });

  it('reads again when a device is said stored whose marker was never heard, once for it', async () => {
    const client = new QueryClient();
    const key = deviceMapKeys.markers('7');
    client.setQueryData(key, [marker('1'), marker('2')]);
    const invalidated = vi.spyOn(client, 'invalidateQueries');
    applyMapMessage(client, '7', marker('1', { display: 'failure' }));
    applyMapMessage(client, '7', { stored: ['1'] });
    expect(invalidated).not.toHaveBeenCalledWith({ queryKey: key });
    applyMapMessage(client, '7', { stored: ['1', '2'] });
    expect(invalidated).toHaveBeenCalledWith({ queryKey: key });
    invalidated.mockClear();
    applyMapMessage(client, '7', { stored: ['2'] });
    applyMapMessage(client, '7', { stored: [2] });
    expect(invalidated).not.toHaveBeenCalledWith({ queryKey: key });
  });
});

describe('one cache root for devices', () => {
  it('refreshes the plan and the list screens together when the device root is invalidated', async () => {
    const client = new QueryClient();
    const plan = deviceMapKeys.markers('7');
    const list = deviceConfigKeys.list({ page: 1, pageSize: 20 });
    client.setQueryData(plan, [marker('1')]);
    client.setQueryData(list, { total: 1, list: [] });
    await client.invalidateQueries({ queryKey: deviceKeys.all });
    expect(client.getQueryState(plan)?.isInvalidated).toBe(true);
    expect(client.getQueryState(list)?.isInvalidated).toBe(true);
  });
});
