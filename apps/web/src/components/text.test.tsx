import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Typography } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInApp, renderedMarkup } from '../test/render.tsx';
import { Paragraph, Text, TextLink } from './text.tsx';

describe("Text, Paragraph and TextLink: antd's typography without its editable mode", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['secondary text', <Text type="secondary">3 devices</Text>, <Typography.Text type="secondary">3 devices</Typography.Text>],
    ['bold text', <Text strong>Gateway 1</Text>, <Typography.Text strong>Gateway 1</Typography.Text>],
    [
      'text cut short',
      <Text strong ellipsis>
        Gateway 1
      </Text>,
      <Typography.Text strong ellipsis>
        Gateway 1
      </Typography.Text>,
    ],
    [
      'a paragraph',
      <Paragraph type="secondary" style={{ fontSize: 12 }}>
        Drag a device onto the plan.
      </Paragraph>,
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        Drag a device onto the plan.
      </Typography.Paragraph>,
    ],
    [
      'a link',
      <TextLink onClick={() => undefined}>Details</TextLink>,
      <Typography.Link onClick={() => undefined}>Details</Typography.Link>,
    ],
  ])('draws %s as antd draws it', async (_name, ours, antds) => {
    expect(await renderedMarkup(ours)).toBe(await renderedMarkup(antds));
  });

  it('runs the link’s handler', async () => {
    const onClick = vi.fn();
    await renderInApp(<TextLink onClick={onClick}>Details</TextLink>);
    fireEvent.click(screen.getByText('Details'));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('shows the whole text on hover only when it is cut short', async () => {
    const name = 'Emergency light, stairwell 3';
    // What shows once the tooltip's delay after the pointer came has passed.
    const hover = () => {
      vi.useFakeTimers();
      fireEvent.mouseEnter(screen.getByText(name));
      act(() => {
        vi.advanceTimersByTime(1_000);
      });
      vi.useRealTimers();
      return screen.queryByRole('tooltip')?.textContent ?? null;
    };
    await renderInApp(<Text ellipsis={{ tooltip: name }}>{name}</Text>);
    expect(hover()).toBeNull();
    cleanup();

    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(240);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(120);
    await renderInApp(<Text ellipsis={{ tooltip: name }}>{name}</Text>);
    expect(hover()).toBe(name);
  });
});
