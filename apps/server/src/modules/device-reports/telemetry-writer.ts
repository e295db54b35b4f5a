import type { TelemetryMessage } from '@lumigrid/protocol';
import { createBatchWriter, type BatchWriterOptions } from './batch-writer.ts';
import type { ClosedEnergyDay, EnergyRepo } from '../energy/energy.repo.ts';
import type { TelemetryRepo, TelemetryRow } from './telemetry.repo.ts';

export interface TelemetryWriterOptions extends BatchWriterOptions {
  repo: Pick<TelemetryRepo, 'write'>;
  /** Where energy and power readings go (history and rollups); none keeps only the last sample. */
  energy?: Pick<EnergyRepo, 'record'>;
  /** Told the map days that closed with a batch (webhooks); must not wait on anything. */
  onDaysClosed?: (days: ClosedEnergyDay[]) => void;
}

/**
 * The ingest path of up/telemetry: the last sample per device is upserted (device_telemetry), and the same
 * batch goes to the energy history and rollups, through the shared batch writer (bounded queue, batches,
 * retries, backpressure). A retried batch upserts again harmlessly, and the energy repo skips what it took.
 */
export function createTelemetryWriter(options: TelemetryWriterOptions) {
  return createBatchWriter<TelemetryMessage, TelemetryRow>(
    {
      noun: 'telemetry',
      async write(rows) {
        const result = await options.repo.write(rows);
        const energy = await options.energy?.record(rows);
        if (energy?.closedDays.length) options.onDaysClosed?.(energy.closedDays);
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
