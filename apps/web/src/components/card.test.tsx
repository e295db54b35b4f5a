import { cleanup } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Button, Card as AntdCard } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render.tsx';
import { Card } from './card.tsx';

/** The markup of what `ui` draws: tags, classes, styles and content, the way a stylesheet and a journey see it. */
async function markup(ui: ReactElement): Promise<string> {
  const { container } = await renderInApp(ui);
  const html = container.innerHTML;
  cleanup();
  return html;
}

describe("Card: antd's card without its tabs and loading skeleton", () => {
  it.each([
    [
      'a borderless card with a padded body',
      <Card variant="borderless" styles={{ body: { padding: 8 } }}>
        plan
      </Card>,
      <AntdCard variant="borderless" styles={{ body: { padding: 8 } }}>
        plan
      </AntdCard>,
    ],
    [
      'a small card with a title, actions and a test id',
      <Card size="small" style={{ marginTop: 16 }} title="Virtual devices" extra={<Button>Add</Button>} data-testid="virtual-list">
        list
      </Card>,
      <AntdCard size="small" style={{ marginTop: 16 }} title="Virtual devices" extra={<Button>Add</Button>} data-testid="virtual-list">
        list
      </AntdCard>,
    ],
    [
      'a small card with a title only',
      <Card size="small" title="Devices not on a map" styles={{ body: { padding: 0, overflow: 'auto' } }}>
        list
      </Card>,
      <AntdCard size="small" title="Devices not on a map" styles={{ body: { padding: 0, overflow: 'auto' } }}>
        list
      </AntdCard>,
    ],
  ])('draws %s as antd draws it', async (_name, ours, antds) => {
    expect(await markup(ours)).toBe(await markup(antds));
  });
});
