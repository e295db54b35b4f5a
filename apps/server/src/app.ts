import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isApiKeyToken, isLang } from '@lumigrid/contract';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { DEMO_FIRMWARE, startDemoSite, type DemoSite } from './demo/demo-site.ts';
import type { GatewayCredentialStore, GatewayVerifierOptions } from './gateway-link/credentials.ts';
import { createGatewayLink, type GatewayLink } from './gateway-link/gateway-link.ts';
import { endpointRoutes } from './http/endpoint-route.ts';
import { OPENAPI_OPTIONS } from './http/openapi.ts';
import type { Authenticate } from './http/guards.ts';
import { registerAnswerCompression, registerWebClient } from './http/web-client.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { registerInputGuard } from './http/input-guard.ts';
import { loggerOptions, registerRequestLog } from './http/log-safety.ts';
import { trackRequestsInFlight } from './http/requests-in-flight.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { serializerCompiler, validatorCompiler } from './http/validator.ts';
import type { DomainModule } from './http/module.ts';
import type { App } from './http/types.ts';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './jobs/job-runner.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { registerRequestContext, requestIdOf } from './lib/request-context.ts';
import { registerMetrics } from './metrics/metrics.ts';
import { createBacnetModule, type BacnetModule } from './bacnet/bacnet.module.ts';
import { createAccess } from './modules/access/access.ts';
import { createAccessRepo } from './modules/access/access.repo.ts';
import { ownedReads } from './owned-reads.ts';
import { createAccountsModule } from './modules/accounts/accounts.module.ts';
import { createAuditModule, type AuditModule } from './modules/audit/audit.module.ts';
import { createApiKeysModule } from './modules/api-keys/api-keys.module.ts';
import type { AuditWriterOptions } from './modules/audit/audit-writer.ts';
import type { AuditSink } from './http/audit-entry.ts';
import { createAuthModule } from './modules/auth/auth.module.ts';
import { createBrandingModule } from './modules/branding/branding.module.ts';
import { createDeviceReportsModule, type IngestOptions } from './modules/device-reports/device-reports.module.ts';
import { createHistoryRetention, type HistoryRetention } from './modules/device-reports/history-retention.ts';
import { gatewaysByMacAnyTenant } from './modules/device-reports/device-reports.repo.ts';
import { createGatewayDirectory } from './modules/device-reports/gateway-directory.ts';
import type { ReportWriter } from './modules/device-reports/report-writer.ts';
import { createTelemetryRepo } from './modules/device-reports/telemetry.repo.ts';
import { createDevicesModule } from './modules/devices/devices.module.ts';
import { createDevicesRepo } from './modules/devices/devices.repo.ts';
import { createPlacementIndex, type PlacementChanges, type PlacementIndex } from './modules/devices/placement-index.ts';
import { createMapDevices } from './modules/devices/map-devices.ts';
import { loadFirmwareCatalogue, type FirmwareCatalogue } from './modules/gateways/firmware-catalogue.ts';
import { createGatewayFleet, type GatewayFleet } from './modules/gateways/gateway-fleet.ts';
import { createGatewaysModule } from './modules/gateways/gateways.module.ts';
import { createGatewaysRepo } from './modules/gateways/gateways.repo.ts';
import type { GatewaysService } from './modules/gateways/gateways.service.ts';
import { createGroupsModule, groupsConfig } from './modules/groups/groups.module.ts';
import { createScenesModule, scenesConfig } from './modules/scenes/scenes.module.ts';
import { createAlertsModule } from './modules/alerts/alerts.module.ts';
import { createAlarmsModule } from './modules/alarms/alarms.module.ts';
import type { AlarmKeeper } from './modules/alarms/alarm-keeper.ts';
import type { AlarmsModule } from './modules/alarms/alarms.module.ts';
import { nodeName, type LeaseOptions } from './lifecycle/lease.ts';
import { createBackupModule } from './modules/backup/backup.module.ts';
import { createEnergyModule } from './modules/energy/energy.module.ts';
import { createLibraryModule } from './modules/library/library.module.ts';
import { createEmergencyModule } from './modules/emergency/emergency.module.ts';
import type { EmergencyRunner } from './modules/emergency/emergency-runner.ts';
import { createPushModule } from './modules/push/push.module.ts';
import { createVirtualModule } from './modules/virtual/virtual.module.ts';
import { createWebhooksModule, type WebhooksModule } from './modules/webhooks/webhooks.module.ts';
import { createHeatmapModule } from './modules/heatmap/heatmap.module.ts';
import type { AlertTracker } from './modules/alerts/alert-tracker.ts';
import { createOutboxModule } from './modules/outbox/outbox.module.ts';
import { createReportsModule } from './modules/reports/reports.module.ts';
import { createPlatformModule } from './modules/platform/platform.module.ts';
import { createMapsRepo } from './modules/projects/maps.repo.ts';
import { createProjectsModule } from './modules/projects/projects.module.ts';
import { createSsoModule } from './modules/sso/sso.module.ts';
import { createSystemModule } from './modules/system/system.module.ts';
import { createUsersModule } from './modules/users/users.module.ts';
import { firmwareNoticePublisher } from './realtime/firmware-notices.ts';
import { wireGatewayStatus } from './realtime/gateway-status.ts';
import { createPgBus } from './realtime/pg-bus.ts';
import { createLocalBus, type RealtimeBus } from './realtime/realtime-bus.ts';
import { createLiveMessageCheck } from './realtime/live-messages.ts';
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
    /** Keep-alive of the server's MQTT client (MQTT_KEEPALIVE_S otherwise); tests shorten it. */
    keepaliveS?: number;
    /** How long after the broker is back a gateway not heard of again stays unknown (default 60 s). */
    presenceSettleMs?: number;
    /** Pacing of the embedded broker's password checks (the benchmark's baseline turns it off). */
    verifier?: GatewayVerifierOptions;
    /** Shared subscription group at an external broker; tests give each run its own. */
    sharedGroup?: string;
    /** Batch and queue sizes of the device report writer (tests, the benchmark). */
    reports?: IngestOptions;
  };
  /** Firmware files gateways may be updated to; DATA_DIR/firmware/manifest.json by default. */
  firmware?: FirmwareCatalogue;
  /** Real-time channel tuning (tests shorten heart-beats and re-checks). */
  realtime?: Partial<RealtimeOptions>;
  /** Told of every real-time message that the contract's live topics refuse (the test harness fails on one). */
  liveMessageProblem?: (problem: string) => void;
  /** Cross-node fan-out for the real-time channel; in process by default. */
  realtimeBus?: RealtimeBus;
  /** How long offline must last before it is an alert (tests shorten it). */
  offlineGraceMs?: number;
  /** How often the alarm engine looks at its delays and shelving; 0 leaves it to the test (alarmKeeper.tick). */
  alarmTickMs?: number;
  /** The alarm engine's lease among server nodes (tests try by hand: alarmOwner.tryNow). */
  alarmLease?: Partial<LeaseOptions>;
  /** How long device changes of a map are gathered into one webhook event (tests shorten it). */
  webhookGatherMs?: number;
  /** Whether this node is stopping (lifecycle/drain.ts): /healthz answers 503 so the load balancer takes it out. */
  draining?: () => boolean;
  /** The durable job runner: `start: false` leaves polling to the test (runDue); the rest tune it. */
  jobs?: Pick<JobRunnerOptions, 'nodeId' | 'leaseMs' | 'pollMs' | 'concurrency'> & { start?: boolean };
  /**
   * The audit trail's writer: batch size, wait and queue; `wrap` puts something between the route layer and the
   * writer (the benchmark measures calls with and without their entries written).
   */
  audit?: AuditWriterOptions & { wrap?: (sink: AuditSink) => AuditSink };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway link when buildApp started one. */
    gatewayLink: GatewayLink | undefined;
    /** The device history's daily retention (tests run it). */
    historyRetention: HistoryRetention;
    /** Writes reported device states into device_states and device_reports, with the gateway link. */
    reportWriter: ReportWriter | undefined;
    /** Which device is on which map, for reports on their way to the map topics. */
    placements: PlacementIndex;
    /** Gateway management as callers use it (configuration versions in tests). */
    gatewayService: GatewaysService;
    /** The link-facing half of gateway management: provisioning, presence, firmware progress. */
    gatewayFleet: GatewayFleet;
    /** STOMP over SockJS at /ws/endpoint-homa: publish to users and destinations. */
    realtime: RealtimeHub;
    /** The simulated demo site (DEMO), when it was started with the gateway link. */
    demo: DemoSite | undefined;
    /** Raises and clears alerts from what gateways say (tests wait for it). */
    alertTracker: AlertTracker;
    /** The alarm engine and what it keeps (tests tick it and wait for it). */
    alarmKeeper: AlarmKeeper;
    /** Whether this node runs the alarm engine (the `alarms` lease), and a try for it now (tests). */
    alarmOwner: AlarmsModule['owner'];
    /** Durable jobs (mailed reports, emergency test plans, rollups), run once across server nodes. */
    jobs: JobRunner;
    /** Emergency test runs (tests wait for it to settle). */
    emergencyRunner: EmergencyRunner;
    /** The audit trail: its writer (tests flush it), its reading and its retention. */
    audit: AuditModule;
    /** The BACnet/IP interface (started with BACNET=on, or by a test). */
    bacnet: BacnetModule;
    /** Webhook endpoints and the events queued for them (tests wait for them). */
    webhooks: WebhooksModule;
  }
}

