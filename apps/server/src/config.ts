import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokerNodes } from '@lumigrid/protocol';
import { ALERT_LIMITS, DEFAULT_COMPANY, SCENE_LIMITS, isCompanyCode, type CompanyCode, type Mode } from '@lumigrid/contract';
import { DEFAULT_KEEPALIVE_S } from './gateway-link/link-client.ts';
import { JOB_DEFAULTS } from './jobs/job-runner.ts';
import { DRAIN_DEFAULTS } from './lifecycle/drain.ts';

/** How long a firmware rollout's step waits before looking at its updates again, by default (an update takes 10-20 minutes). */
export const ROLLOUT_CHECK_MS = 15_000;

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL when set; otherwise PGlite in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Where backup archives are written and looked for (server mode): BACKUP_ROOT, DATA_DIR/backups by default. */
  backupRoot: string;
  /** How long a floor-plan upload waits for a pdf's first page before answering 'rendering'. */
  pdfAnswerWaitMs: number;
  mode: Mode;
  mqttPort: number;
  /** An external broker, or a comma-separated list of a clustered broker's MQTT listeners (MQTT_URL). */
  mqttUrl: string | undefined;
  /**
   * NATS_URL: the broker is a NATS cluster, and the gateways' reports, telemetry and events reach the server nodes
   * through NATS in the queue group MQTT_SHARED_GROUP (docs/operations.md "A NATS cluster as the broker").
   */
  natsUplink: { servers: string[]; credential: { username: string; password: string } | undefined } | undefined;
  /** The shared subscription group of the server nodes at an external broker: each report reaches one node of it. */
  mqttSharedGroup: string;
  /** Keep-alive of the server's MQTT client: a broker gone silent is noticed within 1.5 of it. */
  mqttKeepaliveS: number;
  /** How long a device or gateway is offline before an offline alert is raised (a short reconnect pages nobody). */
  offlineGraceMs: number;
  /** How long a gateway's connection may be gone before it shows offline (a reconnect inside it changes nothing). */
  presenceGraceMs: number;
  /** How long a firmware rollout's step waits before it looks at its updates again (docs/operations.md). */
  rolloutCheckMs: number;
  /** How many days the audit trail keeps its entries; the retention job removes older ones (docs/operations.md). */
  auditRetentionDays: number;
  /**
   * History retention in days (docs/operations.md, "Device history"): reported states (device_reports), raw
   * energy and power samples (energy_readings) and sensor and emergency events (device_events). The hourly and
   * daily energy rollups are kept.
   */
  historyRetentionDays: { reports: number; telemetry: number; events: number };
  /**
   * Change-only history: an unchanged device state still goes into the history this often, so a silent device
   * shows as a gap; 0 keeps every reported state.
   */
  historyHeartbeatMs: number;
  adminAccount: string;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Base of every link in a mail; never taken from a request's Host header. */
  publicUrl: string;
  company: CompanyCode;
  brandingDir: string;
  /** The built web client; served when the folder exists. */
  webDist: string;
  /** The address shown in the menu in server mode. */
  serverIp: string | undefined;
  logLevel: string;
  /** 'pretty': short coloured lines for a person at a terminal; 'json': one JSON object a line, for machines. */
  logFormat: 'pretty' | 'json';
  /** Behind a load balancer: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Fixes every captcha's text. For automated tests only; the server warns at start when it is set. */
  captchaText: string | undefined;
  /** The simulated demo site (src/demo): on by default only for an embedded database and broker. */
  demo: boolean;
  /** Sign-in name of the demo account (an e-mail address, so it works in both modes). */
  demoAccount: string;
  /** The demo account's password; unset means random, printed once when the account is created. */
  demoPassword: string | undefined;
  /** Simulated time of the demo gateways runs this many times faster than the wall clock. */
  demoTimeFactor: number;
  /**
   * How real-time messages reach the STOMP connections: `local` (this process only, the default) or `postgres`
   * (LISTEN/NOTIFY on DATABASE_URL, so several server nodes behind one load balancer all deliver them).
   */
  realtimeBus: 'local' | 'postgres';
  /** Devices and groups per scene per gateway: 10, or 20 for gateways whose firmware holds more (spec section 9). */
  sceneTargetsPerGateway: number;
  /** The BACnet/IP interface for building management systems (BACNET=on, docs/bacnet.md); undefined when off. */
  bacnet: BacnetConfig | undefined;
  /** How long a node that was told to stop keeps serving with /healthz at 503, so the load balancer takes it out. */
  drainGraceMs: number;
  /** How long a claimed job stays this node's without a renewal: a node killed outright loses its jobs after it. */
  jobLeaseMs: number;
  /** How often a node looks for due jobs. */
  jobPollMs: number;
  /** Bearer token of the Prometheus scrape at /metrics (METRICS_TOKEN); undefined: no /metrics at all. */
  metricsToken: string | undefined;
  /** Keys the file that remembers verified gateway passwords across restarts (GATEWAY_VERIFIER_KEY); none: memory only. */
  gatewayVerifierKey: string | undefined;
}

