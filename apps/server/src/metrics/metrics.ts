import { createHash, timingSafeEqual } from 'node:crypto';
import { ALARM_SEVERITIES } from '@lumigrid/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolOf, type Db } from '../db/client.ts';
import type { GatewayLink } from '../gateway-link/gateway-link.ts';
import { createJobsRepo } from '../jobs/jobs.repo.ts';
import type { ReportWriter } from '../modules/device-reports/report-writer.ts';
import type { WebhookEvents } from '../modules/webhooks/webhooks.service.ts';

/** Where Prometheus scrapes. Outside /api so no API client or tenancy rule ever meets it. */
export const METRICS_PATH = '/metrics';

/** The route label of a request no route matched: raw URLs would give every scanner's path a series. */
const UNMATCHED_ROUTE = 'unmatched';

/** Seconds; from a cached answer (a few ms) to a slow export (tens of seconds). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; a gateway answers in tens of milliseconds on a LAN, a config apply or a radio round-trip takes seconds. */
const COMMAND_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What the metrics read once the app has made them; each is optional because tests build apps without them. */
export interface MetricSources {
  db: Db;
  link: GatewayLink | undefined;
  reportWriter: ReportWriter | undefined;
  logger: FastifyBaseLogger;
}

/**
 * A counter that follows a running total kept elsewhere (the batch writer's and the link's stats): it moves by
 * the difference at each scrape, so the totals stay the one source of truth.
 */
function counterOf(registry: Registry, name: string, help: string, read: () => number | undefined) {
  let last = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = read();
      if (now === undefined) return;
      if (now > last) this.inc(now - last);
      last = now;
    },
  });
}

/** A counter `<prefix>_<field>_total` for each field of a running-total stats object, described by `helps`. */
function statsCounters<Field extends string>(
  registry: Registry,
  prefix: string,
  stats: () => Record<NoInfer<Field>, number> | undefined,
  helps: Record<Field, string>,
) {
  for (const [field, help] of Object.entries(helps) as Array<[Field, string]>) {
    counterOf(registry, `${prefix}_${field}_total`, help, () => stats()?.[field]);
  }
}

/** Compares in constant time, so the answer's timing tells nothing of how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Prometheus metrics of one app (its own registry: tests build several apps in one process). Registers the
 * HTTP hooks and GET /metrics behind `Authorization: Bearer <token>` now; `observe` adds the gateway link,
 * ingest, database and jobs once they exist.
 */
export function registerMetrics(app: FastifyInstance, options: { token: string }) {
  const registry = new Registry();
  // Process metrics, among them the event loop delay (nodejs_eventloop_lag_*), heap and GC.
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'lumigrid_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'lumigrid_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!sameToken(given, options.token)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').type('text/plain').send('unauthorized\n');
    }
    const body = await registry.metrics();
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(body);
  });

  const alarmsRaised = new Counter({
    name: 'lumigrid_alarms_raised_total',
    help: 'Alarms raised, by severity',
    labelNames: ['severity'] as const,
    registers: [registry],
  });
  // Every severity is a series from the start, so a rate() is zero rather than absent before the first alarm.
  for (const severity of ALARM_SEVERITIES) alarmsRaised.inc({ severity }, 0);

  return {
    registry,

    /** Wraps the events the alarm engine tells integrators, counting each alarm raised on its way through. */
    countAlarms(events: WebhookEvents): WebhookEvents {
      return {
        emit(source) {
          if (typeof source === 'object' && source.kind === 'alarm.raised') {
            const severity = source.data.severity;
            alarmsRaised.inc({ severity: ALARM_SEVERITIES.find((s) => s === severity) ?? 'other' });
          }
          events.emit(source);
        },
      };
    },

    /** Adds what the rest of the app keeps: commands, gateways, ingest, database pool and jobs. */
    observe(sources: MetricSources) {
      const { link, reportWriter, logger } = sources;

      const commandDuration = new Histogram({
        name: 'lumigrid_gateway_command_duration_seconds',
        help: 'Time from sending a command to its outcome (reply, timeout or expiry), by command and outcome',
        labelNames: ['command', 'outcome'] as const,
        buckets: COMMAND_BUCKETS,
        registers: [registry],
      });
      link?.bus.onState((change) => {
        if (change.state === 'queued' || change.state === 'sent') return;
        commandDuration.observe({ command: change.name, outcome: change.state }, change.elapsedMs / 1000);
      });

      new Gauge({
        name: 'lumigrid_gateways_online',
        help: 'Gateways this node sees online through its MQTT link',
        registers: [registry],
        collect() {
          this.set(link ? link.presence.list().filter((p) => p.online).length : 0);
        },
      });
      new Gauge({
        name: 'lumigrid_mqtt_broker_connections',
        help: 'Gateway MQTT connections at the embedded broker (absent with an external broker)',
        labelNames: ['broker'] as const,
        registers: [registry],
        collect() {
          const open = link?.gatewayConnections();
          if (open !== undefined) this.set({ broker: 'embedded' }, open);
        },
      });
      new Gauge({
        name: 'lumigrid_mqtt_link_up',
        help: '1 while the server is connected and subscribed to its MQTT broker, 0 otherwise',
        registers: [registry],
        collect() {
          this.set(link?.connected ? 1 : 0);
        },
      });
      statsCounters(registry, 'lumigrid_mqtt_messages', () => link?.stats, {
        received: 'MQTT messages received from gateways',
        dropped: 'MQTT messages from gateways dropped as malformed',
      });
      statsCounters(registry, 'lumigrid_device_reports', () => reportWriter?.stats, {
        accepted: "Device states accepted from gateways' reports into the history writer",
        written: 'Device states written to the history',
        dropped: 'Device states given up on (unknown gateway, refused by the database, or unwritten at shutdown)',
      });
      new Gauge({
        name: 'lumigrid_report_writer_queue_depth',
        help: 'Device states waiting to be written to the history; the link is slowed down when it fills',
        registers: [registry],
        collect() {
          this.set(reportWriter?.queued ?? 0);
        },
      });

      // PGlite has no pool: the series are then absent, not zero.
      const pool = poolOf(sources.db);
      const poolGauge = (name: string, help: string, read: (p: NonNullable<typeof pool>) => number) =>
        new Gauge({
          name,
          help,
          labelNames: ['pool'] as const,
          registers: [registry],
          collect() {
            if (pool) this.set({ pool: 'main' }, read(pool));
          },
        });
      poolGauge('lumigrid_db_pool_connections', 'PostgreSQL connections open in the pool', (p) => p.totalCount);
      poolGauge('lumigrid_db_pool_idle_connections', 'PostgreSQL connections open and idle in the pool', (p) => p.idleCount);
      poolGauge('lumigrid_db_pool_waiting_requests', 'Queries waiting for a PostgreSQL connection from the pool', (p) => p.waitingCount);

      const jobs = createJobsRepo(sources.db);
      new Gauge({
        name: 'lumigrid_jobs',
        help: 'Durable jobs queued or running, across every node (the jobs table)',
        labelNames: ['state'] as const,
        registers: [registry],
        async collect() {
          try {
            const counts = await jobs.countActive();
            this.set({ state: 'queued' }, counts.queued);
            this.set({ state: 'running' }, counts.running);
          } catch (err) {
            // A scrape without job counts beats a failed scrape: the other metrics matter most when the database is ill.
            this.reset();
            logger.warn({ err }, 'job counts not read for the metrics');
          }
        },
      });
    },
  };
}
export type Metrics = ReturnType<typeof registerMetrics>;
