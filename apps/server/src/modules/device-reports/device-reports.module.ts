import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { createDeviceReportsRepo } from './device-reports.repo.ts';
import { createMapPublisher } from './map-publisher.ts';
import { createReportWriter, type ReportWriterOptions } from './report-writer.ts';
import { createTelemetryRepo } from './telemetry.repo.ts';
import { createTelemetryWriter } from './telemetry-writer.ts';

export type IngestOptions = Pick<ReportWriterOptions, 'maxBatch' | 'maxQueue' | 'retryMs'>;

/**
 * The ingest path from the gateway link: up/report into device_states (current) and device_reports
 * (history), up/telemetry into device_telemetry (the last sample per device), and, once a report is
 * written, its placed devices to their maps' topics. A full queue holds the link back.
 */
export function createDeviceReportsModule(deps: {
  db: Db;
  link: Pick<GatewayLink, 'onUp'>;
  /** Publishes reported devices to the topics of the maps they are placed on (the devices domain). */
  publishReported: (mac: string, addrs: string[]) => Promise<void>;
  options?: IngestOptions;
  logger: FastifyBaseLogger;
}) {
  const { link, logger } = deps;
  const reportWriter = createReportWriter({ ...deps.options, repo: createDeviceReportsRepo(deps.db), logger });
  const telemetryWriter = createTelemetryWriter({ ...deps.options, repo: createTelemetryRepo(deps.db), logger });
  const maps = createMapPublisher({ flush: () => reportWriter.flush(), publishReported: deps.publishReported, logger });
  link.onUp((m) => {
    if (m.channel === 'report') {
      const accepted = reportWriter.accept(m.mac, m.message);
      maps.noteReport(
        m.mac,
        m.message.devices.map((d) => d.addr),
      );
      return accepted;
    }
    if (m.channel === 'telemetry') return telemetryWriter.accept(m.mac, m.message);
    return undefined;
  });
  return {
    reportWriter,
    async close() {
      await reportWriter.close();
      await telemetryWriter.close();
    },
  };
}