/** BACnet has no users: the interface acts as one account in one project, on one address (docs/operations.md). */
export interface BacnetConfig {
  /** UDP port, 47808 (0xBAC0) by default. */
  port: number;
  /** The one address it listens on (BACNET_INTERFACE); never every interface unless told 0.0.0.0. */
  interface: string;
  /** The BACnet device instance, 0-4194302, unique on the building's internetwork. */
  deviceInstance: number;
  /** Sign-in name of the user whose authority writes carry and whose account the project is in. */
  account: string;
  projectId: bigint;
  /** Reads only: every write is refused with write-access-denied. */
  readOnly: boolean;
  /**
   * One device for the project (default), or one per map of it, each on its own UDP port: the map's slot (kept in
   * bacnet_devices) added to the port and to the device instance (docs/bacnet.md).
   */
  devicePer?: 'project' | 'map';
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  }
  return n;
}

function firstLanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const address of list ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return undefined;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name] || undefined;
  if (raw === undefined) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be on or off, not "${raw}"`);
  return raw === 'on';
}

/** The largest device instance: 4194303 is the wildcard of Who-Is and ReadProperty. */
const BACNET_MAX_INSTANCE = 4_194_302;

function bacnetConfig(env: Env): BacnetConfig | undefined {
  if (!onOff(env, 'BACNET', false)) return undefined;
  const address = env.BACNET_INTERFACE || undefined;
  if (!address || isIP(address) !== 4)
    throw new ConfigError(`BACNET=on needs BACNET_INTERFACE, the IPv4 address to listen on, not "${address ?? ''}"`);
  const account = env.BACNET_ACCOUNT?.trim();
  if (!account) throw new ConfigError('BACNET=on needs BACNET_ACCOUNT, the sign-in name whose authority BACnet writes carry');
  const projectId = env.BACNET_PROJECT ?? '';
  if (!/^[1-9][0-9]{0,18}$/.test(projectId)) throw new ConfigError(`BACNET_PROJECT must be a project id, not "${projectId}"`);
  return {
    port: integer(env, 'BACNET_PORT', 47808, 0, 65535),
    interface: address,
    deviceInstance: integer(env, 'BACNET_DEVICE_INSTANCE', 1, 0, BACNET_MAX_INSTANCE),
    account,
    projectId: BigInt(projectId),
    readOnly: onOff(env, 'BACNET_READ_ONLY', false),
    devicePer: devicePer(env.BACNET_DEVICE_PER),
  };
}

function devicePer(value: string | undefined): 'project' | 'map' {
  const per = value?.trim() || 'project';
  if (per !== 'project' && per !== 'map') throw new ConfigError(`BACNET_DEVICE_PER must be project or map, not "${per}"`);
  return per;
}

/** MQTT_URL: one broker (any address mqtt.js takes), or the MQTT listeners of a clustered broker's nodes, comma-separated. */
function mqttUrlOf(env: Env): string | undefined {
  const url = env.MQTT_URL || undefined;
  if (url === undefined) return undefined;
  try {
    brokerNodes(url);
  } catch (error) {
    throw new ConfigError(
      `MQTT_URL must be one broker address, or mqtt:// and mqtts:// addresses comma-separated: ${(error as Error).message}`,
    );
  }
  return url;
}

