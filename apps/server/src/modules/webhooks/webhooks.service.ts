import { randomBytes, randomUUID } from 'node:crypto';
import {
  OPERATE_AUTH,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_KIND,
  type WebhookCreateBody,
  type WebhookDelivery,
  type WebhookDeliveryKind,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEndpointList,
  type WebhookEventBody,
  type WebhookEventKind,
  type WebhookUpdateBody,
} from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { JOB_DEFAULTS, retryDelayMs, type JobContext, type JobRunner, type Json } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import { denyAccess, toId } from '../access/access.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import { assertPublicUrl, parseWebhookUrl } from './webhook-address.ts';
import { sendWebhook } from './webhook-sender.ts';
import type { WebhookDeliveryRow, WebhookEndpointListRow, WebhookTarget, WebhooksRepo } from './webhooks.repo.ts';

export const WEBHOOK_DELIVERY_JOB = 'webhook.deliver';

/**
 * Attempts the job runner makes of a delivery: enough for its back-off (doubling, capped at an hour) to span the
 * 24 h of retries; the handler gives up at 24 h after the event whatever the count.
 */
export function webhookMaxAttempts(retryForMs: number = WEBHOOK_LIMITS.retryForMs): number {
  let waited = 0;
  let attempts = 1;
  while (waited < retryForMs) waited += retryDelayMs(attempts++, JOB_DEFAULTS.retryBaseMs, JOB_DEFAULTS.retryMaxMs);
  return attempts;
}
const MAX_ATTEMPTS = webhookMaxAttempts();

/** Something that happened in an account, as a domain tells it. */
export interface WebhookEventSource {
  kind: WebhookEventKind;
  tenantId: bigint;
  /** The project it happened in: an endpoint whose maker does not see it is not told. */
  projectId: bigint | null;
  at: Date;
  data: Record<string, unknown>;
}

/** What the domains call: never awaited on their live path. */
export interface WebhookEvents {
  /** Queues the event for every endpoint that takes it; a function is resolved off the caller's path first. */
  emit(source: WebhookEventSource | (() => Promise<WebhookEventSource | undefined>)): void;
}

export function mapWebhookEndpoint(row: WebhookEndpointListRow): WebhookEndpoint {
  return {
    id: String(row.id),
    name: row.name,
    url: row.url,
    kinds: row.kinds as WebhookEventKind[],
    enabled: row.enabled,
    keyId: row.keyId,
    createdAt: row.createdAt.toISOString(),
    userId: String(row.userId),
    userName: row.userName,
  };
}

export function mapWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: String(row.id),
    eventId: row.eventId,
    kind: row.kind as WebhookDeliveryKind,
    state: row.state,
    attempts: row.attempts,
    answerCode: row.answerCode,
    answerExcerpt: row.answerExcerpt,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  };
}

/** Owners see and manage every endpoint of the account, as they do API keys; everybody else their own. */
function seesEveryEndpoint(auth: Pick<AuthContext, 'operateAuth'>): boolean {
  return auth.operateAuth === OPERATE_AUTH.owner;
}

/**
 * Webhooks: endpoints registered by signed-in users; events of the account queued as deliveries, each a
 * durable job that signs and sends it, retried with back-off for up to 24 h until the receiver answers 2xx.
 */
