import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { renderInApp } from '../../test/render.tsx';
import { usePlacingWalk } from '../../features/devices/use-placing-walk.ts';
import { PlacingWalkBar } from './placing-walk-bar.tsx';

const server = vi.hoisted(() => ({
  waiting: [] as Array<{ id: string; name: string }>,
  identified: [] as string[],
  placed: [] as unknown[],
  unreachable: new Set<string>(),
}));
vi.mock('../../features/gateways/api.ts', () => ({
  useOutmapDevices: () => ({ data: server.waiting, isPending: false }),
}));
vi.mock('../../features/devices/api.ts', () => ({
  useIdentifyDevice: () => ({
    mutate: (id: string, options: { onError: (error: unknown) => void }) => {
      server.identified.push(id);
      if (server.unreachable.has(id)) options.onError(new ApiError({ kind: 'business', code: 100101 }, 'The gateway is offline'));
    },
  }),
  useMoveDevicesIn: () => ({ isPending: false, mutate: (body: unknown) => void server.placed.push(body) }),
}));

/** The walk as the device map runs it, with a button standing in for a tap on the plan at (x, y). */
function Walk({ tapAt }: { tapAt: { x: number; y: number } }) {
  const walk = usePlacingWalk('7', '9');
  return (
    <>
      <button type="button" onClick={() => walk.place(tapAt)}>
        tap the plan
      </button>
      <PlacingWalkBar walk={walk} gatewayName="Ceiling gateway" onEnd={() => undefined} />
    </>
  );
}

beforeEach(() => {
  server.waiting = [
    { id: '1', name: 'Hall light' },
    { id: '2', name: 'Desk light' },
    { id: '3', name: 'Door sensor' },
  ];
  server.identified = [];
  server.placed = [];
  server.unreachable = new Set();
});

describe('the placing walk under the plan', () => {
  it('makes each device blink in turn and places it where the plan is tapped', async () => {
    const { user } = await renderInApp(<Walk tapAt={{ x: 0.25, y: 0.4 }} />);
    await screen.findByText('Device 1 of 3: Hall light is blinking');
    expect(server.identified).toEqual(['1']);

    await user.click(screen.getByRole('button', { name: 'tap the plan' }));
    await screen.findByText('Device 2 of 3: Desk light is blinking');
    expect(server.placed).toEqual([{ mapId: '7', devices: [{ id: '1', x: 0.25, y: 0.4 }] }]);
    expect(server.identified).toEqual(['1', '2']);

    await user.click(screen.getByRole('button', { name: /Blink again/ }));
    expect(server.identified).toEqual(['1', '2', '2']);
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    await screen.findByText('Device 3 of 3: Door sensor is blinking');
    await user.click(screen.getByRole('button', { name: 'tap the plan' }));
    await screen.findByText(/Every device of Ceiling gateway is handled \(3\)/);
    // Skipped, never placed: it waits on no map.
    expect(server.placed.map((body) => (body as { devices: Array<{ id: string }> }).devices[0]!.id)).toEqual(['1', '3']);
    expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
  });

  it('says why a device cannot blink, and lets it be placed all the same', async () => {
    server.unreachable.add('1');
    const { user } = await renderInApp(<Walk tapAt={{ x: 0.5, y: 0.5 }} />);
    await screen.findByText('It could not be made to blink (The gateway is offline); it can still be placed.');
    await user.click(screen.getByRole('button', { name: 'tap the plan' }));
    await screen.findByText('Device 2 of 3: Desk light is blinking');
    await waitFor(() => expect(screen.queryByText(/could not be made to blink/)).toBeNull());
  });
});
