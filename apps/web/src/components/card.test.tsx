import { Button, Card as AntdCard } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderedMarkup } from '../test/render.tsx';
import { Card } from './card.tsx';

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
    expect(await renderedMarkup(ours)).toBe(await renderedMarkup(antds));
  });
});
