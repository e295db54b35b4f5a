import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  pushEndpoints,
  userEndpoints,
  type PushAppAddBody,
  type PushAppEditBody,
  type PushImagePurpose,
  type PushNewsAddBody,
  type PushNewsEditBody,
  type PushNewsListQuery,
  type PushRejectBody,
  type PushReviewListQuery,
} from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { uploadForm } from '../../api/upload.ts';

/** A page of push apps, searched by name. */
type PushAppsQuery = { page: number; pageSize: number; name?: string };

/** One key factory for push management; every change invalidates `all` (counts and states move together). */
export const pushKeys = {
  all: ['push'] as const,
  apps: (query: PushAppsQuery) => [...pushKeys.all, 'apps', query] as const,
  app: (id: string) => [...pushKeys.all, 'app', id] as const,
  categories: () => [...pushKeys.all, 'categories'] as const,
  newsList: (query: PushNewsListQuery) => [...pushKeys.all, 'news', query] as const,
  news: (id: string) => [...pushKeys.all, 'newsItem', id] as const,
  review: (query: PushReviewListQuery) => [...pushKeys.all, 'review', query] as const,
  reviewItem: (id: string) => [...pushKeys.all, 'reviewItem', id] as const,
  accounts: () => [...pushKeys.all, 'accounts'] as const,
};

/** The push reads; paths and answers are the contract's. */
export const pushApi = {
  apps: (query: PushAppsQuery, signal?: AbortSignal) => call(pushEndpoints.apps, { query }, { signal }),
  app: (id: string, signal?: AbortSignal) => call(pushEndpoints.app, { params: { id } }, { signal }),
  newsList: (query: PushNewsListQuery, signal?: AbortSignal) => call(pushEndpoints.newsList, { query }, { signal }),
  news: (id: string, signal?: AbortSignal) => call(pushEndpoints.news, { params: { id } }, { signal }),
  review: (query: PushReviewListQuery, signal?: AbortSignal) => call(pushEndpoints.reviewList, { query }, { signal }),
  reviewItem: (id: string, signal?: AbortSignal) => call(pushEndpoints.reviewDetail, { params: { id } }, { signal }),
  upload: ({ purpose, file }: { purpose: PushImagePurpose; file: Blob }) =>
    call(pushEndpoints.upload, { body: uploadForm(file, { purpose }) }),
};

export const usePushApps = (query: PushAppsQuery) => useApiQuery(pushKeys.apps, pushApi.apps, query, { placeholderData: keepPreviousData });

/** Every app of the account at once, for the news form's and the list filter's pickers. */
export const useAllPushApps = () => usePushApps({ page: 1, pageSize: 100 });

export const usePushApp = (id: string | undefined) => useApiQuery(pushKeys.app, pushApi.app, id || undefined);

export function usePushCategories() {
  return useQuery({ queryKey: pushKeys.categories(), queryFn: ({ signal }) => call(pushEndpoints.categories, {}, { signal }) });
}

export const usePushNewsList = (query: PushNewsListQuery) =>
  useApiQuery(pushKeys.newsList, pushApi.newsList, query, { placeholderData: keepPreviousData });

export const usePushNews = (id: string | undefined) => useApiQuery(pushKeys.news, pushApi.news, id || undefined);

export const usePushReview = (query: PushReviewListQuery) =>
  useApiQuery(pushKeys.review, pushApi.review, query, { placeholderData: keepPreviousData });

export const usePushReviewItem = (id: string | undefined, enabled: boolean) =>
  useApiQuery(pushKeys.reviewItem, pushApi.reviewItem, enabled ? id || undefined : undefined);

/** The accounts an app may be bound to: the caller's own sub-accounts (the caller itself is added by the page). */
export function useBindableAccounts() {
  return useQuery({ queryKey: pushKeys.accounts(), queryFn: ({ signal }) => call(userEndpoints.subAccounts, {}, { signal }) });
}

const usePushChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [pushKeys.all]);

export const useAddPushApp = () => usePushChange((body: PushAppAddBody) => call(pushEndpoints.addApp, { body }));
export const useEditPushApp = () => usePushChange((body: PushAppEditBody) => call(pushEndpoints.editApp, { body }));
export const useDeletePushApp = () => usePushChange((id: string) => call(pushEndpoints.deleteApp, { body: { id } }));
export const useAddPushCategory = () => usePushChange((name: string) => call(pushEndpoints.addCategory, { body: { name } }));
export const useEditPushCategory = () => usePushChange((body: { id: string; name: string }) => call(pushEndpoints.editCategory, { body }));
export const useDeletePushCategory = () => usePushChange((id: string) => call(pushEndpoints.deleteCategory, { body: { id } }));
export const useAddPushNews = () => usePushChange((body: PushNewsAddBody) => call(pushEndpoints.addNews, { body }));
export const useEditPushNews = () => usePushChange((body: PushNewsEditBody) => call(pushEndpoints.editNews, { body }));
export const useDeletePushNews = () => usePushChange((id: string) => call(pushEndpoints.deleteNews, { body: { id } }));
export const useSubmitPushNews = () => usePushChange((id: string) => call(pushEndpoints.submitNews, { body: { id } }));
export const useWithdrawPushNews = () => usePushChange((id: string) => call(pushEndpoints.withdrawNews, { body: { id } }));
export const usePassPushNews = () => usePushChange((id: string) => call(pushEndpoints.pass, { body: { id } }));
export const useRejectPushNews = () => usePushChange((body: PushRejectBody) => call(pushEndpoints.reject, { body }));
export const usePushUpload = () => useMutation({ mutationFn: pushApi.upload });
