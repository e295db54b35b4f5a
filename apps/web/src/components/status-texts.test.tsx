import { act, cleanup, screen, within } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PresenceTag } from '../features/gateways/presence-tag.tsx';
import { renderInApp } from '../test/render.tsx';
import { RoleText } from './role-text.tsx';
import { ValueAge } from './value-age.tsx';
import { ZonedTime } from './zoned-time.tsx';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('ValueAge: how old a reported value is, and when it is stale', () => {
  afterEach(() => vi.useRealTimers());

  const show = async (atMsAgo: number, reportIntervalS: number | null, extra: { markStale?: boolean; lang?: 'en' | 'ja' | 'cn' } = {}) => {
    cleanup();
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] });
    await renderInApp(<ValueAge at={ago(atMsAgo)} reportIntervalS={reportIntervalS} testId="age" markStale={extra.markStale} />, {
      lang: extra.lang,
    });
    return screen.getByTestId('age');
  };

  it.each([
    [45_000, '45 s ago'],
    [3 * 60_000 + 59_000, '3 min ago'],
    [5 * 3_600_000, '5 h ago'],
    [47 * 3_600_000, '47 h ago'],
    [72 * 3_600_000, '3 d ago'],
  ])('says an age of %i ms as "%s"', async (ms, text) => {
    expect((await show(ms, 60)).textContent).toContain(text);
  });

  it('counts a value from the future as just now, not as a negative age', async () => {
    expect((await show(-30_000, 60)).textContent).toContain('0 s ago');
  });

  it('marks a value older than two report intervals stale, and not one at exactly two', async () => {
    await show(120_000, 60);
    expect(screen.queryByTestId('age-stale')).toBeNull();
    await show(120_001, 60);
    expect(screen.getByTestId('age-stale').textContent).toBe('Stale: no report for over two report intervals');
  });

  it('measures staleness by the gateway’s own interval, and by 60 s when it has none', async () => {
    await show(10 * 60_000, 600);
    expect(screen.queryByTestId('age-stale')).toBeNull();
    await show(121_000, null);
    expect(screen.getByTestId('age-stale')).toBeTruthy();
  });

  it('shows the age only when asked not to mark it stale', async () => {
    const age = await show(3_600_000, 60, { markStale: false });
    expect(age.textContent).toBe('1 h ago');
    expect(screen.queryByTestId('age-stale')).toBeNull();
  });

  it('keeps counting while the screen stays open, and turns stale on its own', async () => {
    const age = await show(100_000, 60);
    expect(age.textContent).toContain('1 min ago');
    expect(screen.queryByTestId('age-stale')).toBeNull();
    await act(async () => vi.advanceTimersByTime(30_000));
    expect(age.textContent).toContain('2 min ago');
    expect(screen.getByTestId('age-stale')).toBeTruthy();
  });

  it('speaks the reader’s language', async () => {
    expect((await show(5 * 60_000, 60, { lang: 'ja' })).textContent).toContain('5 分前');
    expect((await show(5 * 60_000, 60, { lang: 'cn' })).textContent).toContain('5 分钟前');
  });
});

describe('ZonedTime: an instant at the clock of each zone', () => {
  function Shown(props: { at: number | string | null; zones: readonly string[] }) {
    const { t } = useTranslation();
    return <ZonedTime t={t} testId="time" {...props} />;
  }

  it('shows the empty mark for no time and for no zone', async () => {
    await renderInApp(<Shown at={null} zones={['Asia/Tokyo']} />);
    expect(screen.getByTestId('time').textContent).toBe('—');
    await renderInApp(<Shown at={NOW} zones={[]} />);
    expect(screen.getAllByTestId('time')[1]!.textContent).toBe('—');
  });

  it('gives one line per zone, each at its own wall clock and named', async () => {
    await renderInApp(<Shown at="2026-11-23T12:00:00Z" zones={['Asia/Tokyo', 'Europe/London']} />);
    const lines = within(screen.getByTestId('time')).getAllByText(/\(.+\)/);
    expect(lines.map((l) => l.textContent)).toEqual(['(Asia/Tokyo)', '(Europe/London)']);
    const text = screen.getByTestId('time').textContent ?? '';
    expect(text).toContain('21:00');
    expect(text).toContain('12:00');
    expect(text.indexOf('21:00')).toBeLessThan(text.indexOf('12:00'));
  });
});

describe('PresenceTag: what a gateway is doing', () => {
  it.each([
    [{ online: true, activity: null, presence: 'known' }, 'Online'],
    [{ online: false, activity: null, presence: 'known' }, 'Offline'],
    [{ online: true, activity: 'restarting', presence: 'known' }, 'Restarting'],
    [{ online: true, activity: 'updating', presence: 'known' }, 'Updating'],
    // Unknown wins: while the broker is lost, neither a restart nor being online can be vouched for.
    [{ online: true, activity: 'updating', presence: 'unknown' }, 'Unknown'],
  ] as const)('shows %o as %s', async (gateway, text) => {
    await renderInApp(<PresenceTag gateway={gateway as never} testId="presence" />);
    expect(screen.getByTestId('presence').textContent).toBe(text);
  });

  it('explains the unknown state on hover', async () => {
    const { user } = await renderInApp(
      <PresenceTag gateway={{ online: true, activity: null, presence: 'unknown' } as never} testId="unknown" />,
    );
    await user.hover(screen.getByTestId('unknown'));
    expect((await screen.findByRole('tooltip')).textContent).toContain('cannot reach its MQTT broker');
  });

  it('speaks Japanese', async () => {
    await renderInApp(<PresenceTag gateway={{ online: false, activity: null, presence: 'known' } as never} testId="presence" />, {
      lang: 'ja',
    });
    expect(screen.getByTestId('presence').textContent).toBe('オフライン');
  });
});

describe('RoleText: the platform role and the authority inside the account', () => {
  it.each([
    [1, 0, ['Platform administrator', 'Owner']],
    [2, 2, ['Account', 'Editable']],
    [3, 3, ['Sub-account', 'Controllable']],
    [3, 4, ['Sub-account', 'View only']],
    // A number the catalogue does not know is shown, not hidden or mistaken for another role.
    [9, 1, ['Unknown (9)', 'Unknown (1)']],
  ])('shows user_auth %i with operate_auth %i as %o', async (userAuth, operateAuth, tags) => {
    const { container } = await renderInApp(<RoleText user={{ user_auth: userAuth, operate_auth: operateAuth }} />);
    expect([...container.querySelectorAll('.ant-tag')].map((tag) => tag.textContent)).toEqual(tags);
  });
});
