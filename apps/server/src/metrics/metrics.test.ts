import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deviceEndpoints, systemEndpoints, type GatewayDevice } from '@lumigrid/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, api, call, signUpByMail, startApp, type Harness } from '../test/harness.ts';
import { buildGatewayWithDevices, startGatewayRig, type GatewayRig } from '../test/gateways.fixtures.ts';
import type { LogLine } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';
import { exportedNames, parseExposition, sampleSum, scrape, type Exposition } from '../test/prometheus.ts';

const TOKEN = 'scrape-token-for-the-metrics-suite';
const DASHBOARD = resolve(import.meta.dirname, '../../../../ops/grafana/lumigrid-dashboard.json');
const INFO_ROUTE = systemEndpoints.info.path;
/** A battery fault raises a critical alarm at once (DEFAULT_ALARM_SETTINGS). */
const BATTERY = 6;

type Dashboard = {
  panels: Array<{ targets?: Array<{ expr: string }> }>;
  templating: { list: Array<{ query: { query: string } | string }> };
};

/** Every series name the dashboard's queries and variables read. */
function dashboardMetricNames(): Set<string> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
  const queries = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...dashboard.templating.list.map((v) => (typeof v.query === 'string' ? v.query : v.query.query)),
  ];
  return new Set(queries.flatMap((q) => [...q.matchAll(/\b(?:lumigrid|nodejs|process)_[a-zA-Z0-9_]+/g)].map((m) => m[0])));
}

describe('the server without METRICS_TOKEN', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('has no /metrics at all: 404 with or without a token', async () => {
    h = await startApp('pglite');
    expect((await call(h.app, 'GET', '/metrics', { outsideTable: true })).status).toBe(404);
    expect((await call(h.app, 'GET', '/metrics', { outsideTable: true, token: TOKEN })).status).toBe(404);
  });
});

