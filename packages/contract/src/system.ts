import { Type, type Static } from 'typebox';
import { IdSchema, PageOf, pageFields } from './common.ts';

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
  ...pageFields,
});
export type PageQuery = Static<typeof PageQuerySchema>;

export const OutboxPageSchema = PageOf(OutboxMessageSchema);
export type OutboxPage = Static<typeof OutboxPageSchema>;
