import type {
  WebhookCreateBody,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookUpdateBody,
} from '@lumigrid/contract/browser';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import WebhooksPage from './webhooks-page.tsx';

const fake = vi.hoisted(() => ({
  list: [] as unknown[],
  deliveries: [] as unknown[],
  created: [] as unknown[],
  updated: [] as unknown[],
  deleted: [] as string[],
  tested: [] as string[],
}));

vi.mock('../../features/webhooks/api.ts', () => ({
  useWebhooks: () => ({ data: fake.list, isFetching: false, refetch: async () => undefined }),
  useWebhookDeliveries: (id: string | undefined) => ({
    data: id ? fake.deliveries : undefined,
    isFetching: false,
    refetch: async () => undefined,
  }),
  useCreateWebhook: () => ({
    isPending: false,
    mutateAsync: async (body: WebhookCreateBody): Promise<WebhookEndpointCreated> => {
      fake.created.push(body);
      return { ...endpoint('9', { name: body.name, url: body.url, kinds: body.kinds }), secret: 'whsec_' + 'S'.repeat(43) };
    },
  }),
  useUpdateWebhook: () => ({
    isPending: false,
    mutateAsync: async (body: WebhookUpdateBody) => {
      fake.updated.push(body);
      return endpoint(body.id, body);
    },
  }),
  useDeleteWebhook: () => ({
    mutateAsync: async (id: string) => {
      fake.deleted.push(id);
      return null;
    },
  }),
  useTestWebhook: () => ({
    isPending: false,
    mutateAsync: async (id: string) => {
      fake.tested.push(id);
      return null;
    },
  }),
}));

function endpoint(id: string, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id,
    name: `Hook ${id}`,
    url: `https://tickets.example.com/hook/${id}`,
    kinds: ['alarm.raised'],
    enabled: true,
    keyId: `whk_key${id}`,
    createdAt: '2026-11-23T08:00:00.000Z',
    userId: '7',
    userName: 'Site Owner',
    ...over,
  };
}

function delivery(id: string, over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id,
    eventId: `evt_${id}`,
    kind: 'alarm.raised',
    state: 'succeeded',
    attempts: 1,
    answerCode: 200,
    answerExcerpt: 'ok',
    createdAt: '2026-11-23T08:00:00.000Z',
    lastAttemptAt: '2026-11-23T08:00:00.000Z',
    nextAttemptAt: null,
    ...over,
  };
}

beforeEach(() => {
  fake.list = [];
  fake.deliveries = [];
  fake.created = [];
  fake.updated = [];
  fake.deleted = [];
  fake.tested = [];
});

describe('WebhooksPage', () => {
  it('lists each endpoint with its events and status, and disables the test of a disabled one', async () => {
    fake.list = [endpoint('1'), endpoint('2', { enabled: false, kinds: ['scene.ran', 'gateway.offline'] })];
    await renderInApp(<WebhooksPage />);
    const first = screen.getByTestId('webhook-row-1');
    expect(within(first).getByText('Alarm raised')).toBeTruthy();
    expect(within(first).getByText('whk_key1')).toBeTruthy();
    expect(screen.getByTestId('webhook-status-2').textContent).toBe('Disabled');
    expect(within(screen.getByTestId('webhook-row-2')).getByText('Gateway offline')).toBeTruthy();
    expect((screen.getByTestId('webhook-test-2') as HTMLButtonElement).disabled).toBe(true);
  });

  it('registers an endpoint and shows its secret once, until the dialog closes', async () => {
    const { user } = await renderInApp(<WebhooksPage />);
    await user.click(screen.getByTestId('webhook-create'));
    fireEvent.change(await screen.findByTestId('webhook-name'), { target: { value: 'Ticketing' } });
    fireEvent.change(screen.getByTestId('webhook-url'), { target: { value: 'https://tickets.example.com/in' } });
    await user.click(screen.getByTestId('webhook-submit'));
    const secret = await screen.findByTestId('webhook-secret');
    expect(secret.textContent).toContain('whsec_' + 'S'.repeat(43));
    expect(within(secret).getByRole('button', { name: /copy/i })).toBeTruthy();
    expect(fake.created).toEqual([{ name: 'Ticketing', url: 'https://tickets.example.com/in', kinds: expect.any(Array) as string[] }]);
    expect((fake.created[0] as WebhookCreateBody).kinds).toHaveLength(9);
    await user.click(screen.getByTestId('webhook-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
  });

  it('sends a test event and shows the deliveries with their answers', async () => {
    fake.list = [endpoint('1')];
    fake.deliveries = [
      delivery('5', { kind: 'webhook.test', state: 'pending', attempts: 2, answerCode: 500, answerExcerpt: 'down for maintenance' }),
    ];
    const { user } = await renderInApp(<WebhooksPage />);
    await user.click(screen.getByTestId('webhook-test-1'));
    await waitFor(() => expect(fake.tested).toEqual(['1']));
    const row = await screen.findByTestId('webhook-delivery-5');
    expect(within(row).getByText('Test event')).toBeTruthy();
    expect(within(row).getByText('Retrying')).toBeTruthy();
    expect(within(row).getByText('500')).toBeTruthy();
    expect(within(row).getByText('down for maintenance')).toBeTruthy();
  });

  it('deletes an endpoint after confirmation', async () => {
    fake.list = [endpoint('1')];
    const { user } = await renderInApp(<WebhooksPage />);
    await user.click(screen.getByTestId('webhook-delete-1'));
    expect(fake.deleted).toEqual([]);
    await user.click(await screen.findByTestId('webhook-delete-ok'));
    await waitFor(() => expect(fake.deleted).toEqual(['1']));
  });
});
