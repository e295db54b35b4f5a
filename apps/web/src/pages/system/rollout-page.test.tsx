import type { Rollout } from '@lumigrid/contract/browser';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import RolloutPage from './rollout-page.tsx';

const fake = vi.hoisted(() => ({ rollouts: [] as unknown[], actions: [] as unknown[] }));

vi.mock('../../features/platform/api.ts', () => ({
  platformKeys: { rollouts: () => ['platform', 'rollouts'] },
  useRollouts: () => ({ data: fake.rollouts, isLoading: false, refetch: () => undefined }),
  useRollout: () => ({ data: undefined, isLoading: false }),
  useFirmwareFiles: () => ({ data: [], isLoading: false }),
  usePlatformOverview: () => ({ data: undefined }),
  useStartRollout: () => ({ isPending: false, mutateAsync: async () => undefined }),
  useRolloutAction: () => ({
    mutate: (input: unknown) => fake.actions.push(input),
    mutateAsync: async (input: unknown) => fake.actions.push(input),
  }),
}));

const counts = { pending: 40, updating: 0, succeeded: 8, failed: 2, rollingBack: 0, rolledBack: 0, rollbackFailed: 0 };
const rollout = (id: string, state: Rollout['state'], pauseReason: Rollout['pauseReason'] = null): Rollout => ({
  id,
  target: 'gateway',
  version: '3.3.0',
  state,
  pauseReason,
  selection: {},
  waveSize: 10,
  concurrency: 10,
  failureThresholdPct: 10,
  window: null,
  currentWave: 1,
  waves: 5,
  total: 50,
  counts,
  createdAt: '2026-11-23T08:00:00.000Z',
  finishedAt: null,
});

beforeEach(() => {
  fake.actions = [];
});

describe('RolloutPage', () => {
  it('shows why a rollout paused and how far it got, and resumes it', async () => {
    fake.rollouts = [rollout('7', 'paused', 'threshold')];
    await renderInApp(<RolloutPage />);
    expect(screen.getByTestId('rollout-state-7').getAttribute('data-state')).toBe('paused');
    screen.getByText('Failures passed the threshold');
    within(screen.getByTestId('rollout-progress-7')).getByText(/8 updated · 2 failed · 40 waiting/);
    within(screen.getByTestId('rollout-progress-7')).getByText(/Wave 1 of 5/);
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    fireEvent.click(screen.getByTestId('rollout-resume-7'));
    await waitFor(() => expect(fake.actions).toEqual([{ id: '7', action: 'resume' }]));
  });

  it('offers pause while running and roll back only once paused or done', async () => {
    fake.rollouts = [rollout('8', 'running'), rollout('9', 'done')];
    await renderInApp(<RolloutPage />);
    expect(screen.getAllByRole('button', { name: 'Pause' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Roll back' })).toHaveLength(1);
    expect(screen.queryByTestId('rollout-resume-8')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(fake.actions).toEqual([{ id: '8', action: 'pause' }]));
  });
});
