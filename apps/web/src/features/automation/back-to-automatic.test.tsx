import type { ExecuteAutoResult } from '@lumigrid/contract/browser';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import { BackToAutomatic } from './back-to-automatic.tsx';

const fake = vi.hoisted(() => ({ sent: [] as string[][], answer: { released: 0, parts: [] } as unknown }));
vi.mock('./api.ts', () => ({
  useExecuteAuto: () => ({
    isPending: false,
    mutateAsync: async (ids: string[]) => {
      fake.sent.push(ids);
      return fake.answer;
    },
  }),
}));

const answer = (result: ExecuteAutoResult) => (fake.answer = result);
const part = (gatewayName: string, code: number) => ({ gatewayId: '1', gatewayName, code }) as ExecuteAutoResult['parts'][number];

beforeEach(() => {
  fake.sent.length = 0;
});

describe('BackToAutomatic: hands devices switched by hand back to sensors and schedules', () => {
  it('sends the devices and says how many went back', async () => {
    answer({ released: 3, parts: [part('Lobby', 0)] } as ExecuteAutoResult);
    const { user } = await renderInApp(<BackToAutomatic deviceIds={['1', '2', '3']} hint="Hint" canControl />);
    await user.click(screen.getByTestId('back-to-auto'));
    expect(fake.sent).toEqual([['1', '2', '3']]);
    expect(await screen.findByText('3 device(s) back to automatic: sensors and schedules drive them again')).toBeTruthy();
  });

  it('says there was nothing to hand back when no device was manual and every gateway answered', async () => {
    answer({ released: 0, parts: [part('Lobby', 0)] } as ExecuteAutoResult);
    const { user } = await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Hint" canControl />);
    await user.click(screen.getByTestId('back-to-auto'));
    expect(await screen.findByText('Nothing to hand back: no device was switched by hand')).toBeTruthy();
  });

  it('names the offline gateways instead of saying nothing was manual', async () => {
    answer({ released: 0, parts: [part('Lobby', 100101), part('Roof', 100101)] } as ExecuteAutoResult);
    const { user } = await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Hint" canControl />);
    await user.click(screen.getByTestId('back-to-auto'));
    expect(await screen.findByText('Not handed back on Lobby, Roof: the gateway is offline')).toBeTruthy();
    expect(screen.queryByText('Nothing to hand back: no device was switched by hand')).toBeNull();
  });

  it('tells a gateway’s refusal with its name and the code’s words', async () => {
    answer({ released: 1, parts: [part('Lobby', 0), part('Roof', 999999)] } as ExecuteAutoResult);
    const { user } = await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Hint" canControl />);
    await user.click(screen.getByTestId('back-to-auto'));
    expect(await screen.findByText(/^Roof: .*999999/)).toBeTruthy();
    expect(screen.getByText('1 device(s) back to automatic: sensors and schedules drive them again')).toBeTruthy();
  });

  it('shows the hint only, without the button, to someone who may not control', async () => {
    await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Read only" canControl={false} />);
    expect(screen.getByTestId('back-to-auto-hint').textContent).toBe('Read only');
    expect(screen.queryByTestId('back-to-auto')).toBeNull();
  });

  it('disables the button with no devices, or when told to', async () => {
    await renderInApp(<BackToAutomatic deviceIds={[]} hint="Hint" canControl testId="none" />);
    expect(screen.getByTestId('none')).toHaveProperty('disabled', true);
    await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Hint" canControl disabled testId="off" />);
    expect(screen.getByTestId('off')).toHaveProperty('disabled', true);
    await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Hint" canControl testId="on" />);
    expect(screen.getByTestId('on')).toHaveProperty('disabled', false);
  });

  it('marks a known manual override as a warning with the hand', async () => {
    await renderInApp(<BackToAutomatic deviceIds={['1']} hint="By hand" manual canControl testId="manual" />);
    await renderInApp(<BackToAutomatic deviceIds={['1']} hint="Quiet" canControl testId="quiet" />);
    expect(screen.getByTestId('manual-hint').className).toContain('ant-typography-warning');
    expect(screen.getByTestId('manual-hint').querySelector('svg, .anticon')).not.toBeNull();
    expect(screen.getByTestId('quiet-hint').className).toContain('ant-typography-secondary');
    expect(screen.getByTestId('quiet-hint').querySelector('svg, .anticon')).toBeNull();
  });

  it('speaks Japanese', async () => {
    answer({ released: 2, parts: [] } as unknown as ExecuteAutoResult);
    const { user } = await renderInApp(<BackToAutomatic deviceIds={['1', '2']} hint="ヒント" canControl />, { lang: 'ja' });
    expect(screen.getByTestId('back-to-auto').textContent).toContain('自動に戻す');
    await user.click(screen.getByTestId('back-to-auto'));
    expect(await screen.findByText('2 台のデバイスを自動に戻しました。センサーとスケジュールが再び制御します')).toBeTruthy();
  });
});
