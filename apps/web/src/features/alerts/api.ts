import { keepPreviousData } from '@tanstack/react-query';
import type { AlertDeleteBody, AlertHandleBody, AlertListBody, AlertReportBody } from '@lumigrid/contract/browser';
import { alertEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { downloadFile } from '../../api/download.ts';

/**
 * How often the fault list is read again while shown: a new fault also arrives as a defective notice, but a
 * fault that clears and a gateway that goes offline send none.
 */
export const ALERTS_POLL_MS = 15_000;

/** One key factory for everything under alerts; every change invalidates `all`. */
export const alertKeys = {
  all: ['alerts'] as const,
  page: (body: AlertListBody) => [...alertKeys.all, 'page', body] as const,
};

/** The fault calls of spec section 7 "Status and faults"; paths and answers are the contract's. */
export const alertApi = {
  page: (body: AlertListBody, signal?: AbortSignal) => call(alertEndpoints.page, { body }, { signal }),
  handle: (body: AlertHandleBody) => call(alertEndpoints.handle, { body }),
  remove: (body: AlertDeleteBody) => call(alertEndpoints.remove, { body }),
  /** Saves the fault list as the server writes it (headers in the caller's language). */
  failReport: (body: AlertReportBody, fallbackName: string) => downloadFile(alertEndpoints.failReport, { body }, fallbackName),
};

export const useAlertPage = (body: AlertListBody | undefined) =>
  useApiQuery(alertKeys.page, alertApi.page, body?.projectId ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: ALERTS_POLL_MS,
  });

const useAlertChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [alertKeys.all]);

export const useHandleAlerts = () => useAlertChange(alertApi.handle);
export const useDeleteAlerts = () => useAlertChange(alertApi.remove);
