import type { ReportMessage } from '@lumigrid/protocol';
import { createBatchWriter, type BatchWriterOptions } from './batch-writer.ts';
import type { DeviceReportsRepo, ReportRow } from './device-reports.repo.ts';

export interface ReportWriterOptions extends BatchWriterOptions {
  repo: Pick<DeviceReportsRepo, 'write'>;
}

/**
 * The ingest path of up/report: each device's state is appended to the history and upserts the current
 * state (device_states), through the shared batch writer (bounded queue, batches, retries, backpressure).
 */
export function createReportWriter(options: ReportWriterOptions) {
  return createBatchWriter<ReportMessage, ReportRow>(
    {
      noun: 'device report',
      async write(rows) {
        const result = await options.repo.write(rows);
        return { written: result.reports, unknownMacs: result.unknownMacs };
      },
      rowsOf: (mac, report, reportedAt, receivedAt) =>
        report.devices.map((d) => ({
          mac,
          addr: d.addr,
          kind: d.kind,
          online: d.online,
          fault: d.fault,
          state: d,
          reportedAt,
          receivedAt,
        })),
      ts: (report) => report.ts,
      size: (report) => report.devices.length,
    },
    options,
  );
}
export type ReportWriter = ReturnType<typeof createReportWriter>;
