import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { expectRefusedAtStart } from './test/config.fixtures.ts';

describe('configuration from the environment', () => {
  it('has embedded defaults: SaaS, port 8080, PGlite in ./data, admin account "admin"', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      mode: 'saas',
      mqttPort: 1883,
      adminAccount: 'admin',
      company: 'lumigrid',
      publicUrl: 'http://localhost:8080',
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.serverIp).toBeUndefined();
  });

  it('reads every setting', () => {
    const c = loadConfig({
      PORT: '9000',
      MODE: 'server',
      DATABASE_URL: 'postgres://x@y/z',
      MQTT_PORT: '1884',
      MQTT_KEEPALIVE_S: '30',
      ADMIN_ACCOUNT: 'root',
      ADMIN_PASSWORD: 'Pw-123456',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://lights.example.com/',
      COMPANY: 'lumigrid-cn',
      SERVER_IP: '10.0.0.9',
      TRUST_PROXY: 'true',
      REPORT_HISTORY_DAYS: '7',
      TELEMETRY_HISTORY_DAYS: '400',
      EVENT_HISTORY_DAYS: '60',
      HISTORY_HEARTBEAT_MINUTES: '0',
    });
    expect(c).toMatchObject({
      port: 9000,
      mode: 'server',
      databaseUrl: 'postgres://x@y/z',
      mqttPort: 1884,
      mqttKeepaliveS: 30,
      adminAccount: 'root',
      adminPassword: 'Pw-123456',
      smtpUrl: 'smtp://mail:25',
      publicUrl: 'https://lights.example.com',
      company: 'lumigrid-cn',
      serverIp: '10.0.0.9',
      trustProxy: true,
      historyRetentionDays: { reports: 7, telemetry: 400, events: 60 },
      historyHeartbeatMs: 0,
    });
    expect(loadConfig({})).toMatchObject({
      historyRetentionDays: { reports: 30, telemetry: 90, events: 90 },
      historyHeartbeatMs: 15 * 60_000,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ MQTT_PORT: '-1' }, /MQTT_PORT/],
    [{ MQTT_KEEPALIVE_S: '2' }, /MQTT_KEEPALIVE_S/],
    [{ MODE: 'cloud' }, /MODE/],
    [{ COMPANY: 'acme' }, /COMPANY/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL/],
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT/],
    [{ PDF_ANSWER_WAIT_MS: '-5' }, /PDF_ANSWER_WAIT_MS/],
    [{ REPORT_HISTORY_DAYS: '0' }, /REPORT_HISTORY_DAYS/],
    [{ HISTORY_HEARTBEAT_MINUTES: '1441' }, /HISTORY_HEARTBEAT_MINUTES/],
  ])('names the setting that is wrong: %o', (env, message) => {
    expectRefusedAtStart(env, message);
  });
});

describe('the log format', () => {
  it('is json for machines unless a terminal or LOG_FORMAT asks for pretty lines', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({}).logFormat).toBe(process.stdout.isTTY ? 'pretty' : 'json');
  });
});

describe('the real-time bus setting', () => {
  it('is local by default and postgres only with a PostgreSQL database', () => {
    expect(loadConfig({}).realtimeBus).toBe('local');
    expect(loadConfig({ REALTIME_BUS: 'postgres', DATABASE_URL: 'postgres://db/lumigrid' }).realtimeBus).toBe('postgres');
    expect(() => loadConfig({ REALTIME_BUS: 'postgres' })).toThrow('REALTIME_BUS=postgres needs DATABASE_URL');
    expect(() => loadConfig({ REALTIME_BUS: 'redis' })).toThrow('REALTIME_BUS must be local or postgres');
  });
});

