import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  OPERATE_AUTH,
  USER_AUTH,
  WEBHOOK_EVENT_KINDS,
  WEBHOOK_HEADERS,
  WEBHOOK_LIMITS,
  webhookEndpoints as E,
  type WebhookEndpointCreated,
  type WebhookEventBody,
  type WebhookEventKind,
} from '@lumigrid/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateways, users, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/password.ts';
import { SERVICE_DATABASES, api, apiData, expectError, login, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { expectSecretsNowhere, placesAfterTheAnswer } from '../../test/secrets.fixtures.ts';
import { WEBHOOK_DELIVERY_JOB, webhookMaxAttempts } from './webhooks.service.ts';

/** A receiver as an integrator writes one: checks the signature and the timestamp, answers as the test says. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: WebhookEventBody;
  verified: boolean;
}

async function startReceiver() {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers[WEBHOOK_HEADERS.timestamp]);
      const secret = secrets.get(String(req.headers[WEBHOOK_HEADERS.keyId])) ?? '';
      // The three lines of docs/api.md "Webhooks".
      const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
      const given = String(req.headers[WEBHOOK_HEADERS.signature]);
      const verified = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      received.push({ headers: req.headers, body, event: JSON.parse(body) as WebhookEventBody, verified });
      res.statusCode = answers.shift() ?? 200;
      res.end(res.statusCode >= 300 ? 'receiver is down for maintenance' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** The receiver's store of secrets by key id, as the integrator keeps them. */
    know: (endpoint: WebhookEndpointCreated) => secrets.set(endpoint.keyId, endpoint.secret),
    /** The statuses of the next answers (200 after them). */
    answer: (...statuses: number[]) => answers.push(...statuses),
    /** Answers 200 again from now on. */
    recover: () => answers.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** An account in server mode, where nobody signs up: written directly, as the administrator would make it. */
async function serverAccount(h: Harness, account: string): Promise<{ token: string; id: bigint }> {
  const [row] = await h.database.db
    .insert(users)
    .values({
      account,
      name: account,
      passwordHash: await hashPassword('Owner-Pass-1'),
      userAuth: USER_AUTH.account,
      operateAuth: OPERATE_AUTH.owner,
    })
    .returning({ id: users.id });
  return { token: await login(h, account, 'Owner-Pass-1'), id: row!.id };
}

describe.each(SERVICE_DATABASES)('webhooks on %s', (kind) => {
  let h: Harness;
  let receiver: Receiver;
  let owner: string;
  let ownerId: bigint;
  const logLines: string[] = [];
  const secretsMade: string[] = [];

  async function register(token: string, body: { name?: string; url?: string; kinds?: WebhookEventKind[] } = {}) {
    const endpoint = await apiData(
      h.app,
      E.create,
      { body: { name: 'ticketing', url: receiver.url, kinds: [...WEBHOOK_EVENT_KINDS], ...body } },
      { token },
    );
    secretsMade.push(endpoint.secret);
    receiver.know(endpoint);
    return endpoint;
  }

  /** Queues what was emitted and runs the due deliveries. */
  async function deliverDue() {
    await h.app.webhooks.service.settled();
    await h.app.jobs.runDue();
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    // Server mode: the receiver listens on loopback. Debug level logs every request: the secret must not be there.
    h = await startApp(
      kind,
      { MODE: 'server' },
      { jobs: { start: false }, logger: { level: 'debug', stream: { write: (line: string) => void logLines.push(line) } } },
    );
    ({ token: owner, id: ownerId } = await serverAccount(h, 'hooks-owner'));
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('delivers a signed event of every kind, with the headers and body of docs/api.md', async () => {
    const endpoint = await register(owner);
    const before = receiver.received.length;
    const at = h.clock.now();
    for (const eventKind of WEBHOOK_EVENT_KINDS)
      h.app.webhooks.service.emit({ kind: eventKind, tenantId: ownerId, projectId: null, at, data: { sample: eventKind } });
    await deliverDue();
    const got = receiver.received.slice(before);
    expect(got.map((r) => r.event.kind).sort()).toEqual([...WEBHOOK_EVENT_KINDS].sort());
    for (const r of got) {
      expect(r.verified, r.event.kind).toBe(true);
      expect(r.headers[WEBHOOK_HEADERS.keyId]).toBe(endpoint.keyId);
      expect(r.headers[WEBHOOK_HEADERS.eventId]).toBe(r.event.id);
      expect(r.headers[WEBHOOK_HEADERS.kind]).toBe(r.event.kind);
      expect(r.headers[WEBHOOK_HEADERS.timestamp]).toBe(String(Math.floor(h.clock.now().getTime() / 1000)));
      expect(r.event).toMatchObject({
        accountId: String(ownerId),
        projectId: null,
        createdAt: at.toISOString(),
        data: { sample: r.event.kind },
      });
      expect(r.event.id).toMatch(/^evt_[0-9a-f-]{36}$/);
    }
    const deliveries = await apiData(h.app, E.deliveries, { body: { id: endpoint.id } }, { token: owner });
    expect(deliveries).toHaveLength(WEBHOOK_EVENT_KINDS.length);
    expect(deliveries.every((d) => d.state === 'succeeded' && d.attempts === 1 && d.answerCode === 200 && d.answerExcerpt === 'ok')).toBe(
      true,
    );
    await apiData(h.app, E.remove, { body: { id: endpoint.id } }, { token: owner });
  });

  it('tells a gateway’s presence as the fleet stores it, and not an unknown state', async () => {
    const endpoint = await register(owner, { kinds: ['gateway.online', 'gateway.offline'] });
    const mac = 'A1B2C3D4E5F6';
    await h.database.db.insert(gateways).values({ mac, tenantId: ownerId, name: 'Hall gateway' });
    const before = receiver.received.length;
    const since = h.clock.now().getTime();
    h.app.gatewayFleet.recordPresence({ mac, online: true, info: undefined, reason: undefined, since });
    h.app.gatewayFleet.recordPresence({ mac, online: false, info: undefined, reason: 'unknown', since });
    h.app.gatewayFleet.recordPresence({ mac, online: false, info: undefined, reason: 'lost', since });
    await h.app.gatewayFleet.settled();
    await deliverDue();
    // Sent side by side, so in either order.
    const got = receiver.received
      .slice(before)
      .map((r) => r.event)
      .sort((a, b) => a.kind.localeCompare(b.kind));
    expect(got.map((e) => [e.kind, e.data.reason])).toEqual([
      ['gateway.offline', 'lost'],
      ['gateway.online', null],
    ]);
    expect(got[1]!.data).toMatchObject({ mac, name: 'Hall gateway', mapId: null });
    await apiData(h.app, E.remove, { body: { id: endpoint.id } }, { token: owner });
  });

  it('sends an event only to the endpoints that take its kind', async () => {
    const alarms = await register(owner, { kinds: ['alarm.raised'] });
    const before = receiver.received.length;
    h.app.webhooks.service.emit({ kind: 'scene.ran', tenantId: ownerId, projectId: null, at: h.clock.now(), data: {} });
    h.app.webhooks.service.emit({ kind: 'alarm.raised', tenantId: ownerId, projectId: null, at: h.clock.now(), data: {} });
    await deliverDue();
    expect(receiver.received.slice(before).map((r) => r.event.kind)).toEqual(['alarm.raised']);
    await apiData(h.app, E.remove, { body: { id: alarms.id } }, { token: owner });
  });

  it('retries with back-off after two 500s, with the same event id, until the receiver answers 2xx', async () => {
    const endpoint = await register(owner);
    receiver.answer(500, 500);
    const before = receiver.received.length;
    await apiData(h.app, E.test, { body: { id: endpoint.id } }, { token: owner });
    await deliverDue();
    let [delivery] = await apiData(h.app, E.deliveries, { body: { id: endpoint.id } }, { token: owner });
    expect(delivery).toMatchObject({ kind: 'webhook.test', state: 'pending', attempts: 1, answerCode: 500 });
    expect(delivery!.answerExcerpt).toBe('receiver is down for maintenance');
    expect(delivery!.nextAttemptAt).toBe(new Date(h.clock.now().getTime() + 30_000).toISOString());

    // Not before its back-off.
    h.clock.advance(29_000);
    await deliverDue();
    expect(receiver.received.length - before).toBe(1);
    h.clock.advance(1_000);
    await deliverDue();
    h.clock.advance(60_000);
    await deliverDue();
    [delivery] = await apiData(h.app, E.deliveries, { body: { id: endpoint.id } }, { token: owner });
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: 3, answerCode: 200, nextAttemptAt: null });

    const attempts = receiver.received.slice(before);
    expect(attempts.map((r) => r.verified)).toEqual([true, true, true]);
    // A receiver de-duplicates by the event id: every attempt carries the same one, and the same body.
    expect(new Set(attempts.map((r) => r.event.id)).size).toBe(1);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    expect(attempts[0]!.event).toMatchObject({ kind: 'webhook.test', data: { endpointId: endpoint.id } });
    await apiData(h.app, E.remove, { body: { id: endpoint.id } }, { token: owner });
  });

  it(`keeps the last ${WEBHOOK_LIMITS.deliveriesKept} finished deliveries of an endpoint`, async () => {
    const endpoint = await register(owner, { kinds: ['scene.ran'] });
    const many = WEBHOOK_LIMITS.deliveriesKept + 5;
    await h.database.db.insert(webhookDeliveries).values(
      Array.from({ length: many }, (_, i) => ({
        tenantId: ownerId,
        endpointId: BigInt(endpoint.id),
        eventId: `evt_old_${i}`,
        kind: 'scene.ran',
        body: '{}',
        state: 'succeeded' as const,
        createdAt: h.clock.now(),
      })),
    );
    h.app.webhooks.service.emit({ kind: 'scene.ran', tenantId: ownerId, projectId: null, at: h.clock.now(), data: {} });
    await h.app.webhooks.service.settled();
    const rows = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, BigInt(endpoint.id)));
    expect(rows).toHaveLength(WEBHOOK_LIMITS.deliveriesKept);
    const listed = await apiData(h.app, E.deliveries, { body: { id: endpoint.id } }, { token: owner });
    expect(listed[0]!.eventId).toMatch(/^evt_[0-9a-f-]{36}$/);
    await apiData(h.app, E.remove, { body: { id: endpoint.id } }, { token: owner });
  });

  it('tells a sub-account’s endpoint only of the projects it sees; it manages only its own endpoints', async () => {
    const tree = treeFactory(h, owner);
    const given = await tree.project({ name: 'Given' });
    const other = await tree.project({ name: 'Not given' });
    const limited = await subAccount(h, 'hooks-owner', OPERATE_AUTH.viewOnly, [given.id]);
    const mine = await register(limited, { kinds: ['scene.ran'] });
    const ownerHook = await register(owner, { kinds: ['alarm.cleared'] });
    const before = receiver.received.length;
    for (const projectId of [given.id, other.id, null])
      h.app.webhooks.service.emit({
        kind: 'scene.ran',
        tenantId: ownerId,
        projectId: projectId === null ? null : BigInt(projectId),
        at: h.clock.now(),
        data: {},
      });
    await deliverDue();
    expect(receiver.received.slice(before).map((r) => r.event.projectId)).toEqual([given.id]);

    // The sub-account lists its own; the owner lists both and may manage the sub-account's.
    expect((await apiData(h.app, E.list, {}, { token: limited })).map((e) => e.id)).toEqual([mine.id]);
    expect((await apiData(h.app, E.list, {}, { token: owner })).map((e) => e.id).sort()).toEqual([mine.id, ownerHook.id].sort());
    expectError(await api(h.app, E.deliveries, { body: { id: ownerHook.id } }, { token: limited }), 110011);
    expectError(await api(h.app, E.remove, { body: { id: ownerHook.id } }, { token: limited }), 110011);
    await apiData(h.app, E.remove, { body: { id: mine.id } }, { token: owner });
    await apiData(h.app, E.remove, { body: { id: ownerHook.id } }, { token: owner });
  });

  it('refuses another account every call on an endpoint, and never sends it that account’s events', async () => {
    const endpoint = await register(owner, { kinds: ['gateway.online'] });
    const { token: stranger } = await serverAccount(h, 'hooks-stranger');
    const theirs = await register(stranger, { kinds: ['gateway.online'] });
    const id = endpoint.id;
    expect((await apiData(h.app, E.list, {}, { token: stranger })).map((e) => e.id)).toEqual([theirs.id]);
    expectError(await api(h.app, E.deliveries, { body: { id } }, { token: stranger }), 110011);
    expectError(await api(h.app, E.test, { body: { id } }, { token: stranger }), 110011);
    expectError(await api(h.app, E.remove, { body: { id } }, { token: stranger }), 110011);
    expectError(
      await api(
        h.app,
        E.update,
        { body: { id, name: 'taken', url: receiver.url, kinds: ['scene.ran'], enabled: true } },
        { token: stranger },
      ),
      110011,
    );
    const before = receiver.received.length;
    h.app.webhooks.service.emit({ kind: 'gateway.online', tenantId: ownerId, projectId: null, at: h.clock.now(), data: {} });
    await deliverDue();
    expect(receiver.received.slice(before).map((r) => r.headers[WEBHOOK_HEADERS.keyId])).toEqual([endpoint.keyId]);
    expect((await apiData(h.app, E.list, {}, { token: owner })).find((e) => e.id === id)?.name).toBe('ticketing');
  });

  it('updates an endpoint, keeps its secret, and sends a disabled one nothing', async () => {
    const endpoint = await register(owner, { kinds: ['scene.ran'] });
    const changed = await apiData(
      h.app,
      E.update,
      { body: { id: endpoint.id, name: '  renamed ', url: receiver.url, kinds: ['scene.ran', 'alarm.raised'], enabled: false } },
      { token: owner },
    );
    expect(changed).toMatchObject({ name: 'renamed', kinds: ['scene.ran', 'alarm.raised'], enabled: false, keyId: endpoint.keyId });
    expect(changed).not.toHaveProperty('secret');
    expectError(await api(h.app, E.test, { body: { id: endpoint.id } }, { token: owner }), 102003);
    const before = receiver.received.length;
    h.app.webhooks.service.emit({ kind: 'scene.ran', tenantId: ownerId, projectId: null, at: h.clock.now(), data: {} });
    await deliverDue();
    expect(receiver.received.length).toBe(before);
    expectError(
      await api(
        h.app,
        E.update,
        { body: { id: endpoint.id, name: 'x', url: 'ftp://example.com/', kinds: ['scene.ran'], enabled: true } },
        { token: owner },
      ),
      102001,
    );
    expectError(
      await api(h.app, E.create, { body: { name: 'x', url: 'https://user:pw@example.com/', kinds: ['scene.ran'] } }, { token: owner }),
      102001,
    );
    expectError(await api(h.app, E.create, { body: { name: ' ', url: receiver.url, kinds: ['scene.ran'] } }, { token: owner }), 100001);
    await apiData(h.app, E.remove, { body: { id: endpoint.id } }, { token: owner });
  });

  it('shows the secret once, in the create answer: never in a later answer, the trail or the log', async () => {
    const listed = await apiData(h.app, E.list, {}, { token: owner });
    const places = await placesAfterTheAnswer(h, { listed, tables: { deliveries: webhookDeliveries }, logLines });
    expect(places.trail).toContain('webhooks.create');
    expect(places.logged).toContain('/api1/webhook/v1/create');
    expectSecretsNowhere(places, secretsMade, /^whsec_[A-Za-z0-9_-]{43}$/);
    // Stored as it is, to sign with (docs/decisions.md "Webhook secrets").
    const stored = await h.database.db.select({ secret: webhookEndpoints.secret }).from(webhookEndpoints);
    expect(stored.every((r) => secretsMade.includes(r.secret))).toBe(true);
  });
  // Last: it moves the clock past every session's life.
  it('gives up after 24 h of failed attempts', async () => {
    expect(webhookMaxAttempts()).toBeGreaterThan(20);
    const endpoint = await register(owner);
    receiver.answer(...Array<number>(100).fill(503));
    await apiData(h.app, E.test, { body: { id: endpoint.id } }, { token: owner });
    await deliverDue();
    for (let hour = 0; hour < 25; hour++) {
      h.clock.advance(60 * 60_000);
      await deliverDue();
    }
    // A day later the session has ended.
    owner = await login(h, 'hooks-owner', 'Owner-Pass-1');
    const [delivery] = await apiData(h.app, E.deliveries, { body: { id: endpoint.id } }, { token: owner });
    expect(delivery).toMatchObject({ state: 'failed', answerCode: 503, nextAttemptAt: null });
    expect(delivery!.attempts).toBeGreaterThan(10);
    const job = await h.app.jobs.find(WEBHOOK_DELIVERY_JOB, `delivery:${delivery!.id}`);
    expect(job?.state).toBe('done');
    receiver.recover();
    await apiData(h.app, E.remove, { body: { id: endpoint.id } }, { token: owner });
  });
});

