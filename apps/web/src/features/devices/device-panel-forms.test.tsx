import { DEVICE_TYPE_CODES, type DeviceMarker } from '@lumigrid/contract/browser';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import { MoveForm, RenameForm } from './device-panel-forms.tsx';

const calls = vi.hoisted(() => ({ rename: [] as unknown[], moveIn: [] as unknown[], moveOut: [] as unknown[] }));
vi.mock('./api.ts', () => {
  const mutation = (into: unknown[]) => () => ({ isPending: false, mutateAsync: async (body: unknown) => void into.push(body) });
  return { useRenameDevice: mutation(calls.rename), useMoveDevicesIn: mutation(calls.moveIn), useMoveDevicesOut: mutation(calls.moveOut) };
});

const marker = (over: Partial<DeviceMarker>) =>
  ({ id: '501', name: 'Hall light', type: DEVICE_TYPE_CODES['light-single'], x: 0.25, y: 0.75, ...over }) as DeviceMarker;

beforeEach(() => {
  calls.rename.length = 0;
  calls.moveIn.length = 0;
  calls.moveOut.length = 0;
});

describe('RenameForm: a device name, or one per switch channel', () => {
  const save = () => screen.getByRole('button', { name: /Save name/ });

  it('keeps Save disabled until the name changes', async () => {
    const { user } = await renderInApp(<RenameForm marker={marker({})} channels={0} />);
    expect(save()).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Device name'), ' 2');
    expect(save()).toHaveProperty('disabled', false);
  });

  it('refuses an empty name with the rule in words, and saves nothing', async () => {
    const { user } = await renderInApp(<RenameForm marker={marker({})} channels={0} />);
    await user.clear(screen.getByLabelText('Device name'));
    expect(screen.getByText('Each name needs 1 to 25 characters.')).toBeTruthy();
    expect(save()).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Device name'), '   {Enter}');
    expect(calls.rename).toEqual([]);
  });

  it('saves the trimmed name on Enter and says so', async () => {
    const { user } = await renderInApp(<RenameForm marker={marker({})} channels={0} />);
    await user.clear(screen.getByLabelText('Device name'));
    await user.type(screen.getByLabelText('Device name'), '  Lobby light  {Enter}');
    await waitFor(() => expect(calls.rename).toEqual([{ id: '501', name: 'Lobby light' }]));
    expect(await screen.findByText('The name was saved')).toBeTruthy();
  });

  it('names each channel of a switch and joins them with the delimiter', async () => {
    const { user } = await renderInApp(
      <RenameForm marker={marker({ name: 'Left|Middle|Right', type: DEVICE_TYPE_CODES['switch-3'] })} channels={3} />,
    );
    expect(screen.getByLabelText('Channel 1')).toHaveProperty('value', 'Left');
    expect(screen.getByLabelText('Channel 3')).toHaveProperty('value', 'Right');
    await user.clear(screen.getByLabelText('Channel 2'));
    await user.type(screen.getByLabelText('Channel 2'), 'Centre');
    await user.click(save());
    await waitFor(() => expect(calls.rename).toEqual([{ id: '501', name: 'Left|Centre|Right' }]));
  });

  it('refuses a switch with one channel left unnamed', async () => {
    const { user } = await renderInApp(
      <RenameForm marker={marker({ name: 'Left|Right', type: DEVICE_TYPE_CODES['switch-2'] })} channels={2} />,
    );
    await user.clear(screen.getByLabelText('Channel 2'));
    expect(save()).toHaveProperty('disabled', true);
    expect(screen.getByText('Each name needs 1 to 25 characters.')).toBeTruthy();
  });

  it('gives a switch stored under one name that name on every channel', async () => {
    await renderInApp(<RenameForm marker={marker({ name: 'Stairs', type: DEVICE_TYPE_CODES['switch-2'] })} channels={2} />);
    expect(screen.getByLabelText('Channel 1')).toHaveProperty('value', 'Stairs');
    expect(screen.getByLabelText('Channel 2')).toHaveProperty('value', 'Stairs');
    // Joined, the two names differ from the stored one: saving writes both.
    expect(save()).toHaveProperty('disabled', false);
  });

  it('states the rule in the reader’s language', async () => {
    const { user } = await renderInApp(<RenameForm marker={marker({})} channels={0} />, { lang: 'ja' });
    await user.clear(screen.getByLabelText('デバイス名'));
    expect(screen.getByText('各名前は1～25文字で入力してください。')).toBeTruthy();
  });
});

describe('MoveForm: to another map, or off every map', () => {
  it('keeps Move disabled until a target map is chosen', async () => {
    await renderInApp(<MoveForm mapId="300" marker={marker({})} tree={undefined} onGone={() => undefined} />);
    expect(screen.getByRole('button', { name: /^Move$/ })).toHaveProperty('disabled', true);
  });

  it('takes the device off the map only after the confirmation, then lets the panel go', async () => {
    const gone = vi.fn();
    const { user } = await renderInApp(<MoveForm mapId="300" marker={marker({})} tree={undefined} onGone={gone} />);
    await user.click(screen.getByTestId('move-out'));
    expect(calls.moveOut).toEqual([]);
    const confirm = await screen.findAllByRole('button', { name: /Take off the map/ });
    await user.click(confirm.at(-1)!);
    await waitFor(() => expect(calls.moveOut).toEqual([['501']]));
    expect(gone).toHaveBeenCalledTimes(1);
  });
});
