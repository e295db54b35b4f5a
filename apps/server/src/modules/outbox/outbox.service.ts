import type { OutboxPage } from '@lumigrid/contract';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { OutboxRepo } from './outbox.repo.ts';
import { paging } from '../../lib/paging.ts';

/** The outbox page of the platform administrator: every message that was kept instead of sent. */
export function createOutboxService(deps: { repo: OutboxRepo }) {
  return {
    async page(auth: AuthContext, query: { page?: number; pageSize?: number }): Promise<OutboxPage> {
      assertMay(auth, 'admin');
      const { total, rows } = await deps.repo.page(paging(query));
      return {
        total,
        list: rows.map((r) => ({
          id: String(r.id),
          channel: r.channel === 'sms' ? 'sms' : 'mail',
          recipient: r.recipient,
          subject: r.subject,
          body: r.body,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
