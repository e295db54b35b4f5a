import type { AuditEntry } from '@lumigrid/contract/browser';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import { DeviceChangesSection } from './device-changes.tsx';

const fake = vi.hoisted(() => ({ list: [] as unknown[], refetched: 0 }));
vi.mock('./api.ts', () => ({
  useDeviceChanges: () => ({
    data: { list: fake.list },
    isError: false,
    isPending: false,
    refetch: async () => {
      fake.refetched++;
    },
  }),
}));

const entry = (id: string, over: Partial<AuditEntry>): AuditEntry =>
  ({
    id,
    at: '2026-11-23T08:00:00.000Z',
    actor: 'subAccount',
    userId: '7',
    userName: 'Night Guard',
    endpoint: 'devices.control',
    request: { body: { id: '5', action: { op: 'onOff', on: false } } },
    code: 0,
    ...over,
  }) as AuditEntry;

const time = (at: unknown) => `@${String(at)}`;

beforeEach(() => {
  fake.list = [];
  fake.refetched = 0;
});

describe('DeviceChangesSection: who changed the device last', () => {
  it('names who switched it and when, newest first', async () => {
    fake.list = [
      entry('2', { userName: 'Site Owner', actor: 'account', request: { body: { action: { op: 'brightness', percent: 40 } } } }),
      entry('1', {}),
    ];
    await renderInApp(<DeviceChangesSection deviceId="5" status="on" time={time} />);
    expect(screen.getByTestId('device-change-2').textContent).toBe('Dimmed by hand to 40% by Site Owner at @2026-11-23T08:00:00.000Z');
    expect(screen.getByTestId('device-change-1').textContent).toBe('Switched off by hand by Night Guard at @2026-11-23T08:00:00.000Z');
  });

  it('says when nothing is recorded, and asks again when the device reports', async () => {
    const { rerender } = await renderInApp(<DeviceChangesSection deviceId="5" status="on" time={time} />);
    expect(screen.getByTestId('device-changes-empty').textContent).toBe('No changes recorded yet.');
    const before = fake.refetched;
    rerender(<DeviceChangesSection deviceId="5" status="off" time={time} />);
    expect(fake.refetched).toBe(before + 1);
  });
});
