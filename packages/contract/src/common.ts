import { Type, type Static, type TSchema } from 'typebox';
import { LANGS, type Lang } from './lang.ts';

/** Lists are paged: 20 rows unless the caller asks for up to 200. */
export const PAGE_SIZE = { default: 20, max: 200 } as const;

/** Which page of a list to answer, from 1. */
export const PageNumberSchema = Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 }));

/** How many rows a page of a list holds (PAGE_SIZE). */
export const PageSizeSchema = Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default }));

/** The fields of a list's body that pick its page. */
export const pageFields = { page: PageNumberSchema, pageSize: PageSizeSchema };

/** One page of a list, with how many rows the whole list has. */
/* @__NO_SIDE_EFFECTS__ */
export function PageOf<T extends TSchema>(item: T) {
  return Type.Object({ total: Type.Integer(), list: Type.Array(item) });
}

/** 64-bit ids travel as decimal strings so that no browser loses precision. */
/** A value or null, with what null means in the description. */
/* @__NO_SIDE_EFFECTS__ */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** A position on a floor plan: a fraction of its width or height, from the top-left corner. */
export const PlanCoordinateSchema = Type.Number({ minimum: 0, maximum: 1, description: 'Fraction of the floor-plan width or height, 0-1' });

export const IdSchema = Type.String({ pattern: '^[0-9]{1,19}$', description: 'A 64-bit id as a decimal string' });
export type Id = Static<typeof IdSchema>;

/** Every answer: code 0 is success, anything else a business code of the catalogue. */
/* @__NO_SIDE_EFFECTS__ */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    code: Type.Integer({ description: '0 on success, otherwise a business code (docs/api.md)' }),
    msg: Type.String({ description: "A message in the caller's language" }),
    data,
  });
}

export const ErrorEnvelopeSchema = Type.Object({
  code: Type.Integer(),
  msg: Type.String(),
  data: Type.Null(),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

export const EmptySchema = Type.Null({ description: 'No data' });

/** The body of a POST whose ids are all in the path: {} or null. */
export const NoFieldsBodySchema = Type.Union([Type.Object({}), Type.Null()], { description: 'No fields: the id is in the path' });

export const LangSchema = Type.Unsafe<Lang>({ type: 'string', enum: [...LANGS], description: 'Interface language: cn, tc, en or ja' });

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An Excel workbook (.xlsx) a table exports. */
export const SpreadsheetSchema = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'An .xlsx workbook' });
