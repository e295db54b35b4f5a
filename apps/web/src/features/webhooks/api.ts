import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { webhookEndpoints, type WebhookCreateBody, type WebhookUpdateBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';

/** One key factory for the webhooks; every change invalidates `all`. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

/** The endpoints of the account the caller may see, newest first. */
export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => call(webhookEndpoints.list, {}, { signal }) });
}

/** How often deliveries still pending are read again: the job runner sends within its 5 s poll. */
const PENDING_REFRESH_MS = 5_000;

/** The last deliveries of one endpoint, while `id` is set; read again while one is pending. */
export function useWebhookDeliveries(id: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id ?? ''),
    queryFn: ({ signal }) => call(webhookEndpoints.deliveries, { body: { id: id! } }, { signal }),
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data?.some((d) => d.state === 'pending') ? PENDING_REFRESH_MS : false),
  });
}

/** Registers an endpoint; its answer carries the signing secret, which the page shows once and keeps nowhere. */
export const useCreateWebhook = () =>
  useRefreshingMutation((body: WebhookCreateBody) => call(webhookEndpoints.create, { body }), [webhookKeys.all]);

export const useUpdateWebhook = () =>
  useRefreshingMutation((body: WebhookUpdateBody) => call(webhookEndpoints.update, { body }), [webhookKeys.all]);

export const useDeleteWebhook = () =>
  useRefreshingMutation((id: string) => call(webhookEndpoints.remove, { body: { id } }), [webhookKeys.all]);

/** Queues a test event; the deliveries list shows it once sent. */
export function useTestWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(webhookEndpoints.test, { body: { id } }),
    onSuccess: (_answer, id) => client.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
