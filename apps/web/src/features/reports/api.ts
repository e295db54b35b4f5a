import type { RecipientAddBody, RecipientEditBody } from '@lumigrid/contract/browser';
import { recipientEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';

/** One key factory for report management; every change invalidates `all` (next send times move). */
export const recipientKeys = {
  all: ['recipients'] as const,
  list: (projectId: string) => [...recipientKeys.all, 'list', projectId] as const,
};

/** The mail recipient calls of spec section 7 "Mail recipients". */
export const recipientApi = {
  list: (projectId: string, signal?: AbortSignal) => call(recipientEndpoints.list, { query: { projectId } }, { signal }),
  add: (body: RecipientAddBody) => call(recipientEndpoints.add, { body }),
  edit: (body: RecipientEditBody) => call(recipientEndpoints.edit, { body }),
  remove: (id: string) => call(recipientEndpoints.remove, { query: { id } }),
  realtimeSwitch: ({ id, on }: { id: string; on: boolean }) =>
    call(recipientEndpoints.realtimeSwitch, { params: { id, on: on ? '1' : '0' } }),
};

/** Sent reports change lastSentAt and nextSendAt while the page is open. */
const RECIPIENTS_POLL_MS = 30_000;

export const useRecipients = (projectId: string | undefined) =>
  useApiQuery(recipientKeys.list, recipientApi.list, projectId || undefined, { refetchInterval: RECIPIENTS_POLL_MS });

const useRecipientChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [recipientKeys.all]);

export const useAddRecipient = () => useRecipientChange(recipientApi.add);
export const useEditRecipient = () => useRecipientChange(recipientApi.edit);
export const useRemoveRecipient = () => useRecipientChange(recipientApi.remove);
export const useRecipientSwitch = () => useRecipientChange(recipientApi.realtimeSwitch);
