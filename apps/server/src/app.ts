import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { LIMITS, isLang } from '@lumigrid/contract';
import Fastify, { type FastifyServerOptions } from 'fastify';
import svgCaptcha from 'svg-captcha';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { startDemoSite, type DemoSite } from './demo/demo-site.ts';
import type { GatewayCredentialStore } from './gateway-link/credentials.ts';
import { startGatewayLink, type GatewayLink } from './gateway-link/gateway-link.ts';
import { endpointRoutes } from './http/endpoint-route.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import type { App } from './http/types.ts';
import { createAccountsRepo } from './modules/accounts/accounts.repo.ts';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createAuthRepo } from './modules/auth/auth.repo.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createAuthService, type CaptchaMaker } from './modules/auth/auth.service.ts';
import { registerBrandingRoutes } from './modules/branding/branding.routes.ts';
import { createBrandingService } from './modules/branding/branding.service.ts';
import { createDeviceReportsRepo } from './modules/device-reports/device-reports.repo.ts';
import { createDevicesRepo } from './modules/devices/devices.repo.ts';
import { registerDeviceRoutes } from './modules/devices/devices.routes.ts';
import { createDevicesService } from './modules/devices/devices.service.ts';
import { createMapPublisher } from './modules/devices/map-publisher.ts';
import { createReportWriter, type ReportWriter, type ReportWriterOptions } from './modules/device-reports/report-writer.ts';
import { createTelemetryRepo } from './modules/device-reports/telemetry.repo.ts';
import { createTelemetryWriter } from './modules/device-reports/telemetry-writer.ts';
import { createMessenger } from './modules/outbox/messenger.ts';
import { createOutboxRepo } from './modules/outbox/outbox.repo.ts';
import { registerOutboxRoutes } from './modules/outbox/outbox.routes.ts';
import { createOutboxService } from './modules/outbox/outbox.service.ts';
import { loadFirmwareCatalogue, type FirmwareCatalogue } from './modules/gateways/firmware-catalogue.ts';
import { createGatewaysRepo } from './modules/gateways/gateways.repo.ts';
import { registerGatewayRoutes } from './modules/gateways/gateways.routes.ts';
import { createGatewayFleet, type GatewayFleet } from './modules/gateways/gateway-fleet.ts';
import { createGatewaysService, type GatewaysService } from './modules/gateways/gateways.service.ts';
import { createGroupsRepo } from './modules/groups/groups.repo.ts';
import { registerGroupRoutes } from './modules/groups/groups.routes.ts';
import { createGroupsService } from './modules/groups/groups.service.ts';
import { createMapDevices } from './modules/projects/map-devices.ts';
import { createMapImageStore } from './modules/projects/map-image.ts';
import { createMapsRepo } from './modules/projects/maps.repo.ts';
import { createProjectAccess } from './modules/projects/project-access.ts';
import { registerMapRoutes } from './modules/projects/maps.routes.ts';
import { createMapsService } from './modules/projects/maps.service.ts';
import { createProjectsRepo } from './modules/projects/projects.repo.ts';
import { registerProjectRoutes } from './modules/projects/projects.routes.ts';
import { createProjectsService } from './modules/projects/projects.service.ts';
import { registerSystemRoutes } from './modules/system/system.routes.ts';
import { firmwareNoticePublisher } from './realtime/firmware-notices.ts';
import { wireGatewayStatus } from './realtime/gateway-status.ts';
import { createPgBus } from './realtime/pg-bus.ts';
import type { RealtimeBus } from './realtime/realtime-bus.ts';
import { createRealtimeHub, type RealtimeHub, type RealtimeOptions } from './realtime/realtime-hub.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Defaults to the wall clock; tests move time forward. */
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /**
   * Starts the gateway link: the embedded MQTT broker on MQTT_PORT (or a client of MQTT_URL) and the
   * command bus. main.ts passes it; tests that do not talk to gateways leave it out and need no broker.
   */
  gatewayLink?: {
    credentials?: GatewayCredentialStore;
    port?: number;
    firmwareTimeoutMs?: number;
    commandTimeoutMs?: number;
    /** Shared subscription group at an external broker; tests give each run its own. */
    sharedGroup?: string;
    /** Batch and queue sizes of the device report writer (tests, the benchmark). */
    reports?: Pick<ReportWriterOptions, 'maxBatch' | 'maxQueue' | 'retryMs'>;
  };
  /** Firmware files gateways may be updated to; DATA_DIR/firmware/manifest.json by default. */
  firmware?: FirmwareCatalogue;
  /** Real-time channel tuning (tests shorten heart-beats and re-checks). */
  realtime?: Partial<RealtimeOptions>;
  /** Cross-node fan-out for the real-time channel; in process by default. */
  realtimeBus?: RealtimeBus;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway link when buildApp started one. */
    gatewayLink: GatewayLink | undefined;
    /** Writes reported device states into device_states and device_reports, with the gateway link. */
    reportWriter: ReportWriter | undefined;
    /** Gateway management as callers use it (configuration versions in tests). */
    gatewayService: GatewaysService;
    /** The link-facing half of gateway management: provisioning, presence, firmware progress. */
    gatewayFleet: GatewayFleet;
    /** STOMP over SockJS at /ws/endpoint-homa: publish to users and destinations. */
    realtime: RealtimeHub;
    /** The simulated demo site (DEMO), when it was started with the gateway link. */
    demo: DemoSite | undefined;
  }
}

