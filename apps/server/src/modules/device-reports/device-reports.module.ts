import type { DeviceState } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { poolOf, runsBesideServer, type Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { createDeviceReportsRepo } from './device-reports.repo.ts';
import type { GatewayDirectory } from './gateway-directory.ts';
import { createReportWriter, type ReportWriterOptions } from './report-writer.ts';
import { createTelemetryRepo } from './telemetry.repo.ts';
import { createTelemetryWriter } from './telemetry-writer.ts';
import { createEventWriter, createEventsRepo } from './event-writer.ts';
import { createEnergyRepo, type ClosedEnergyDay } from '../energy/energy.repo.ts';

export type IngestOptions = Pick<ReportWriterOptions, 'maxBatch' | 'maxQueue' | 'retryMs'>;

/**
 * The ingest path from the gateway link: a decoded up/report goes at once to the map topics (`onReport`),
 * then into device_states (current) and, when it changed or its heartbeat is due, device_reports (history) in
 * batches; up/telemetry into
 * device_telemetry (the last sample per device) and the energy history and rollups; sensor and emergency
 * events into device_events. A full queue holds the link back.
 */
export function createDeviceReportsModule(deps: {
  db: Db;
  /** The core tables' owners' subqueries: telemetry, energy and events resolve reports to gateways and devices through them. */
  reads: OwnedReads;
  link: Pick<GatewayLink, 'onUp'>;
  /** Publishes reported devices to the topics of the maps they are placed on (the devices domain). */
  onReport: (mac: string, devices: readonly DeviceState[]) => void;
  /** Tells those topics once the devices' reported states are stored (the devices domain). */
  onStored?: (mac: string, addrs: readonly string[]) => void;
  /** Where reports are written; the database's by default. */
  reports?: ReportWriterOptions['repo'];
  /** Resolves reporting MACs to gateways (told of their changes); without it every write looks them up. */
  gateways?: GatewayDirectory;
  options?: IngestOptions;
  /** Change-only history: how often an unchanged state is still written (report-writer.ts); unset keeps every state. */
  historyHeartbeatMs?: number;
  /** Told the map days the energy rollups closed (webhooks). */
  onEnergyDaysClosed?: (days: ClosedEnergyDay[]) => void;
  logger: FastifyBaseLogger;
}) {
  const { link, logger } = deps;
  const reportWriter = createReportWriter({
    ...deps.options,
    repo: deps.reports ?? createDeviceReportsRepo(deps.db, { gateways: deps.gateways }),
    onStored: deps.onStored && tellStored(deps.onStored),
    historyHeartbeatMs: deps.historyHeartbeatMs,
    // PGlite is this process's alone; on PostgreSQL other server nodes may write the history too.
    historyInProcess: poolOf(deps.db) === undefined,
    // A database beside the server's thread takes larger state writes; under load the history goes first.
    ...(runsBesideServer(deps.db) ? { stateBatch: 2000, statesYieldMs: 1000 } : {}),
    logger,
  });
  const telemetryWriter = createTelemetryWriter({
    ...deps.options,
    repo: createTelemetryRepo(deps.db, deps.reads),
    energy: createEnergyRepo(deps.db, deps.reads),
    onDaysClosed: deps.onEnergyDaysClosed,
    logger,
  });
  const eventWriter = createEventWriter({ ...deps.options, repo: createEventsRepo(deps.db, deps.reads), logger });
  link.onUp((m) => {
    if (m.channel === 'report') {
      deps.onReport(m.mac, m.message.devices);
      return reportWriter.accept(m.mac, m.message);
    }
    if (m.channel === 'telemetry') return telemetryWriter.accept(m.mac, m.message);
    if (m.channel === 'event' && (m.message.type === 'sensor' || m.message.type === 'emergency'))
      return eventWriter.accept(m.mac, m.message);
    return undefined;
  });
  return {
    reportWriter,
    async close() {
      await reportWriter.close();
      await telemetryWriter.close();
      await eventWriter.close();
    },
  };
}

/** Hands the stored rows on gateway by gateway, as addresses. */
function tellStored(onStored: (mac: string, addrs: readonly string[]) => void) {
  return (rows: readonly { mac: string; addr: string }[]) => {
    const byMac = new Map<string, string[]>();
    for (const row of rows) {
      const addrs = byMac.get(row.mac);
      if (addrs) addrs.push(row.addr);
      else byMac.set(row.mac, [row.addr]);
    }
    for (const [mac, addrs] of byMac) onStored(mac, addrs);
  };
}