/**
 * NATS_URL: the client listeners of the NATS cluster whose MQTT listeners MQTT_URL names, comma-separated
 * (`nats://[user:password@]host:port`); user and password from the first address that has them.
 */
function natsUplink(env: Env, mqttUrl: string | undefined): Config['natsUplink'] {
  const raw = env.NATS_URL || undefined;
  if (raw === undefined) return undefined;
  if (!mqttUrl)
    throw new ConfigError('NATS_URL needs MQTT_URL: the MQTT listeners of the same NATS cluster, where gateways connect and commands go');
  let credential: { username: string; password: string } | undefined;
  const servers = raw
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
    .map((address) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(address);
      } catch {
        parsed = undefined;
      }
      if (!parsed || (parsed.protocol !== 'nats:' && parsed.protocol !== 'tls:') || !parsed.hostname)
        throw new ConfigError(`NATS_URL must be nats://host:port addresses, comma-separated, not "${address}"`);
      if (parsed.username && !credential)
        credential = { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
      return `${parsed.protocol}//${parsed.host}`;
    });
  if (servers.length === 0) throw new ConfigError('NATS_URL must name at least one nats://host:port address');
  return { servers, credential };
}

/** Shorter tokens are guessable by a scraper-shaped brute force; 16 characters is a 128-bit hex or base64 secret. */
const METRICS_TOKEN_MIN = 16;

/** Without it in the data folder, the file of keyed digests there tells a reader nothing (docs/operations.md). */
function gatewayVerifierKey(env: Env): string | undefined {
  const key = env.GATEWAY_VERIFIER_KEY || undefined;
  if (key !== undefined && (key.length < 32 || key.length > 256))
    throw new ConfigError('GATEWAY_VERIFIER_KEY must be 32 to 256 characters (a random secret kept outside DATA_DIR)');
  return key;
}

function metricsToken(env: Env): string | undefined {
  const token = env.METRICS_TOKEN || undefined;
  if (token === undefined) return undefined;
  // It travels in an Authorization header: printable ASCII without spaces, so no proxy mangles it.
  if (token.length < METRICS_TOKEN_MIN || token.length > 256 || !/^[\x21-\x7e]+$/.test(token))
    throw new ConfigError(`METRICS_TOKEN must be ${METRICS_TOKEN_MIN} to 256 printable characters without spaces`);
  return token;
}

