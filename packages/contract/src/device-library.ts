import { Type, type Static } from 'typebox';
import { IdSchema, Nullable } from './common.ts';
import { DeviceTypeRowSchema } from './devices.ts';
import type { ErrorCode } from './errors.ts';
import { MAP_IMAGE_FILE_PATTERN } from './projects.ts';

/**
 * The device library (spec sections 2 /system/library, 3 "Device library type", 5 and 7 "Device types"): an
 * account's own luminaire and device models. Devices are matched to a library type by part number (the
 * `model` their gateway reports at import); the type's initial power is the energy savings baseline of its
 * devices and its lifespan gives each device's remaining life (docs/decisions.md, "Device library").
 */
export const LIBRARY_LIMITS = {
  /** Type names: 1-50 characters, unique in the account (270011). */
  name: { min: 1, max: 50 },
  /** Initial (rated) power, W (spec section 5). */
  initialPower: { min: 0, max: 10000 },
  /** Luminaire lifespan, hours (spec section 5). */
  lifespan: { min: 10000, max: 100000 },
  /** Part numbers: 3-32 characters (PART_NUMBER_PATTERN), unique in the account (270012). */
  partNumber: { min: 3, max: 32 },
  /** Types one account may keep (100602 past it). */
  perAccount: 500,
  /** The icon: png or jpeg up to 1 MB (spec section 5, "scene and other images"). */
  icon: { maxBytes: 1024 * 1024 },
} as const;

/**
 * A part number: upper-case letters, digits, '-', '.' and '/', starting and ending with a letter or digit
 * ("LG-P60-CCT", "DL.120/4K"). Input is trimmed and upper-cased first (normalisePartNumber), so "lg-p60"
 * and "LG-P60" are one part number; anything else is an "illegal serial number" (100601).
 */
export const PART_NUMBER_PATTERN = /^[A-Z0-9](?:[A-Z0-9./-]*[A-Z0-9])?$/;

/** The stored form of a part number: trimmed, upper case. */
export function normalisePartNumber(text: string): string {
  return text.trim().toUpperCase();
}

/** 100601 when a (normalised) part number is not of the documented format, else undefined. */
export function partNumberProblem(partNumber: string): ErrorCode | undefined {
  const { min, max } = LIBRARY_LIMITS.partNumber;
  if (partNumber.length < min || partNumber.length > max || !PART_NUMBER_PATTERN.test(partNumber)) return 100601;
  return undefined;
}

/** Where a library icon is served from. */
export function libraryIconUrl(file: string): string {
  return `/api4/type/v1/icon/${file}`;
}

/**
 * Remaining luminaire life, hours: the lifespan less the hours burnt, never below 0; null without a
 * library type or without any hours counted yet.
 */
export function remainingLife(lifespanHours: number | null, burnedHours: number | null): number | null {
  if (lifespanHours === null || burnedHours === null) return null;
  return Math.max(0, Math.round(lifespanHours - burnedHours));
}

const TypeCode = Type.Integer({ minimum: 0, maximum: 65535, description: 'Device type code (type/v1/list `code`)' });

/** A type of the device library. */
export const LibraryTypeSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  type: TypeCode,
  icon: Nullable(Type.String(), 'Icon URL (png or jpeg), or null'),
  initialPower: Type.Number({ description: 'Initial (rated) power, W: the energy savings baseline of its devices' }),
  lifespan: Type.Integer({ description: 'Luminaire lifespan, hours' }),
  partNumber: Type.String({ description: 'Part number (PART_NUMBER_PATTERN): devices whose reported model equals it are of this type' }),
  devices: Type.Integer({
    minimum: 0,
    description: 'Devices of the account with this part number; while above 0 it cannot be deleted (270006)',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type LibraryType = Static<typeof LibraryTypeSchema>;

const libraryFields = {
  name: Type.String({
    minLength: LIBRARY_LIMITS.name.min,
    maxLength: LIBRARY_LIMITS.name.max,
    description: '1-50 characters, unique in the account (270011); leading and trailing spaces are dropped',
  }),
  type: TypeCode,
  initialPower: Type.Number({
    minimum: LIBRARY_LIMITS.initialPower.min,
    maximum: LIBRARY_LIMITS.initialPower.max,
    description: '0-10000 W',
  }),
  lifespan: Type.Integer({ minimum: LIBRARY_LIMITS.lifespan.min, maximum: LIBRARY_LIMITS.lifespan.max, description: '10000-100000 h' }),
  partNumber: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      '3-32 characters of A-Z, 0-9, "-", "." and "/" after trimming and upper-casing (else 100601), unique in the account (270012)',
  }),
};

/** POST type/v1/add */
export const LibraryTypeAddBodySchema = Type.Object(libraryFields);
export type LibraryTypeAddBody = Static<typeof LibraryTypeAddBodySchema>;

/** POST type/v1/update: every field again; the icon stays. */
export const LibraryTypeUpdateBodySchema = Type.Object({ id: IdSchema, ...libraryFields });
export type LibraryTypeUpdateBody = Static<typeof LibraryTypeUpdateBodySchema>;

/** GET type/v1/delete?id= */
export const LibraryTypeIdQuerySchema = Type.Object({ id: IdSchema });
export type LibraryTypeIdQuery = Static<typeof LibraryTypeIdQuerySchema>;

/** {id} in a path: a library type. */
export const LibraryTypeIdParamsSchema = Type.Object({ id: IdSchema });
export type LibraryTypeIdParams = Static<typeof LibraryTypeIdParamsSchema>;

/** The multipart fields of an icon upload: the type's `id` before one `file` part. */
export const LibraryIconUploadSchema = Type.Object({
  id: Type.Optional(IdSchema),
  file: Type.Optional(Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The icon: png or jpeg' })),
});

/** {file}: the name in a library icon's URL. */
export const LibraryIconFileParamsSchema = Type.Object({
  file: Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: '32 hex digits and .png or .jpg' }),
});

/**
 * One row of GET type/v1/list: a device type code with its capabilities and families, and the account's
 * library types of that code (empty when it has none).
 */
export const TypeListRowSchema = Type.Object({
  ...DeviceTypeRowSchema.properties,
  library: Type.Array(LibraryTypeSchema, { description: "The account's library types of this code, by name" }),
});
export type TypeListRow = Static<typeof TypeListRowSchema>;
export const TypeListSchema = Type.Array(TypeListRowSchema);
export type TypeList = Static<typeof TypeListSchema>;

/** Every library type of a type list, by name: what the library page lists. */
export function libraryTypesOf(list: readonly TypeListRow[]): LibraryType[] {
  return list.flatMap((row) => row.library).sort((a, b) => a.name.localeCompare(b.name));
}
