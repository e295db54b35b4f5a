import { Type, type Static } from 'typebox';
import { IdSchema, PAGE_SIZE } from './common.ts';

/** What the browser needs before anyone signs in. */
export const SystemInfoSchema = Type.Object({
  mode: Type.Union([Type.Literal('saas'), Type.Literal('server')]),
  version: Type.String(),
  company: Type.String({ description: 'The company code of this installation' }),
  serverIp: Type.Union([Type.String(), Type.Null()], { description: 'Shown in the menu in server mode' }),
  signUp: Type.Boolean({ description: 'Whether self sign-up is open' }),
});
export type SystemInfo = Static<typeof SystemInfoSchema>;

export const OutboxMessageSchema = Type.Object({
  id: IdSchema,
  channel: Type.Union([Type.Literal('mail'), Type.Literal('sms')]),
  recipient: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type OutboxMessage = Static<typeof OutboxMessageSchema>;

export const PageQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default })),
});
export type PageQuery = Static<typeof PageQuerySchema>;

export const OutboxPageSchema = Type.Object({
  total: Type.Integer(),
  list: Type.Array(OutboxMessageSchema),
});
export type OutboxPage = Static<typeof OutboxPageSchema>;
