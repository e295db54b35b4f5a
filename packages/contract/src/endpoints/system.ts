import { Type } from 'typebox';
import { endpoint } from '../endpoint.ts';
import { OutboxPageSchema, PageQuerySchema, SystemInfoSchema } from '../system.ts';

/** What the browser needs before anyone signs in, and what load balancers ask. */
export const systemEndpoints = {
  info: endpoint({
    method: 'GET',
    path: '/api1/system/v1/info',
    tags: ['system'],
    summary: 'Mode, version and company, before anyone signs in',
    access: 'public',
    response: SystemInfoSchema,
  }),
  health: endpoint({
    method: 'GET',
    path: '/healthz',
    tags: ['system'],
    summary: 'Liveness and database reachability, for load balancers',
    description: 'Not enveloped. A node that is stopping answers 503 with status `draining`, so the load balancer takes it out.',
    access: 'public',
    kind: 'raw',
    response: Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('draining')]), version: Type.String() }),
  }),
};

/** Mail and text messages kept instead of sent when no relay is configured (docs/operations.md). */
export const outboxEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api1/outbox/v1/list',
    tags: ['outbox'],
    summary: 'Messages kept in the outbox, newest first',
    access: 'admin',
    query: PageQuerySchema,
    response: OutboxPageSchema,
  }),
};