/** Builds the whole HTTP application on an open database; main.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const app = Fastify({
    // Options given by a caller (tests capturing lines) keep the safe serializers unless they replace them.
    logger:
      options.logger === false
        ? false
        : options.logger === true || options.logger === undefined
          ? loggerOptions(config.logLevel, config.logFormat)
          : { ...loggerOptions(config.logLevel), ...options.logger },
    // One line per request, at debug (below): at info the log keeps what a person starting the server needs.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    // The caller's x-request-id when sane, else a UUID; answered back and carried to gateway commands (lib/request-context.ts).
    genReqId: requestIdOf,
    // A plugin's start includes its first database reads: on a busy machine (a small on-premise box starting
    // beside its database) 10 s, Fastify's default, is not always enough, and a slow start is no broken one.
    pluginTimeout: 60_000,
    // Ids are strings and bodies small; anything bigger than this is refused with 413 before parsing.
    bodyLimit: 1024 * 1024,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler());
  app.setSerializerCompiler(serializerCompiler);

  const webClient = existsSync(join(config.webDist, 'index.html'));
  // Before every route, so that each answer above the threshold is compressed.
  await registerAnswerCompression(app);
  registerErrorHandling(app, { servePages: webClient });
  registerRequestLog(app);
  const requestsInFlight = trackRequestsInFlight(app);
  registerRequestContext(app);
  // Prometheus at /metrics only when METRICS_TOKEN is set (docs/operations.md, Monitoring).
  const metrics = config.metricsToken ? registerMetrics(app, { token: config.metricsToken }) : undefined;
  registerInputGuard(app);

  await app.register(fastifySwagger, OPENAPI_OPTIONS);
  await registerSecurityHeaders(app);
  // The documentation page brings its own policy (with the hashes of its inline scripts) for its own routes.
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const { db } = database;
  const clock = options.clock ?? systemClock;
  const logger = app.log;
  const commandTimeoutMs = options.gatewayLink?.commandTimeoutMs;
  // Several server nodes share real-time messages through PostgreSQL (REALTIME_BUS=postgres, docs/operations.md).
  const realtimeBus =
    options.realtimeBus ??
    (config.realtimeBus === 'postgres' && config.databaseUrl ? await createPgBus({ url: config.databaseUrl, logger }) : createLocalBus());
  // Made first so modules can register their job kinds; polls once the app is ready, when every kind is known.
  const { start: startJobs = true, ...jobOptions } = options.jobs ?? {};
  // This node's name in leases and on the bus.
  const node = jobOptions.nodeId ?? nodeName();
  const jobs = createJobRunner({
    db,
    clock,
    logger,
    nodeId: node,
    ...jobOptions,
    onHandedBack: () => realtimeBus.publish({ kind: 'jobsHandedBack' }),
  });
  if (startJobs) {
    app.addHook('onReady', async () => jobs.start());
    // Jobs a stopping node handed back are taken now by whichever node claims first.
    realtimeBus.subscribe((event) => {
      if (event.kind === 'jobsHandedBack') void jobs.runDue().catch((err: unknown) => logger.warn({ err }, 'handed-back jobs not claimed'));
    });
  }
  // Before the modules close: a running job may still send through them.
  app.addHook('preClose', async () => jobs.close());
  app.decorate('jobs', jobs);

  // The link-facing half of gateway management (credentials, presence, firmware progress, provisioning)
  // comes first: the gateway link checks passwords and keeps firmware updates through it.
  // Reports reach the map topics from memory, before they are written; every placement change is told to it.
  const placements = createPlacementIndex({
    load: (mac) => deviceRows.placedBehind(mac),
    publish: (destination, marker) => realtime.publish(destination, marker),
    onMarker: (mapId, marker) => webhooks.deviceStates.marker(mapId, marker),
    bus: realtimeBus,
    logger,
  });
  // The ingest resolves reporting gateways from memory; what changes a gateway or its devices is told to both.
  const gatewayDirectory = createGatewayDirectory({ lookup: (macs) => gatewaysByMacAnyTenant(db, macs), bus: realtimeBus });
  const placementChanges: PlacementChanges = {
    changed(gatewayIds) {
      gatewayDirectory.forget(gatewayIds);
      placements.changed(gatewayIds);
    },
  };
  const gatewaysRepo = createGatewaysRepo(db, placementChanges);
  const fleet = createGatewayFleet({ repo: gatewaysRepo, logger });
  // Made now, started last, so no report or presence change finds a listener missing.
  const link = options.gatewayLink
    ? createGatewayLink({
        mqttUrl: config.mqttUrl,
        port: options.gatewayLink.port ?? config.mqttPort,
        host: config.host,
        // Gateways provisioned in the gateways table connect with their own password (docs/protocol.md).
        credentials: options.gatewayLink.credentials ?? fleet.credentials,
        firmwareTimeoutMs: options.gatewayLink.firmwareTimeoutMs,
        keepaliveS: options.gatewayLink.keepaliveS ?? config.mqttKeepaliveS,
        presenceSettleMs: options.gatewayLink.presenceSettleMs,
        presenceGraceMs: config.presenceGraceMs,
        // With a key from outside DATA_DIR, verified gateway passwords survive a restart (docs/operations.md).
        verifier: {
          ...(config.gatewayVerifierKey
            ? {
                key: createHash('sha256').update(config.gatewayVerifierKey).digest(),
                file: join(config.dataDir, 'gateway-verified.json'),
              }
            : {}),
          ...options.gatewayLink.verifier,
        },
        // Firmware updates live in the gateways table, so any node can follow and conclude them.
        firmwareStore: fleet.firmwareStore,
        // Several server nodes share one external broker: each report reaches one of them (docs/decisions.md).
        sharedGroup: options.gatewayLink.sharedGroup ?? (config.mqttUrl ? config.mqttSharedGroup : undefined),
        // A NATS cluster has no shared subscriptions: the same group as a NATS queue group (docs/decisions.md).
        natsUplink: config.natsUplink && {
          servers: config.natsUplink.servers,
          credential: config.natsUplink.credential,
          group: options.gatewayLink.sharedGroup ?? config.mqttSharedGroup,
        },
        logger,
      })
    : undefined;

  const deviceRows = createDevicesRepo(db, ownedReads, placementChanges);
  // Which objects a caller may touch: the route layer asks it for the ids each endpoint declares, services for the rest.
  const access = createAccess({ repo: createAccessRepo(db, ownedReads) });
  const projects = createProjectsModule({
    db,
    config,
    devices: createMapDevices(db, ownedReads),
    access,
    reads: ownedReads,
    clock,
    logger,
  });
  const accounts = createAccountsModule({
    db,
    config,
    logger,
    // Every new account starts with its default project, building and map.
    onAccountCreated: (row) => projects.projects.ensureDefaults(row.id, isLang(row.lang) ? row.lang : 'en'),
  });
  const outbox = createOutboxModule({ db, config, logger });
  const auth = createAuthModule({
    db,
    accounts: accounts.service,
    messenger: outbox.messenger,
    config,
    clock,
    scopes: projects.members,
    logger,
    // Made below: single sign-on needs the sessions this module opens.
    passwordSignInOff: (user) => sso.service.passwordSignInOff(user),
  });
  const sso = createSsoModule({ db, accounts: accounts.service, sessions: auth.service, config, clock });
  // Integrators' keys: made by signed-in users, presented as bearer tokens to the calls of the installation.
  const apiKeys = createApiKeysModule({ db, accounts: accounts.service, members: projects.members, clock });
  // Integrators' webhooks: the domains below tell it their events, each delivered as a durable job.
  const webhooks = createWebhooksModule({
    db,
    members: projects.members,
    maps: createMapsRepo(db),
    jobs,
    clock,
    logger,
    publicOnly: config.mode === 'saas',
    deviceGatherMs: options.webhookGatherMs,
  });
  app.decorate('webhooks', webhooks);
  const users = createUsersModule({
    db,
    accounts: accounts.service,
    sessions: auth.service,
    members: projects.members,
    messenger: outbox.messenger,
    config,
    clock,
  });
  const realtime = createRealtimeHub({
    authenticate: auth.service.authenticate,
    logger,
    bus: realtimeBus,
    options: options.realtime,
    ...(options.liveMessageProblem ? { checkMessages: { check: createLiveMessageCheck(), report: options.liveMessageProblem } } : {}),
  });
  // Revoked sessions close their sockets; the browser shows the forced-logout dialog when told to.
  auth.service.onSessionsEnded((ended) =>
    realtime.endSessions({
      userId: String(ended.userId),
      sessionId: ended.sessionId === undefined ? undefined : String(ended.sessionId),
      exceptSessionId: ended.exceptSessionId === undefined ? undefined : String(ended.exceptSessionId),
      code: ended.code,
      notify: ended.notify,
    }),
  );
  const firmwareCatalogue = options.firmware ?? loadFirmwareCatalogue(config.dataDir, config.demo ? DEMO_FIRMWARE : []);
  const gateways = createGatewaysModule({
    repo: gatewaysRepo,
    fleet,
    devices: deviceRows,
    access: projects.access,
    link,
    firmware: firmwareCatalogue,
    // A sync sends the gateway's group table, scenes, schedules, panel keys and holidays.
    configSources: [groupsConfig(db), scenesConfig(db)],
    clock,
    logger,
    commandTimeoutMs,
  });
  const library = createLibraryModule({ db, config });
  const devices = createDevicesModule({
    repo: deviceRows,
    // Each device's library type and remaining life, in the list and detail.
    life: library.service.lifeOf,
    access: projects.access,
    link,
    realtime,
    gateways: gateways.service,
    telemetry: createTelemetryRepo(db, ownedReads),
    commandTimeoutMs,
  });
  const groups = createGroupsModule({
    db,
    devices: deviceRows,
    maps: projects.access,
    access,
    gateways: gateways.service,
    link,
    commandTimeoutMs,
  });
  const scenes = createScenesModule({
    db,
    access: projects.access,
    gateways: gateways.service,
    link,
    clock,
    logger,
    dataDir: config.dataDir,
    targetsPerGateway: config.sceneTargetsPerGateway,
    commandTimeoutMs,
    events: webhooks.service,
  });
  const reports = createReportsModule({
    db,
    clock,
    jobs,
    messenger: outbox.messenger,
    access: projects.access,
    reads: ownedReads,
    logger,
  });
  const alarms = createAlarmsModule({
    db,
    clock,
    jobs,
    messenger: outbox.messenger,
    hub: realtime,
    accounts: accounts.service,
    bus: realtimeBus,
    node,
    logger,
    events: metrics ? metrics.countAlarms(webhooks.service) : webhooks.service,
    tickMs: options.alarmTickMs,
    lease: options.alarmLease,
  });
  app.addHook('onReady', async () => alarms.start());
  const alerts = createAlertsModule({
    db,
    clock,
    hub: realtime,
    accounts: accounts.service,
    access: projects.access,
    objects: access,
    gatewayRows: gatewaysRepo,
    deviceRows,
    devices: devices.service,
    gateways: gateways.service,
    projects: projects.projects,
    link,
    bus: realtimeBus,
    node,
    logger,
    offlineGraceMs: options.offlineGraceMs ?? config.offlineGraceMs,
    onAlertRaised: (alert) => {
      reports.alertRaised(alert);
      alarms.alertRaised(alert);
    },
    onAlertsCleared: alarms.alertsCleared,
  });
  const emergency = createEmergencyModule({
    db,
    clock,
    jobs,
    link,
    access: projects.access,
    accounts: accounts.service,
    realtime,
    // Failed tests raise their alert as a `fault` event would, so the tracker keeps one order per gateway.
    faults: (message) => alerts.tracker.onUp(message),
    onAlertsHandled: (listener) => alerts.service.onHandled(listener),
    bus: realtimeBus,
    logger,
    commandTimeoutMs,
    events: webhooks.service,
  });
  // Every audited call of the endpoint table is recorded through it (http/endpoint-route.ts).
  const { wrap: wrapAudit, ...auditWriter } = options.audit ?? {};
  const audit = createAuditModule({ db, config, clock, jobs, logger, writer: auditWriter, quiet: requestsInFlight.idle });
  app.addHook('onReady', async () => {
    await audit.start();
  });
  // The device history's daily retention runs with or without a gateway link (another node may ingest).
  const historyRetention = createHistoryRetention({ db, reads: ownedReads, config, clock, jobs, logger });
  app.addHook('onReady', async () => {
    await historyRetention.start();
  });
  app.decorate('historyRetention', historyRetention);
  app.decorate('audit', audit);
  const auditSink = wrapAudit ? wrapAudit(audit.sink) : audit.sink;
  // BACnet/IP for building management systems: made always, listening only with BACNET=on (docs/bacnet.md).
  const bacnet = createBacnetModule({
    db,
    access,
    accounts: accounts.service,
    members: projects.members,
    projects: projects.projects,
    devices: devices.service,
    groups: groups.service,
    scenes: scenes.service,
    telemetry: createTelemetryRepo(db, ownedReads),
    audit: auditSink,
    clock,
    logger,
    bus: realtimeBus,
  });
  const bacnetConfig = config.bacnet;
  if (bacnetConfig) app.addHook('onReady', async () => bacnet.start(bacnetConfig));
  app.addHook('preClose', async () => bacnet.close());
  app.decorate('bacnet', bacnet);
  const virtual = createVirtualModule({
    db,
    access: projects.access,
    devices: devices.service,
    groups: groups.service,
    scenes: scenes.service,
    gateways: gateways.service,
  });
  const modules: DomainModule[] = [
    createSystemModule({ db, config, draining: options.draining ?? (() => false) }),
    createBrandingModule({ config, logger }),
    auth,
    accounts,
    users,
    apiKeys,
    webhooks,
    sso,
    outbox,
    projects,
    gateways,
    devices,
    library,
    groups,
    scenes,
    alerts,
    alarms,
    reports,
    emergency,
    createEnergyModule({ db, access: projects.access }),
    createPushModule({ db, config, clock }),
    virtual,
    createBackupModule({
      database,
      config,
      clock,
      logger,
      // A restore replaces every table: sessions end, gateways sync again, cached placements are dropped.
      aftermath: {
        signedInUsers: () => auth.service.signedInUsers(),
        endEverySession: (alsoNotify) => auth.service.endEverySession(alsoNotify),
        gatewayVersions: () => gateways.service.configVersionsAnyTenant(),
        resyncGateways: (previous) => gateways.service.resyncAfterRestore(previous),
        forgetGateways: (ids) => placementChanges.changed(ids),
      },
    }),
    createHeatmapModule({ db, access: projects.access, link, options: options.gatewayLink?.reports, logger }),
    createPlatformModule({ db, clock, jobs, link, firmware: firmwareCatalogue, realtime, logger, rolloutCheckMs: config.rolloutCheckMs }),
    // Last, so that it closes after every other module: what they answered on their way out is still stored.
    audit,
  ];

  // A bearer token is a session's or, with its own prefix, an API key; each has its own lookup.
  const authenticate: Authenticate = (token, call) =>
    isApiKeyToken(token) ? apiKeys.service.authenticate(token, call) : auth.service.authenticate(token);
  const route = endpointRoutes(app, authenticate, access.requireObjects, {
    sink: auditSink,
    now: () => clock.now(),
  });
  for (const module of modules) module.register(route);
  realtime.attach(app.server);
  app.decorate('realtime', realtime);
  app.addHook('preClose', async () => realtime.close());
  if (webClient) await registerWebClient(app, config.webDist);
  else logger.warn({ webDist: config.webDist }, 'web client not built; serving the API only (npm run build -w @lumigrid/web)');
  await accounts.service.ensureAdmin();
  app.addHook('onClose', async () => {
    for (const module of modules) await module.close?.();
  });

  // Presence stored for a bound gateway is told to integrators; an unknown state (the broker lost) is no offline.
  fleet.onStatusChange((mac, change) => {
    if (change.kind !== 'presence' || change.reason === 'unknown') return;
    const online = change.online === true;
    webhooks.service.emit(async () => {
      const place = await fleet.placeOf(mac);
      if (!place) return undefined;
      return {
        kind: online ? 'gateway.online' : 'gateway.offline',
        tenantId: place.tenantId,
        projectId: place.projectId,
        at: clock.now(),
        data: {
          gatewayId: String(place.id),
          mac,
          name: place.name,
          mapId: place.mapId === null ? null : String(place.mapId),
          reason: change.reason ?? null,
        },
      };
    });
  });
  const ingest = link
    ? createDeviceReportsModule({
        db,
        reads: ownedReads,
        link,
        onReport: placements.report,
        onStored: placements.stored,
        gateways: gatewayDirectory,
        onEnergyDaysClosed: (days) => {
          for (const day of days)
            webhooks.service.emit({
              kind: 'energy.dayClosed',
              tenantId: day.tenantId,
              projectId: day.projectId,
              at: clock.now(),
              data: { mapId: String(day.mapId), date: day.localDate, energyWh: day.energyWh, savedWh: day.savedWh, onS: day.onS },
            });
        },
        options: options.gatewayLink?.reports,
        historyHeartbeatMs: config.historyHeartbeatMs || undefined,
        logger,
      })
    : undefined;
  if (link) {
    // Firmware results become type 1 notices to the users of the account the gateway is bound to.
    const publishFirmware = firmwareNoticePublisher({ hub: realtime, audience: (mac) => fleet.audienceOf(mac), logger });
    link.onFirmwareResult((progress) => void publishFirmware(progress));
    // Presence goes into the gateways table: online, last seen, reported fields, running config version.
    link.presence.onChange((p) => fleet.recordPresence(p));
    // A gateway back online running another configuration than the cloud's is sent it (gateway-sync.ts).
    fleet.onPresenceStored((mac, online) => {
      gateways.service
        .presenceStored(mac, online)
        .catch((error: unknown) => logger.error({ err: error, mac }, 'could not check the configuration of a gateway back online'));
    });
    // Presence, sync status and firmware progress go live to the account's users (/topic/gateway_status/{userId}).
    wireGatewayStatus({ hub: realtime, gateways: fleet, link, logger });
    // Gateways online before a restart stay so while they reconnect; those not back within the settle time go offline.
    link.presence.expect(await fleet.onlineGateways());
    await link.start();
    app.addHook('onClose', async () => {
      await link.close();
      await ingest?.close();
      await fleet.settled();
    });
  }
  metrics?.observe({ db, link, reportWriter: ingest?.reportWriter, logger });
  app.decorate('gatewayLink', link);
  app.decorate('reportWriter', ingest?.reportWriter);
  app.decorate('placements', placements);
  app.decorate('alertTracker', alerts.tracker);
  app.decorate('alarmKeeper', alarms.keeper);
  app.decorate('alarmOwner', alarms.owner);
  app.decorate('emergencyRunner', emergency.runner);
  app.decorate('gatewayService', gateways.service);
  app.decorate('gatewayFleet', fleet);

  // The demo site seeds in the background; its failure is logged and the platform runs on (src/demo).
  // Its gateways sign in with passwords provisioned into the gateways table, so it needs the broker that checks them.
  const brokerPort = link?.brokerPort;
  const demo =
    config.demo && link && brokerPort !== undefined && !options.gatewayLink?.credentials
      ? startDemoSite({
          config,
          accounts: accounts.service,
          projects: projects.projects,
          maps: projects.maps,
          gateways: gateways.service,
          devices: devices.service,
          groups: groups.service,
          scenes: scenes.service,
          library: library.service,
          templates: virtual.templates,
          emergency: {
            live: emergency.service,
            record: (recordedClock, gateway, recordedJobs) => emergency.onRecord(recordedClock, gateway, recordedJobs),
          },
          audit: audit.sink,
          clock,
          fleet,
          brokerPort,
          waitOnline: (mac, ms) => link.presence.waitOnline(mac, ms),
          logger,
        })
      : undefined;
  app.decorate('demo', demo);
  // Before the broker closes, so the demo gateways say goodbye instead of leaving their last will.
  if (demo) app.addHook('preClose', async () => demo.stop());
  return app;
}
