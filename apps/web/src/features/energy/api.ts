import { keepPreviousData } from '@tanstack/react-query';
import type { EnergyRecordBody, EnergyReportBody, EnergyTotalBody } from '@lumigrid/contract/browser';
import { energyEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { downloadFile } from '../../api/download.ts';

/** Energy is counted as readings arrive: charts shown a while are read again. */
const ENERGY_POLL_MS = 60_000;

/** One key factory for the energy screens; a carbon factor change invalidates `all`. */
export const energyKeys = {
  all: ['energy'] as const,
  total: (body: EnergyTotalBody) => [...energyKeys.all, 'total', body] as const,
  records: (body: EnergyRecordBody) => [...energyKeys.all, 'records', body] as const,
};

/** The energy calls of spec section 7 "Energy and reports". */
export const energyApi = {
  total: (body: EnergyTotalBody, signal?: AbortSignal) => call(energyEndpoints.total, { body }, { signal }),
  records: (body: EnergyRecordBody, signal?: AbortSignal) => call(energyEndpoints.records, { body }, { signal }),
  /** Saves the workbook the server writes (headers in the caller's language). */
  report: (body: EnergyReportBody, fallbackName: string) => downloadFile(energyEndpoints.report, { body }, fallbackName),
};

/** A place's energy for a day, month or year; waits for a place (undefined). */
export const useEnergyTotal = (body: EnergyTotalBody | undefined) =>
  useApiQuery(energyKeys.total, energyApi.total, body, { placeholderData: keepPreviousData, refetchInterval: ENERGY_POLL_MS });

/** A page of energy records; waits for a place (undefined). */
export const useEnergyRecords = (body: EnergyRecordBody | undefined) =>
  useApiQuery(energyKeys.records, energyApi.records, body, { placeholderData: keepPreviousData });