describe('request ids', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it("takes a sane x-request-id and answers it back; anything else gets an id of the server's making", async () => {
    h = await startApp('pglite');
    const given = await call(h.app, 'GET', INFO_ROUTE, { headers: { 'x-request-id': 'lb-7f3a.2:1_x' } });
    expect(given.headers['x-request-id']).toBe('lb-7f3a.2:1_x');
    for (const insane of ['a'.repeat(65), 'two words', 'line\\nbreak', '<script>', '']) {
      const res = await call(h.app, 'GET', INFO_ROUTE, { headers: { 'x-request-id': insane } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const none = await call(h.app, 'GET', INFO_ROUTE);
    const again = await call(h.app, 'GET', INFO_ROUTE);
    expect(none.headers['x-request-id']).not.toBe(again.headers['x-request-id']);
  });
});

describe.each(DATABASES)('Prometheus metrics of a server with a simulated gateway on %s', (kind) => {
  let rig: GatewayRig;
  let token: string;
  let light: GatewayDevice;
  const lines: LogLine[] = [];
  const h = () => rig.h;
  const sim = () => rig.fleet.gateways[0]!;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, {
      count: 1,
      alarmTickMs: 0,
      jobs: { start: false },
      env: { METRICS_TOKEN: TOKEN },
      logger: { level: 'debug', stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
    });
    token = await signUpByMail(h(), 'metrics@example.com');
    const { placed } = await buildGatewayWithDevices(h(), token, { mac: sim().mac, place: (d) => d.kind.startsWith('light') });
    light = placed[0]!;
  }, 90_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('refuses a scrape without the token or with a wrong one (401), and never echoes the token', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Basic c2NyYXBlOnRva2Vu']) {
      const res = await h().app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('lumigrid_');
    }
    const ok = await h().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).not.toContain(TOKEN);
  });

  it('counts requests by route pattern and status, never by raw URL, and times them', async () => {
    const before = await scrape(h().app, TOKEN);
    const served = { method: 'GET', route: INFO_ROUTE, status: '200' };
    await call(h().app, 'GET', `${INFO_ROUTE}?token=secret-in-query`);
    await call(h().app, 'GET', INFO_ROUTE);
    await call(h().app, 'GET', '/api4/no/such/route/4711', { outsideTable: true });
    const after = await scrape(h().app, TOKEN);
    expect(sampleSum(after, 'lumigrid_http_requests_total', served) - sampleSum(before, 'lumigrid_http_requests_total', served)).toBe(2);
    expect(sampleSum(after, 'lumigrid_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(after, 'lumigrid_http_request_duration_seconds_count', { method: 'GET', route: INFO_ROUTE })).toBeGreaterThanOrEqual(
      2,
    );
    // Every route label is a pattern of the app or 'unmatched', never a path as it was asked for.
    const routes = new Set(after.samples.filter((s) => s.name === 'lumigrid_http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((r) => r !== 'unmatched' && !r!.startsWith('/'))).toEqual([]);
    expect([...routes].some((r) => r!.includes('4711') || r!.includes('?'))).toBe(false);
    // The set-up imported the gateway's devices through a route with ids in its path: counted by its pattern.
    expect([...routes].filter((r) => r!.includes('/:')).length).toBeGreaterThan(0);
  });

  it("times a command from send to reply, logs it under the request's id, and counts the reports it causes", async () => {
    const before = await scrape(h().app, TOKEN);
    const requestId = 'metrics-suite-control-1';
    lines.length = 0;
    const res = await api(
      h().app,
      deviceEndpoints.control,
      { body: { id: light.id, action: { op: 'onOff', on: false } } },
      { token, headers: { 'x-request-id': requestId } },
    );
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.headers['x-request-id']).toBe(requestId);
    const commandLines = lines.filter((l) => l.command === 'device.control');
    expect(commandLines.map((l) => [l.msg, l.reqId])).toEqual([
      ['command queued', requestId],
      ['command succeeded', requestId],
    ]);

    const succeeded = { command: 'device.control', outcome: 'succeeded' };
    const count = (e: Exposition) => sampleSum(e, 'lumigrid_gateway_command_duration_seconds_count', succeeded);
    let after = await scrape(h().app, TOKEN);
    expect(count(after) - count(before)).toBe(1);
    expect(sampleSum(after, 'lumigrid_gateway_command_duration_seconds_sum', succeeded)).toBeGreaterThan(0);
    // The gateway reports the light's new state; the writer takes it in.
    const accepted = (e: Exposition) => sampleSum(e, 'lumigrid_device_reports_accepted_total');
    await poll(
      async () => accepted((after = await scrape(h().app, TOKEN))) > accepted(before),
      'the report of the switched light accepted',
    );
    expect(sampleSum(after, 'lumigrid_mqtt_messages_received_total')).toBeGreaterThan(
      sampleSum(before, 'lumigrid_mqtt_messages_received_total'),
    );
    expect(sampleSum(after, 'lumigrid_gateways_online')).toBe(1);
    expect(sampleSum(after, 'lumigrid_mqtt_broker_connections', { broker: 'embedded' })).toBe(1);
    expect(sampleSum(after, 'lumigrid_mqtt_link_up')).toBe(1);
    expect(after.samples.some((s) => s.name === 'lumigrid_report_writer_queue_depth')).toBe(true);
  });

  it('counts alarms raised by severity', async () => {
    const critical = async () => sampleSum(await scrape(h().app, TOKEN), 'lumigrid_alarms_raised_total', { severity: 'critical' });
    const before = await critical();
    sim().raiseFault(light.addr, BATTERY);
    await poll(async () => (await critical()) > before, 'a critical alarm counted');
  });

  it('reports the jobs table, the pool (PostgreSQL only) and the event loop delay', async () => {
    const exposition = await scrape(h().app, TOKEN);
    for (const state of ['queued', 'running'])
      expect(
        exposition.samples.some((s) => s.name === 'lumigrid_jobs' && s.labels.state === state),
        state,
      ).toBe(true);
    const pool = exposition.samples.filter((s) => s.name === 'lumigrid_db_pool_connections');
    expect(pool.length).toBe(kind === 'postgres' ? 1 : 0);
    if (kind === 'postgres') expect(pool[0]!.value).toBeGreaterThan(0);
    expect(sampleSum(exposition, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
  });

  it('puts no secret and no person into a label: only route patterns, codes and fixed words', async () => {
    const exposition = await scrape(h().app, TOKEN);
    const values = exposition.samples.flatMap((s) => Object.values(s.labels));
    const text = values.join('\n');
    for (const secret of [TOKEN, 'Bearer', 'metrics@example.com', 'Secret-Pass1', sim().mac, 'secret-in-query'])
      expect(text).not.toContain(secret);
    const allowedKeys = new Set([
      'method',
      'route',
      'status',
      'le',
      'command',
      'outcome',
      'severity',
      'state',
      'pool',
      'broker',
      'version',
      'major',
      'minor',
      'patch',
      'type',
      'kind',
      'space',
    ]);
    const keys = new Set(exposition.samples.flatMap((s) => Object.keys(s.labels)));
    expect([...keys].filter((k) => !allowedKeys.has(k))).toEqual([]);
  });

  it('serves every metric the Grafana dashboard queries', async () => {
    const exported = exportedNames(await scrape(h().app, TOKEN));
    const used = dashboardMetricNames();
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('keeps its counts to its own app: another app in the same process starts from nothing', async () => {
    const other = await startApp(kind, { METRICS_TOKEN: TOKEN });
    try {
      const mine = await scrape(other.app, TOKEN);
      expect(sampleSum(mine, 'lumigrid_http_requests_total', { route: INFO_ROUTE })).toBe(0);
      expect(sampleSum(mine, 'lumigrid_gateway_command_duration_seconds_count')).toBe(0);
      expect(sampleSum(await scrape(h().app, TOKEN), 'lumigrid_http_requests_total', { route: INFO_ROUTE })).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

describe('the exposition parser the suite relies on', () => {
  it('reads labels with escaped quotes and histogram series', () => {
    const e = parseExposition(
      ['# TYPE x_seconds histogram', 'x_seconds_bucket{le="0.1",route="/a/\\"b\\""} 3', 'x_seconds_count{route="/a"} 3', ''].join('\n'),
    );
    expect(e.samples[0]).toEqual({ name: 'x_seconds_bucket', labels: { le: '0.1', route: '/a/"b"' }, value: 3 });
    expect([...exportedNames(e)]).toEqual(['x_seconds', 'x_seconds_bucket', 'x_seconds_sum', 'x_seconds_count']);
  });
});
