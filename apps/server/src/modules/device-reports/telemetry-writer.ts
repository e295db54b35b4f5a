import type { TelemetryMessage } from '@lumigrid/protocol';
import { createBatchWriter, type BatchWriterOptions } from './batch-writer.ts';
import type { TelemetryRepo, TelemetryRow } from './telemetry.repo.ts';

export interface TelemetryWriterOptions extends BatchWriterOptions {
  repo: Pick<TelemetryRepo, 'write'>;
}

/**
 * The ingest path of up/telemetry: the last sample per device is upserted (device_telemetry), through the
 * shared batch writer (bounded queue, batches, retries, backpressure).
 */
export function createTelemetryWriter(options: TelemetryWriterOptions) {
  return createBatchWriter<TelemetryMessage, TelemetryRow>(
    {
      noun: 'telemetry',
      async write(rows) {
        const result = await options.repo.write(rows);
        // An older sample than the stored one counts as written: it was taken and lost the race.
        return { written: rows.length - result.unknown, unknownMacs: result.unknownMacs };
      },
      rowsOf: (mac, message, reportedAt, receivedAt) =>
        message.samples.map((s) => ({
          mac,
          addr: s.addr,
          power: s.power ?? null,
          voltage: s.voltage ?? null,
          current: s.current ?? null,
          energyWh: s.energyWh ?? null,
          battery: s.battery ?? null,
          temperature: s.temperature ?? null,
          lux: s.lux ?? null,
          reportedAt,
          receivedAt,
        })),
      ts: (message) => message.ts,
    },
    options,
  );
}
export type TelemetryWriter = ReturnType<typeof createTelemetryWriter>;
