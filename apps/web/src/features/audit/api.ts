import { keepPreviousData } from '@tanstack/react-query';
import { auditEndpoints, type AuditExportBody, type AuditListBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { downloadFile } from '../../api/download.ts';

export const auditKeys = {
  all: ['audit'] as const,
  page: (body: AuditListBody) => [...auditKeys.all, 'page', body] as const,
  device: (deviceId: string) => [...auditKeys.all, 'device', deviceId] as const,
};

export const auditApi = {
  page: (body: AuditListBody, signal?: AbortSignal) => call(auditEndpoints.page, { body }, { signal }),
  device: (deviceId: string, signal?: AbortSignal) => call(auditEndpoints.device, { params: { id: deviceId } }, { signal }),
  export: (body: AuditExportBody, fallbackName: string) => downloadFile(auditEndpoints.export, { body }, fallbackName),
};

/** One page of the audit trail, newest first, for the filters given. */
export const useAuditPage = (body: AuditListBody) =>
  useApiQuery(auditKeys.page, auditApi.page, body, { placeholderData: keepPreviousData });

/**
 * A device's latest changes (its panel). The trail is written just after each answer, so the panel asks again
 * when the device reports (its status changed) and every little while it stays open.
 */
export const useDeviceChanges = (deviceId: string | undefined) =>
  useApiQuery(auditKeys.device, auditApi.device, deviceId || undefined, { refetchInterval: 10_000 });