describe('the settings of several nodes', () => {
  it('drain for 2 s, lease jobs for 5 minutes, poll every 5 s and share reports in one group by default', () => {
    expect(loadConfig({})).toMatchObject({
      drainGraceMs: 2_000,
      jobLeaseMs: 300_000,
      jobPollMs: 5_000,
      mqttSharedGroup: 'lumigrid-server',
    });
    expect(loadConfig({ DRAIN_GRACE_MS: '0', JOB_LEASE_MS: '3000', JOB_POLL_MS: '250', MQTT_SHARED_GROUP: 'site-2' })).toMatchObject({
      drainGraceMs: 0,
      jobLeaseMs: 3_000,
      jobPollMs: 250,
      mqttSharedGroup: 'site-2',
    });
  });

  it('refuses a grace that leaves the 10 s deadline no room, and a group name MQTT cannot carry', () => {
    expect(() => loadConfig({ DRAIN_GRACE_MS: '9000' })).toThrow('DRAIN_GRACE_MS must be a whole number from 0 to 5000');
    expect(() => loadConfig({ JOB_LEASE_MS: '10' })).toThrow('JOB_LEASE_MS must be a whole number from 1000');
    expect(() => loadConfig({ MQTT_SHARED_GROUP: 'a/b' })).toThrow('MQTT_SHARED_GROUP must be letters');
  });

  it('take a NATS cluster as the broker: its MQTT listeners in MQTT_URL, its client listeners in NATS_URL', () => {
    expect(loadConfig({}).natsUplink).toBeUndefined();
    const config = loadConfig({
      DEMO: 'off',
      MQTT_URL: 'mqtt://lumigrid:pw@n1:1883,mqtt://n2:1883,mqtt://n3:1883',
      NATS_URL: 'nats://n1:4222, nats://lumigrid:s%40cret@n2:4222,tls://n3',
    });
    expect(config.mqttUrl).toBe('mqtt://lumigrid:pw@n1:1883,mqtt://n2:1883,mqtt://n3:1883');
    expect(config.natsUplink).toEqual({
      servers: ['nats://n1:4222', 'nats://n2:4222', 'tls://n3'],
      credential: { username: 'lumigrid', password: 's@cret' },
    });
  });

  it("refuses NATS_URL without the cluster's MQTT listeners, and addresses of another kind", () => {
    expect(() => loadConfig({ NATS_URL: 'nats://n1:4222' })).toThrow('NATS_URL needs MQTT_URL');
    expect(() => loadConfig({ DEMO: 'off', MQTT_URL: 'mqtt://n1', NATS_URL: 'n1:4222' })).toThrow('NATS_URL must be nats://host:port');
    expect(() => loadConfig({ DEMO: 'off', MQTT_URL: 'mqtt://n1', NATS_URL: 'nats://n1,mqtt://n2' })).toThrow('not "mqtt://n2"');
    expect(() => loadConfig({ DEMO: 'off', MQTT_URL: 'mqtt://n1,nats://n2' })).toThrow('MQTT_URL must be one broker address, or mqtt://');
  });
});

describe('the BACnet/IP settings', () => {
  const on = { BACNET: 'on', BACNET_INTERFACE: '192.168.10.5', BACNET_ACCOUNT: 'bms@example.com', BACNET_PROJECT: '42' };

  it('are off unless BACNET=on, and then listen on 47808 of the one address given, writes allowed', () => {
    expect(loadConfig({}).bacnet).toBeUndefined();
    expect(loadConfig({ BACNET: 'off', BACNET_PORT: 'anything' }).bacnet).toBeUndefined();
    expect(loadConfig(on).bacnet).toEqual({
      port: 47808,
      interface: '192.168.10.5',
      deviceInstance: 1,
      account: 'bms@example.com',
      projectId: 42n,
      readOnly: false,
      devicePer: 'project',
    });
    expect(
      loadConfig({ ...on, BACNET_PORT: '47809', BACNET_DEVICE_INSTANCE: '4194302', BACNET_READ_ONLY: 'on', BACNET_DEVICE_PER: 'map' })
        .bacnet,
    ).toMatchObject({
      port: 47809,
      deviceInstance: 4194302,
      readOnly: true,
      devicePer: 'map',
    });
  });

  it.each([
    [{ BACNET: 'yes' }, /BACNET must be on or off/],
    [{ ...on, BACNET_INTERFACE: '' }, /BACNET_INTERFACE/],
    [{ ...on, BACNET_INTERFACE: 'eth0' }, /BACNET_INTERFACE/],
    [{ ...on, BACNET_ACCOUNT: ' ' }, /BACNET_ACCOUNT/],
    [{ ...on, BACNET_PROJECT: 'main' }, /BACNET_PROJECT/],
    [{ ...on, BACNET_DEVICE_INSTANCE: '4194303' }, /BACNET_DEVICE_INSTANCE/],
    [{ ...on, BACNET_PORT: '70000' }, /BACNET_PORT/],
    [{ ...on, BACNET_READ_ONLY: 'true' }, /BACNET_READ_ONLY must be on or off/],
    [{ ...on, BACNET_DEVICE_PER: 'building' }, /BACNET_DEVICE_PER must be project or map/],
  ])('name what is wrong: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('serves /metrics only with a METRICS_TOKEN long enough to be a secret', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 16 to 256 printable characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(ConfigError);
  });
});
