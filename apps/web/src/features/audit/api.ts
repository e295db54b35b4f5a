import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditEndpoints, type AuditExportBody, type AuditListBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { downloadFile } from '../../api/download.ts';

export const auditKeys = {
  all: ['audit'] as const,
  page: (body: AuditListBody) => [...auditKeys.all, 'page', body] as const,
  device: (deviceId: string) => [...auditKeys.all, 'device', deviceId] as const,
};

export const auditApi = {
  export: (body: AuditExportBody, fallbackName: string) => downloadFile(auditEndpoints.export, { body }, fallbackName),
};

/** One page of the audit trail, newest first, for the filters given. */
export function useAuditPage(body: AuditListBody) {
  return useQuery({
    queryKey: auditKeys.page(body),
    queryFn: ({ signal }) => call(auditEndpoints.page, { body }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * A device's latest changes (its panel). The trail is written just after each answer, so the panel asks again
 * when the device reports (its status changed) and every little while it stays open.
 */
export function useDeviceChanges(deviceId: string | undefined) {
  return useQuery({
    queryKey: auditKeys.device(deviceId ?? ''),
    queryFn: ({ signal }) => call(auditEndpoints.device, { params: { id: deviceId ?? '' } }, { signal }),
    enabled: Boolean(deviceId),
    refetchInterval: 10_000,
  });
}