function captchaMaker(fixedText: string | undefined): CaptchaMaker {
  return () => {
    const made = svgCaptcha.create({ size: LIMITS.captcha.length, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f0f5ff' });
    // With CAPTCHA_TEXT set (automated browser tests) the picture still varies but the answer is fixed.
    return { text: fixedText ?? made.text, svg: made.data };
  };
}

/** Builds the whole HTTP application on an open database; main.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    // Ids are strings and bodies small; anything bigger than this is refused with 413 before parsing.
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: 'all' } },
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const webClient = existsSync(join(config.webDist, 'index.html'));
  registerErrorHandling(app, { servePages: webClient });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Lumigrid API', version: LIMITS.version, description: 'See docs/api.md for the envelope, codes and statuses.' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const { db } = database;
  const clock = options.clock ?? systemClock;
  const projectsRepo = createProjectsRepo(db);
  const mapsRepo = createMapsRepo(db);
  // Which projects, buildings and maps a caller may touch: the projects domain answers for every domain.
  const access = createProjectAccess({ mapsRepo, projectsRepo });
  const mapDevices = createMapDevices(db);
  const projects = createProjectsService({ repo: projectsRepo, mapsRepo, devices: mapDevices });
  const maps = createMapsService({
    repo: mapsRepo,
    projectsRepo,
    projects,
    devices: mapDevices,
    store: createMapImageStore(config.dataDir),
    clock,
    logger: app.log,
  });
  // The link-facing half of gateway management: credentials, presence, firmware progress, provisioning.
  const gatewaysRepo = createGatewaysRepo(db);
  const fleet = createGatewayFleet({ repo: gatewaysRepo, clock, logger: app.log });
  // The link starts once every route and service is in place (so no report or presence change finds a
  // listener missing); the services reach it through this holder meanwhile.
  const linkHolder: { link?: GatewayLink } = {};
  const gateways = createGatewaysService({
    repo: gatewaysRepo,
    fleet,
    access,
    link: () => linkHolder.link,
    commandTimeoutMs: options.gatewayLink?.commandTimeoutMs,
    firmware: options.firmware ?? loadFirmwareCatalogue(config.dataDir),
    // A sync sends the group table (and later scenes, schedules, linkage) of the gateway.
    configFor: (q) => groups.configFor(q),
    clock,
    logger: app.log,
  });
  const accounts = createAccountsService({
    repo: createAccountsRepo(db),
    config,
    logger: app.log,
    // Every new account starts with its default project, building and map.
    onAccountCreated: (row) => projects.ensureDefaults(row.id, isLang(row.lang) ? row.lang : 'en'),
  });
  const outboxRepo = createOutboxRepo(db);
  const messenger = createMessenger({ repo: outboxRepo, config, logger: app.log });
  // The hub checks tokens with the auth service's own session lookup; the auth service tells it about ended sessions.
  const realtime = createRealtimeHub({
    authenticate: (token, check) => auth.authenticate(token, check),
    logger: app.log,
    // Several server nodes share real-time messages through PostgreSQL (REALTIME_BUS=postgres, docs/operations.md).
    bus:
      options.realtimeBus ??
      (config.realtimeBus === 'postgres' && config.databaseUrl
        ? await createPgBus({ url: config.databaseUrl, logger: app.log })
        : undefined),
    options: options.realtime,
  });
  const auth = createAuthService({
    repo: createAuthRepo(db),
    accounts,
    messenger,
    makeCaptcha: captchaMaker(config.captchaText),
    clock,
    config,
    onSessionsEnded: (ended) =>
      realtime.endSessions({
        userId: String(ended.userId),
        sessionId: ended.sessionId === undefined ? undefined : String(ended.sessionId),
        exceptSessionId: ended.exceptSessionId === undefined ? undefined : String(ended.exceptSessionId),
        code: ended.code,
        notify: ended.notify,
      }),
  });
  realtime.attach(app.server);
  app.decorate('realtime', realtime);
  app.addHook('preClose', async () => realtime.close());
  const authenticate = auth.authenticate;
  const branding = createBrandingService({
    brandingDir: config.brandingDir,
    webDist: config.webDist,
    company: config.company,
    logger: app.log,
  });

  const route = endpointRoutes(app, authenticate);
  registerSystemRoutes(route, { db, config });
  registerBrandingRoutes(route, { branding });
  registerAuthRoutes(route, { auth });
  registerAccountRoutes(route, { accounts });
  registerOutboxRoutes(route, { outbox: createOutboxService({ repo: outboxRepo }) });
  registerProjectRoutes(route, { projects });
  registerMapRoutes(route, { maps });
  registerGatewayRoutes(route, { gateways });
  const devices = createDevicesService({
    repo: createDevicesRepo(db),
    access,
    link: () => linkHolder.link,
    realtime,
    gateways,
    commandTimeoutMs: options.gatewayLink?.commandTimeoutMs,
    telemetry: createTelemetryRepo(db),
  });
  registerDeviceRoutes(route, { devices });
  const groups = createGroupsService({
    repo: createGroupsRepo(db),
    access,
    gateways,
    link: () => linkHolder.link,
    commandTimeoutMs: options.gatewayLink?.commandTimeoutMs,
  });
  registerGroupRoutes(route, { groups });
  // One topic per map: only users of the map's account may watch it.
  realtime.addDestination({ pattern: '/topic/map/{mapId}', allow: (auth, { mapId }) => devices.canSeeMap(auth, mapId ?? '') });

  if (webClient) await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false });
  else app.log.warn({ webDist: config.webDist }, 'web client not built; serving the API only (npm run build -w @lumigrid/web)');
  await accounts.ensureAdmin();
  app.addHook('onClose', async () => messenger.close());

  if (options.gatewayLink) await fleet.forgetPresence();
  const gatewayLink = options.gatewayLink
    ? await startGatewayLink({
        mqttUrl: config.mqttUrl,
        port: options.gatewayLink.port ?? config.mqttPort,
        host: config.host,
        // Gateways provisioned in the gateways table connect with their own password (docs/protocol.md).
        credentials: options.gatewayLink.credentials ?? fleet.credentials,
        firmwareTimeoutMs: options.gatewayLink.firmwareTimeoutMs,
        // Firmware updates live in the gateways table, so any node can follow and conclude them.
        firmwareStore: fleet.firmwareStore,
        // Several server nodes share one external broker: each report reaches one of them (docs/decisions.md).
        sharedGroup: options.gatewayLink.sharedGroup ?? (config.mqttUrl ? 'lumigrid-server' : undefined),
        logger: app.log,
      })
    : undefined;
  linkHolder.link = gatewayLink;
  // up/report -> device_states (current) and device_reports (history); a full queue holds the link back.
  const reportWriter = gatewayLink
    ? createReportWriter({ ...options.gatewayLink?.reports, repo: createDeviceReportsRepo(db), logger: app.log })
    : undefined;
  app.decorate('gatewayLink', gatewayLink);
  app.decorate('reportWriter', reportWriter);
  app.decorate('gatewayService', gateways);
  app.decorate('gatewayFleet', fleet);
  if (gatewayLink) {
    const link = gatewayLink;
    // Firmware results become type 1 notices to the users of the account the gateway is bound to.
    const publishFirmware = firmwareNoticePublisher({ hub: realtime, audience: (mac) => fleet.audienceOf(mac), logger: app.log });
    link.onFirmwareResult((progress) => void publishFirmware(progress));
    // Presence goes into the gateways table: online, last seen, reported fields, running config version.
    link.presence.onChange((p) => fleet.recordPresence(p));
    // Presence, sync status and firmware progress go live to the account's users (/topic/gateway_status/{userId}).
    wireGatewayStatus({ hub: realtime, gateways: fleet, link, logger: app.log });
    if (reportWriter) link.onUp((m) => (m.channel === 'report' ? reportWriter.accept(m.mac, m.message) : undefined));
    // up/telemetry -> device_telemetry (the last sample per device), batched and held back the same way.
    const telemetryWriter = createTelemetryWriter({ ...options.gatewayLink?.reports, repo: createTelemetryRepo(db), logger: app.log });
    link.onUp((m) => (m.channel === 'telemetry' ? telemetryWriter.accept(m.mac, m.message) : undefined));
    // Once a report is in device_states, its placed devices go to their maps' topics.
    if (reportWriter) {
      const maps = createMapPublisher({ flush: () => reportWriter.flush(), publishReported: devices.publishReported, logger: app.log });
      link.onUp((m) =>
        m.channel === 'report'
          ? maps.noteReport(
              m.mac,
              m.message.devices.map((d) => d.addr),
            )
          : undefined,
      );
    }
    app.addHook('onClose', async () => {
      await link.close();
      await reportWriter?.close();
      await telemetryWriter.close();
      await fleet.settled();
    });
  }
  // The demo site seeds in the background; its failure is logged and the platform runs on (src/demo).
  // Its gateways sign in with passwords provisioned into the gateways table, so it needs the broker that checks them.
  const demo =
    config.demo && gatewayLink?.brokerPort !== undefined && !options.gatewayLink?.credentials
      ? startDemoSite({
          config,
          accounts,
          projects,
          maps,
          gateways,
          fleet,
          brokerPort: gatewayLink.brokerPort,
          waitOnline: (mac, ms) => gatewayLink.presence.waitOnline(mac, ms),
          logger: app.log,
        })
      : undefined;
  app.decorate('demo', demo);
  // Before the broker closes, so the demo gateways say goodbye instead of leaving their last will.
  if (demo) app.addHook('preClose', async () => demo.stop());
  return app;
}