/** Reads the whole configuration from the environment; a wrong value is a ConfigError naming it. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const mode = env.MODE ?? 'saas';
  if (mode !== 'saas' && mode !== 'server') throw new ConfigError(`MODE must be saas or server, not "${mode}"`);
  const company = env.COMPANY ?? DEFAULT_COMPANY;
  if (!isCompanyCode(company)) throw new ConfigError(`COMPANY must be lumigrid, lumigrid-jp or lumigrid-cn, not "${company}"`);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, not "${publicUrl}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  const mqttUrl = mqttUrlOf(env);
  const demoSetting = env.DEMO || undefined;
  if (demoSetting !== undefined && demoSetting !== 'on' && demoSetting !== 'off')
    throw new ConfigError(`DEMO must be on or off, not "${demoSetting}"`);
  // A real installation (PostgreSQL or an external broker) gets no demo unless it asks for one.
  const demo = demoSetting === undefined ? !databaseUrl && !mqttUrl : demoSetting === 'on';
  // The demo gateways log in with passwords the server issues; an external broker would not know them.
  if (demo && mqttUrl) throw new ConfigError('DEMO=on needs the embedded MQTT broker: unset MQTT_URL or set DEMO=off');
  const mqttSharedGroup = env.MQTT_SHARED_GROUP || 'lumigrid-server';
  if (!/^[A-Za-z0-9_.-]+$/.test(mqttSharedGroup))
    throw new ConfigError(`MQTT_SHARED_GROUP must be letters, digits, dot, dash or underscore, not "${mqttSharedGroup}"`);
  const realtimeBus = env.REALTIME_BUS || 'local';
  if (realtimeBus !== 'local' && realtimeBus !== 'postgres')
    throw new ConfigError(`REALTIME_BUS must be local or postgres, not "${realtimeBus}"`);
  if (realtimeBus === 'postgres' && !databaseUrl)
    throw new ConfigError('REALTIME_BUS=postgres needs DATABASE_URL (PostgreSQL shared by every node)');
  const logFormat = env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError(`LOG_FORMAT must be pretty or json, not "${logFormat}"`);
  const sceneTargetsPerGateway = integer(env, 'SCENE_TARGETS_PER_GATEWAY', SCENE_LIMITS.targetsPerGateway.default, 1, 100);
  if (
    sceneTargetsPerGateway !== SCENE_LIMITS.targetsPerGateway.default &&
    sceneTargetsPerGateway !== SCENE_LIMITS.targetsPerGateway.extended
  )
    throw new ConfigError(`SCENE_TARGETS_PER_GATEWAY must be 10 or 20, not "${env.SCENE_TARGETS_PER_GATEWAY}"`);
  const demoTimeFactor = Number(env.DEMO_TIME_FACTOR ?? '1');
  if (!Number.isFinite(demoTimeFactor) || demoTimeFactor < 1 || demoTimeFactor > 1000) {
    throw new ConfigError(`DEMO_TIME_FACTOR must be a number from 1 to 1000, not "${env.DEMO_TIME_FACTOR}"`);
  }
  return {
    port,
    bacnet: bacnetConfig(env),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    dataDir: resolve(env.DATA_DIR ?? resolve(REPO_ROOT, 'data')),
    backupRoot: resolve(env.BACKUP_ROOT || resolve(env.DATA_DIR ?? resolve(REPO_ROOT, 'data'), 'backups')),
    pdfAnswerWaitMs: integer(env, 'PDF_ANSWER_WAIT_MS', 2_000, 0, 60_000),
    mode,
    mqttPort: integer(env, 'MQTT_PORT', 1883, 0, 65535),
    mqttUrl,
    natsUplink: natsUplink(env, mqttUrl),
    mqttSharedGroup,
    mqttKeepaliveS: integer(env, 'MQTT_KEEPALIVE_S', DEFAULT_KEEPALIVE_S, 5, 300),
    offlineGraceMs: integer(env, 'OFFLINE_GRACE_S', ALERT_LIMITS.offlineGraceMs / 1000, 1, 3600) * 1000,
    presenceGraceMs: integer(env, 'PRESENCE_GRACE_S', 10, 0, 600) * 1000,
    rolloutCheckMs: integer(env, 'ROLLOUT_CHECK_S', ROLLOUT_CHECK_MS / 1000, 1, 3600) * 1000,
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 1, 36500),
    historyRetentionDays: {
      reports: integer(env, 'REPORT_HISTORY_DAYS', 30, 1, 36500),
      telemetry: integer(env, 'TELEMETRY_HISTORY_DAYS', 90, 1, 36500),
      events: integer(env, 'EVENT_HISTORY_DAYS', 90, 1, 36500),
    },
    historyHeartbeatMs: integer(env, 'HISTORY_HEARTBEAT_MINUTES', 15, 0, 1440) * 60_000,
    adminAccount: env.ADMIN_ACCOUNT || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || 'Lumigrid <no-reply@lumigrid.local>',
    publicUrl,
    company,
    brandingDir: resolve(env.BRANDING_DIR ?? resolve(REPO_ROOT, 'config/branding')),
    webDist: resolve(env.WEB_DIST ?? resolve(REPO_ROOT, 'apps/web/dist')),
    serverIp: mode === 'server' ? env.SERVER_IP || firstLanAddress() : undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat,
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    captchaText: env.CAPTCHA_TEXT || undefined,
    demo,
    demoAccount: env.DEMO_ACCOUNT || 'demo@lumigrid.local',
    demoPassword: env.DEMO_PASSWORD || undefined,
    demoTimeFactor,
    realtimeBus,
    sceneTargetsPerGateway,
    drainGraceMs: integer(env, 'DRAIN_GRACE_MS', DRAIN_DEFAULTS.graceMs, 0, 5_000),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', JOB_DEFAULTS.leaseMs, 1_000, 3_600_000),
    jobPollMs: integer(env, 'JOB_POLL_MS', JOB_DEFAULTS.pollMs, 100, 600_000),
    metricsToken: metricsToken(env),
    gatewayVerifierKey: gatewayVerifierKey(env),
  };
}
