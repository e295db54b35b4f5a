import type { Device } from '@lumigrid/contract/browser';
import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import { remainingLifeColumn } from './life-column.tsx';

/** The column's cell for one row, as the status table renders it. */
function Cell({ row }: { row: Partial<Device> }) {
  const { t } = useTranslation();
  const column = remainingLifeColumn(t, '—');
  const render = column.render as (dom: ReactNode, entity: Device) => ReactNode;
  return <>{render(null, { id: '7', libraryTypeName: 'Downlight 12 W', usedHours: null, remainingLifeHours: null, ...row } as Device)}</>;
}

const bar = () => screen.getByTestId('remaining-life-7').querySelector('.ant-progress')!;

describe('the remaining-life column of the device status view', () => {
  it('shows the empty mark for a device no library type covers', async () => {
    await renderInApp(<Cell row={{ remainingLifeHours: null }} />);
    expect(screen.queryByTestId('remaining-life-7')).toBeNull();
    expect(screen.getByText('—')).toBeTruthy();
  });

  it('shows the hours left and the share of the lifespan as a bar', async () => {
    await renderInApp(<Cell row={{ remainingLifeHours: 30_000, usedHours: 20_000 }} />);
    expect(screen.getByTestId('remaining-life-7').textContent).toContain('30,000 h');
    expect(bar().getAttribute('aria-valuenow')).toBe('60');
    expect(bar().className).not.toContain('ant-progress-status-exception');
  });

  it('marks a luminaire with less than a tenth of its life left', async () => {
    await renderInApp(<Cell row={{ remainingLifeHours: 4_999, usedHours: 45_001 }} />);
    expect(bar().className).toContain('ant-progress-status-exception');
  });

  it('does not mark one with exactly a tenth left', async () => {
    await renderInApp(<Cell row={{ remainingLifeHours: 5_000, usedHours: 45_000 }} />);
    expect(bar().className).not.toContain('ant-progress-status-exception');
  });

  it('counts a device never burnt as a full bar', async () => {
    await renderInApp(<Cell row={{ remainingLifeHours: 50_000, usedHours: null }} />);
    expect(bar().getAttribute('aria-valuenow')).toBe('100');
  });

  it('counts a spent luminaire (no life left) as an empty, marked bar', async () => {
    await renderInApp(<Cell row={{ remainingLifeHours: 0, usedHours: 0 }} />);
    expect(bar().getAttribute('aria-valuenow')).toBe('0');
    expect(bar().className).toContain('ant-progress-status-exception');
  });

  it('explains the figures on hover: the type, the hours burnt and the lifespan', async () => {
    const { user } = await renderInApp(<Cell row={{ remainingLifeHours: 30_000, usedHours: 20_000 }} />);
    await user.hover(screen.getByTestId('remaining-life-7'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Downlight 12 W: 20,000 h burnt of 50,000 h');
  });
});
