import { Button } from 'antd';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../test/render.tsx';
import { DangerConfirm } from './danger-confirm.tsx';

describe('DangerConfirm', () => {
  it('asks with a red OK named after the action and Cancel in the page language', async () => {
    const { user } = await renderInApp(
      <DangerConfirm title="削除しますか?" okText="削除" onConfirm={() => undefined}>
        <Button>open</Button>
      </DangerConfirm>,
      { lang: 'ja' },
    );
    await user.click(screen.getByRole('button', { name: 'open' }));
    // antd spaces out a two-character CJK label.
    const ok = await screen.findByRole('button', { name: /^削\s?除$/ });
    expect(ok.className).toContain('ant-btn-dangerous');
    expect(screen.getByRole('button', { name: 'キャンセル' })).toBeTruthy();
  });

  it('runs the action on OK and keeps the OK button props the page gives', async () => {
    const confirm = vi.fn();
    const { user } = await renderInApp(
      <DangerConfirm title="Delete Hall?" okText="Delete" okButtonProps={{ 'aria-describedby': 'hint' }} onConfirm={confirm}>
        <Button>open</Button>
      </DangerConfirm>,
    );
    await user.click(screen.getByRole('button', { name: 'open' }));
    const ok = await screen.findByRole('button', { name: 'Delete' });
    expect(ok.getAttribute('aria-describedby')).toBe('hint');
    expect(ok.className).toContain('ant-btn-dangerous');
    await user.click(ok);
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
  });
});
