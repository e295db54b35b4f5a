import type { PlatformOverview as Overview } from '@lumigrid/contract/browser';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import { PlatformOverview } from './platform-overview.tsx';

const OVERVIEW: Overview = {
  tenants: [
    {
      id: '2',
      account: 'acme@example.com',
      name: 'Acme',
      enabled: true,
      gatewaysOnline: 4,
      gatewaysOffline: 1,
      devices: 92,
      openAlarms: 3,
      storageBytes: 3 * 1024 * 1024,
    },
    {
      id: '3',
      account: 'idle@example.com',
      name: 'Idle',
      enabled: false,
      gatewaysOnline: 0,
      gatewaysOffline: 0,
      devices: 0,
      openAlarms: 0,
      storageBytes: 0,
    },
  ],
  poolGateways: 2,
  firmware: [
    { target: 'gateway', model: 'LG-GW-200', version: '3.2.1', count: 5 },
    { target: 'gateway', model: '', version: '', count: 2 },
  ],
  databaseBytes: 26 * 1024 * 1024,
};

vi.mock('../../features/platform/api.ts', () => ({ usePlatformOverview: () => ({ data: OVERVIEW, isLoading: false }) }));

describe('PlatformOverview', () => {
  it('adds the fleet up over the tenants and lists each with its gateways, alarms and storage', async () => {
    await renderInApp(
      <MemoryRouter>
        <PlatformOverview />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('home-fleet-online').textContent).toBe('4');
    expect(screen.getByTestId('home-fleet-offline').textContent).toBe('1');
    expect(screen.getByTestId('home-fleet-pool').textContent).toBe('2');
    expect(screen.getByTestId('home-platform-open-alarms').textContent).toBe('3');
    expect(screen.getByTestId('platform-database').textContent).toContain('26 MB');
    const acme = within(screen.getByTestId('platform-tenants-table')).getByText('acme@example.com').closest('tr')!;
    expect([...acme.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'acme@example.com ',
      'Acme',
      '4',
      '1',
      '92',
      '3',
      '3.0 MB',
    ]);
    within(screen.getByTestId('platform-tenants-table')).getByText('Disabled');
    const firmware = within(screen.getByTestId('platform-firmware-table'));
    firmware.getByText('LG-GW-200');
    expect(firmware.getAllByText('Not reported')).toHaveLength(2);
  });
});