export function createWebhooksService(deps: {
  repo: WebhooksRepo;
  members: Pick<ProjectMembers, 'scopeOf'>;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'warn'>;
  /** SaaS refuses endpoints on loopback, private and link-local addresses, at registration and delivery. */
  publicOnly: boolean;
}) {
  const { repo, clock, logger } = deps;
  const pending = new Set<Promise<unknown>>();
  const changeListeners = new Set<() => void>();
  const changed = () => changeListeners.forEach((listener) => listener());

  async function requireOwn(auth: AuthContext, id: string): Promise<WebhookEndpointListRow> {
    const row = await repo.findInTenant({ tenantId: auth.tenantId, id: toId(id) });
    if (!row || (!seesEveryEndpoint(auth) && row.userId !== auth.userId)) denyAccess();
    return row;
  }

  async function checkedUrl(raw: string): Promise<string> {
    const url = parseWebhookUrl(raw);
    if (deps.publicOnly) await assertPublicUrl(url);
    return url.href;
  }

  /** Whether an endpoint's maker sees the project an event happened in. */
  async function makerSees(tenantId: bigint, target: WebhookTarget, projectId: bigint | null): Promise<boolean> {
    if (target.parentId === null || target.allProjects) return true;
    if (projectId === null) return false;
    try {
      return (await deps.members.scopeOf({ tenantId, userId: target.userId })).projectIds.has(projectId);
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  /** Makes the deliveries of one event and their jobs; answers the delivery ids. */
  async function enqueue(event: WebhookEventBody, tenantId: bigint, endpointIds: bigint[]): Promise<bigint[]> {
    const body = JSON.stringify(event);
    const now = clock.now();
    const ids = await repo.insertDeliveries(
      endpointIds.map((endpointId) => ({ tenantId, endpointId, eventId: event.id, kind: event.kind, body, createdAt: now })),
    );
    for (const id of ids)
      await deps.jobs.schedule({
        kind: WEBHOOK_DELIVERY_JOB,
        key: `delivery:${id}`,
        runAt: now,
        payload: { deliveryId: String(id) },
        maxAttempts: MAX_ATTEMPTS,
      });
    for (const endpointId of endpointIds) await repo.prune({ endpointId, keep: WEBHOOK_LIMITS.deliveriesKept });
    return ids;
  }

  async function fanOut(source: WebhookEventSource): Promise<void> {
    const targets = await repo.targets({ tenantId: source.tenantId, kind: source.kind });
    const chosen: bigint[] = [];
    for (const target of targets) if (await makerSees(source.tenantId, target, source.projectId)) chosen.push(target.id);
    if (chosen.length === 0) return;
    await enqueue(
      {
        id: `evt_${randomUUID()}`,
        kind: source.kind,
        createdAt: source.at.toISOString(),
        accountId: String(source.tenantId),
        projectId: source.projectId === null ? null : String(source.projectId),
        data: source.data,
      },
      source.tenantId,
      chosen,
    );
  }

  function track(work: Promise<unknown>) {
    const tracked = work.catch((err: unknown) => logger.warn({ err }, 'webhook event not queued'));
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
  }

  async function recordOutcome(row: WebhookDeliveryRow, values: Partial<WebhookDeliveryRow>) {
    await repo.recordAttemptAnyTenant({
      id: row.id,
      values: {
        state: values.state ?? row.state,
        attempts: values.attempts ?? row.attempts,
        answerCode: values.answerCode ?? null,
        answerExcerpt: values.answerExcerpt ?? null,
        lastAttemptAt: values.lastAttemptAt ?? row.lastAttemptAt,
        nextAttemptAt: values.nextAttemptAt ?? null,
      },
    });
  }

  /** One attempt of a delivery (the job's handler); a throw asks the runner for another after its back-off. */
  async function deliver(payload: Json, context: Pick<JobContext, 'attempt'>): Promise<Json> {
    const found = await repo.deliveryAnyTenant(BigInt((payload as { deliveryId: string }).deliveryId));
    if (!found) return { skipped: 'gone' };
    const { delivery, endpoint } = found;
    if (delivery.state !== 'pending') return { skipped: delivery.state };
    if (!endpoint.enabled) {
      await recordOutcome(delivery, { state: 'failed', answerExcerpt: 'endpoint disabled' });
      return { skipped: 'disabled' };
    }
    const sentAt = clock.now();
    const outcome = await sendWebhook({
      url: endpoint.url,
      body: delivery.body,
      secret: endpoint.secret,
      keyId: endpoint.keyId,
      eventId: delivery.eventId,
      kind: delivery.kind,
      timestamp: Math.floor(sentAt.getTime() / 1000),
      publicOnly: deps.publicOnly,
    });
    const attempted = {
      attempts: delivery.attempts + 1,
      answerCode: outcome.status,
      answerExcerpt: outcome.excerpt,
      lastAttemptAt: sentAt,
    };
    if (outcome.ok) {
      await recordOutcome(delivery, { ...attempted, state: 'succeeded' });
      return { status: outcome.status };
    }
    const nextAt = new Date(sentAt.getTime() + retryDelayMs(context.attempt, JOB_DEFAULTS.retryBaseMs, JOB_DEFAULTS.retryMaxMs));
    if (context.attempt >= MAX_ATTEMPTS || nextAt.getTime() - delivery.createdAt.getTime() > WEBHOOK_LIMITS.retryForMs) {
      await recordOutcome(delivery, { ...attempted, state: 'failed' });
      return { status: outcome.status, gaveUp: true };
    }
    await recordOutcome(delivery, { ...attempted, state: 'pending', nextAttemptAt: nextAt });
    throw new Error(`webhook answered ${outcome.status ?? 'nothing'}`);
  }
  deps.jobs.register(WEBHOOK_DELIVERY_JOB, deliver);

  return {
    async list(auth: AuthContext): Promise<WebhookEndpointList> {
      const rows = await repo.list({ tenantId: auth.tenantId, userId: seesEveryEndpoint(auth) ? undefined : auth.userId });
      return rows.map(mapWebhookEndpoint);
    },

    /** Registers an endpoint; the answer holds its signing secret this once. */
    async create(auth: AuthContext, body: WebhookCreateBody): Promise<WebhookEndpointCreated> {
      const url = await checkedUrl(body.url);
      if ((await repo.countInTenant({ tenantId: auth.tenantId })) >= WEBHOOK_LIMITS.perAccount) throw new AppError(102004);
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      const id = await repo.insert({
        tenantId: auth.tenantId,
        userId: auth.userId,
        name: body.name.trim(),
        url,
        kinds: [...body.kinds],
        enabled: true,
        keyId: `whk_${randomBytes(9).toString('base64url')}`,
        secret,
        createdAt: clock.now(),
      });
      const row = await repo.findInTenant({ tenantId: auth.tenantId, id });
      changed();
      return { ...mapWebhookEndpoint(row!), secret };
    },

    async update(auth: AuthContext, body: WebhookUpdateBody): Promise<WebhookEndpoint> {
      const row = await requireOwn(auth, body.id);
      const url = await checkedUrl(body.url);
      await repo.update({
        tenantId: auth.tenantId,
        id: row.id,
        values: { name: body.name.trim(), url, kinds: [...body.kinds], enabled: body.enabled },
      });
      changed();
      return mapWebhookEndpoint((await repo.findInTenant({ tenantId: auth.tenantId, id: row.id }))!);
    },

    async remove(auth: AuthContext, id: string): Promise<null> {
      const row = await requireOwn(auth, id);
      await repo.remove({ tenantId: auth.tenantId, id: row.id });
      changed();
      return null;
    },

    async deliveries(auth: AuthContext, id: string): Promise<WebhookDeliveryList> {
      const row = await requireOwn(auth, id);
      const rows = await repo.deliveries({ tenantId: auth.tenantId, endpointId: row.id, limit: WEBHOOK_LIMITS.deliveriesKept });
      return rows.map(mapWebhookDelivery);
    },

    /** Queues a `webhook.test` event for one endpoint, delivered like any other. */
    async test(auth: AuthContext, id: string): Promise<null> {
      const row = await requireOwn(auth, id);
      if (!row.enabled) throw new AppError(102003);
      const at = clock.now();
      await enqueue(
        {
          id: `evt_${randomUUID()}`,
          kind: WEBHOOK_TEST_KIND,
          createdAt: at.toISOString(),
          accountId: String(auth.tenantId),
          projectId: null,
          data: { endpointId: String(row.id), message: 'A test event sent from the webhooks page' },
        },
        auth.tenantId,
        [row.id],
      );
      return null;
    },

    emit(source: WebhookEventSource | (() => Promise<WebhookEventSource | undefined>)): void {
      track(
        (async () => {
          const resolved = typeof source === 'function' ? await source() : source;
          if (resolved) await fanOut(resolved);
        })(),
      );
    },

    /** Told after an endpoint was made, changed or removed on this node. */
    onEndpointsChanged(listener: () => void): void {
      changeListeners.add(listener);
    },

    /** Resolves when every event emitted so far is queued (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  } satisfies WebhookEvents & Record<string, unknown>;
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