describe('webhooks in SaaS mode', () => {
  let h: Harness;
  let receiver: Receiver;
  let owner: string;
  let ownerId: bigint;

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startApp('pglite', { MODE: 'saas' }, { jobs: { start: false } });
    owner = await signUpByMail(h, 'hooks-saas@example.com');
    const [row] = await h.database.db.select().from(users).where(eq(users.account, 'hooks-saas@example.com'));
    ownerId = row!.id;
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it.each([
    'http://127.0.0.1:9/hook',
    'http://localhost/hook',
    'https://10.1.2.3/hook',
    'https://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:8080/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses an endpoint at %s (server-side request forgery), in the caller’s language', async (url) => {
    expectError(await api(h.app, E.create, { body: { name: 'inside', url, kinds: ['scene.ran'] } }, { token: owner }), 102002);
    expectError(
      await api(h.app, E.create, { body: { name: 'inside', url, kinds: ['scene.ran'] } }, { token: owner, lang: 'ja' }),
      102002,
      'ja',
    );
    expect(await apiData(h.app, E.list, {}, { token: owner })).toEqual([]);
  });

  it('refuses a private address again when delivering (the name may resolve elsewhere by then)', async () => {
    // As if a public name had been registered and now resolved to the receiver on loopback.
    const [endpoint] = await h.database.db
      .insert(webhookEndpoints)
      .values({
        tenantId: ownerId,
        userId: ownerId,
        name: 'rebound',
        url: receiver.url.replace('127.0.0.1', 'localhost'),
        kinds: ['scene.ran'],
        keyId: 'whk_test',
        secret: 'whsec_test',
        createdAt: h.clock.now(),
      })
      .returning();
    await apiData(h.app, E.test, { body: { id: String(endpoint!.id) } }, { token: owner });
    await h.app.jobs.runDue();
    const [delivery] = await apiData(h.app, E.deliveries, { body: { id: String(endpoint!.id) } }, { token: owner });
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1, answerCode: null });
    expect(delivery!.answerExcerpt).toMatch(/^refused address (127\.0\.0\.1|::1) for localhost/);
    expect(receiver.received).toEqual([]);
  });
});
