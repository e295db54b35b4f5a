import type { EventMessage } from '@lumigrid/protocol';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import { createBatchWriter, type BatchWriterOptions } from './batch-writer.ts';
import { purgeReceivedBefore } from './device-reports.repo.ts';

/** A sensor or emergency event on its way into device_events. */
export interface EventRow {
  mac: string;
  addr: string;
  type: 'sensor' | 'emergency';
  /** The event's own fields but type, ts and addr. */
  data: Record<string, unknown>;
  reportedAt: string;
  receivedAt: string;
}

/**
 * device_events: appended in one statement (rows of a MAC no gateway has are not written and named), purged by age.
 * Gateways are read through their owner's subquery (`reads`: the gateways domain reaches the ingest).
 */
export function createEventsRepo(db: Db, reads: Pick<OwnedReads, 'gateways'>) {
  return {
    /** Removes up to `limit` events received before `before` (retention), answers how many. */
    purgeAnyTenant(q: { before: Date; limit: number }): Promise<number> {
      return purgeReceivedBefore(db, 'device_events', q);
    },

    async write(rows: readonly EventRow[]): Promise<{ written: number; unknownMacs: string[] }> {
      if (rows.length === 0) return { written: 0, unknownMacs: [] };
      const json = JSON.stringify(rows);
      const result = (await db.execute(sql`
        with u as (
          select * from jsonb_to_recordset(${json}::jsonb) as u(
            "mac" text, "addr" text, "type" text, "data" jsonb, "reportedAt" timestamptz, "receivedAt" timestamptz)
        ),
        ins as (
          insert into device_events (gateway_id, tenant_id, addr, type, data, reported_at, received_at)
          select gw.id, gw.tenant_id, u.addr, u.type, u.data, u."reportedAt", u."receivedAt"
          from u join ${reads.gateways()} on gw.mac = u.mac
          returning 1
        )
        select
          (select count(*) from ins)::int as written,
          (select array_agg(distinct u.mac) from u where not exists (select 1 from ${reads.gateways()} where gw.mac = u.mac)) as unknown_macs
      `)) as unknown as { rows: Array<{ written: number; unknown_macs: string[] | null }> };
      const [row] = result.rows;
      return { written: row?.written ?? 0, unknownMacs: row?.unknown_macs ?? [] };
    },
  };
}

/**
 * The ingest path of up/event `sensor` and `emergency`: appended to device_events through the shared batch
 * writer, for the heatmap and the emergency tests. Other events are other domains' (faults, scenes, firmware).
 */
export function createEventWriter(options: BatchWriterOptions & { repo: ReturnType<typeof createEventsRepo> }) {
  return createBatchWriter<EventMessage, EventRow>(
    {
      noun: 'device event',
      write: (rows) => options.repo.write(rows),
      rowsOf: (mac, message, reportedAt, receivedAt) => {
        if (message.type !== 'sensor' && message.type !== 'emergency') return [];
        const { type, ts: _ts, addr, ...data } = message;
        return [{ mac, addr, type, data, reportedAt, receivedAt }];
      },
      ts: (message) => message.ts,
    },
    options,
  );
}
export type EventWriter = ReturnType<typeof createEventWriter>;
