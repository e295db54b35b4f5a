import type { EventMessage } from '@lumigrid/protocol';
import { createBatchWriter, type BatchWriterOptions } from '../device-reports/batch-writer.ts';
import type { ActivationRow, ActivationsRepo } from './activations.repo.ts';

/** Whether an up/event is a motion sensor reporting occupied: the one event the heatmap counts. */
export function isActivation(message: EventMessage): boolean {
  return message.type === 'sensor' && message.sensor === 'motion' && message.value === 1;
}

/**
 * The heatmap's ingest path: occupied reports of motion sensors become activation windows, in batches through
 * the shared batch writer (bounded queue, retries, backpressure on the gateway link).
 */
export function createActivationWriter(options: BatchWriterOptions & { repo: Pick<ActivationsRepo, 'record'> }) {
  return createBatchWriter<EventMessage, ActivationRow>(
    {
      noun: 'sensor activation',
      write: (rows) => options.repo.record(rows),
      rowsOf: (mac, message, reportedAt) => (isActivation(message) && 'addr' in message ? [{ mac, addr: message.addr, reportedAt }] : []),
      ts: (message) => message.ts,
    },
    options,
  );
}
export type ActivationWriter = ReturnType<typeof createActivationWriter>;
