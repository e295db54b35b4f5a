import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userMadeRows } from '../../db/user-made-rows.ts';
import { users, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookEndpointListRow = Omit<WebhookEndpointRow, 'secret'> & { userName: string };
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
/** An endpoint an event goes to, with what its maker sees. */
export type WebhookTarget = Pick<WebhookEndpointRow, 'id' | 'userId'> & { parentId: bigint | null; allProjects: boolean };

const LISTED = {
  id: webhookEndpoints.id,
  tenantId: webhookEndpoints.tenantId,
  userId: webhookEndpoints.userId,
  name: webhookEndpoints.name,
  url: webhookEndpoints.url,
  kinds: webhookEndpoints.kinds,
  enabled: webhookEndpoints.enabled,
  keyId: webhookEndpoints.keyId,
  createdAt: webhookEndpoints.createdAt,
  userName: users.name,
};

/** Queries of the webhook tables; every one but the delivery job's reads takes the tenant. */
export function createWebhooksRepo(db: Db) {
  return {
    ...userMadeRows<typeof webhookEndpoints, WebhookEndpointListRow>(db, webhookEndpoints, LISTED),

    async update(q: { tenantId: bigint; id: bigint; values: Pick<WebhookEndpointRow, 'name' | 'url' | 'kinds' | 'enabled'> }) {
      await db
        .update(webhookEndpoints)
        .set(q.values)
        .where(and(eq(webhookEndpoints.tenantId, q.tenantId), eq(webhookEndpoints.id, q.id)));
    },

    async remove(q: { tenantId: bigint; id: bigint }): Promise<void> {
      await db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.tenantId, q.tenantId), eq(webhookEndpoints.id, q.id)));
    },

    /** The enabled endpoints of a tenant that take an event kind, whose makers can still sign in. */
    async targets(q: { tenantId: bigint; kind: string }): Promise<WebhookTarget[]> {
      return db
        .select({ id: webhookEndpoints.id, userId: webhookEndpoints.userId, parentId: users.parentId, allProjects: users.allProjects })
        .from(webhookEndpoints)
        .innerJoin(users, eq(users.id, webhookEndpoints.userId))
        .where(
          and(
            eq(webhookEndpoints.tenantId, q.tenantId),
            eq(webhookEndpoints.enabled, true),
            sql`${q.kind} = any(${webhookEndpoints.kinds})`,
            eq(users.enabled, true),
            sql`${users.deletedAt} is null`,
          ),
        );
    },

    /** Which tenants have an enabled endpoint for a kind, every tenant: the busy device events ask it first. */
    async tenantsTakingAnyTenant(q: { kind: string }): Promise<Set<bigint>> {
      const rows = await db
        .selectDistinct({ tenantId: webhookEndpoints.tenantId })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.enabled, true), sql`${q.kind} = any(${webhookEndpoints.kinds})`));
      return new Set(rows.map((r) => r.tenantId));
    },

    /** Answers the ids of the deliveries made; one already made for the event and endpoint is not made again. */
    async insertDeliveries(rows: Array<Omit<typeof webhookDeliveries.$inferInsert, 'id'>>): Promise<bigint[]> {
      if (rows.length === 0) return [];
      const made = await db
        .insert(webhookDeliveries)
        .values(rows)
        .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.endpointId] })
        .returning({ id: webhookDeliveries.id });
      return made.map((r) => r.id);
    },

    /** Removes an endpoint's finished deliveries past the newest `keep` (pending ones stay until they finish). */
    async prune(q: { endpointId: bigint; keep: number }): Promise<void> {
      const [edge] = await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, q.endpointId))
        .orderBy(desc(webhookDeliveries.id))
        .offset(q.keep - 1)
        .limit(1);
      if (!edge) return;
      await db
        .delete(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.endpointId, q.endpointId),
            lt(webhookDeliveries.id, edge.id),
            inArray(webhookDeliveries.state, ['succeeded', 'failed']),
          ),
        );
    },

    async deliveries(q: { tenantId: bigint; endpointId: bigint; limit: number }): Promise<WebhookDeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, q.tenantId), eq(webhookDeliveries.endpointId, q.endpointId)))
        .orderBy(desc(webhookDeliveries.id))
        .limit(q.limit);
    },

    /** A delivery with its endpoint, for the delivery job, whichever tenant: the job's payload names only the id. */
    async deliveryAnyTenant(id: bigint): Promise<{ delivery: WebhookDeliveryRow; endpoint: WebhookEndpointRow } | undefined> {
      const [row] = await db
        .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(eq(webhookDeliveries.id, id));
      return row;
    },

    async recordAttemptAnyTenant(q: {
      id: bigint;
      values: Pick<WebhookDeliveryRow, 'state' | 'attempts' | 'answerCode' | 'answerExcerpt' | 'lastAttemptAt' | 'nextAttemptAt'>;
    }): Promise<void> {
      await db.update(webhookDeliveries).set(q.values).where(eq(webhookDeliveries.id, q.id));
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
