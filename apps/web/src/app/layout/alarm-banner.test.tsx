import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlarmSummary } from '@lumigrid/contract/browser';
import { renderInApp } from '../../test/render.tsx';
import { AlarmBanner } from './alarm-banner.tsx';

const summary = vi.hoisted(() => ({ current: undefined as AlarmSummary | undefined }));
vi.mock('../../features/alarms/api.ts', async (actual) => ({
  ...(await actual<typeof import('../../features/alarms/api.ts')>()),
  useAlarmSummary: () => ({ data: summary.current }),
}));

const show = async (value: AlarmSummary | undefined, lang: 'en' | 'ja' = 'en') => {
  cleanup();
  summary.current = value;
  await renderInApp(
    <MemoryRouter>
      <AlarmBanner userId="7" />
    </MemoryRouter>,
    { lang },
  );
};

describe('the alarm banner', () => {
  afterEach(() => cleanup());

  it('counts unacknowledged alarms by severity, most urgent first, as one link to the alarm list', async () => {
    await show({ unacked: { critical: 2, high: 0, medium: 1, low: 0 }, shelved: 4 });
    const banner = screen.getByTestId('alarm-banner');
    expect(banner.getAttribute('href')).toBe('/alert/alarms');
    // Its name is its text, the visible counts included as they are shown.
    expect(banner.textContent).toBe('Unacknowledged alarms: 2 Critical, 1 Medium. Open the alarm list');
    expect(banner.getAttribute('aria-label')).toBeNull();
    expect(screen.getByRole('link', { name: /^Unacknowledged alarms: 2 Critical, 1 Medium\s*\. Open the alarm list$/ })).toBe(banner);
    expect(screen.queryByTestId('alarm-banner-high')).toBeNull();
  });

  it('shows nothing while no alarm waits, shelved ones included', async () => {
    await show({ unacked: { critical: 0, high: 0, medium: 0, low: 0 }, shelved: 4 });
    expect(screen.queryByTestId('alarm-banner')).toBeNull();
    await show(undefined);
    expect(screen.queryByTestId('alarm-banner')).toBeNull();
  });

  it('speaks Japanese', async () => {
    await show({ unacked: { critical: 1, high: 0, medium: 0, low: 0 }, shelved: 0 }, 'ja');
    expect(screen.getByTestId('alarm-banner').textContent).toBe('未確認のアラーム： 緊急 1. アラーム一覧を開く');
  });
});
