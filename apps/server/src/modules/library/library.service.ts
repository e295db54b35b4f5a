import {
  DEVICE_FAMILIES,
  DEVICE_TYPES,
  DEVICE_TYPE_CODE_LIST,
  LIBRARY_LIMITS,
  deviceType,
  libraryIconUrl,
  normalisePartNumber,
  partNumberProblem,
  remainingLife,
  type DeviceFamily,
  type LibraryType,
  type LibraryTypeAddBody,
  type LibraryTypeUpdateBody,
  type TypeListRow,
} from '@lumigrid/contract';
import { isUniqueViolation, violatedConstraint } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import { storedImageType, type ImageStore } from '../../lib/image-store.ts';
import { checkedPicture } from '../../lib/picture.ts';
import { denyAccess, found, toId } from '../access/access.ts';
import type { LibraryRepo, LibraryTypeRow, LibraryTypeValues, LibraryTypeWithCount } from './library.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth'>;

const HOUR_S = 3600;

export function mapLibraryType(row: LibraryTypeWithCount): LibraryType {
  return {
    id: String(row.id),
    name: row.name,
    type: row.type,
    icon: row.icon === null ? null : libraryIconUrl(row.icon),
    initialPower: row.initialPower,
    lifespan: row.lifespan,
    partNumber: row.partNumber,
    devices: row.devices,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The checked, stored form of a type's fields: 100208 for an unknown code, 100601 for a malformed part number. */
function valuesOf(body: LibraryTypeAddBody): LibraryTypeValues {
  if (!deviceType(body.type)) throw new AppError(100208);
  const partNumber = normalisePartNumber(body.partNumber);
  const problem = partNumberProblem(partNumber);
  if (problem) throw new AppError(problem);
  const name = body.name.trim();
  if (name.length < LIBRARY_LIMITS.name.min) throw new AppError(100001, 'name');
  return { name, type: body.type, initialPower: body.initialPower, lifespan: body.lifespan, partNumber };
}

/** What a device's life looks like from the library: its type's name, burning hours and remaining life. */
export interface DeviceLife {
  libraryTypeName: string | null;
  usedHours: number | null;
  remainingLifeHours: number | null;
}

/**
 * The device library of spec section 7 "Device types" (/system/library): the type code table with the
 * account's types, their add, update, delete and icons; and, for the device views, each device's type and
 * remaining life (docs/decisions.md, "Device library").
 */
export function createLibraryService(deps: { repo: LibraryRepo; images: ImageStore }) {
  const { repo, images } = deps;

  async function requireType(auth: Caller, id: string | undefined): Promise<LibraryTypeWithCount> {
    return found(id === undefined ? undefined : await repo.find({ tenantId: auth.tenantId, id: toId(id) }));
  }

  async function assertNoClash(auth: Caller, values: LibraryTypeValues, except?: bigint) {
    const clash = await repo.clash({ tenantId: auth.tenantId, name: values.name, partNumber: values.partNumber, except });
    if (clash === 'name') throw new AppError(270011);
    if (clash === 'partNumber') throw new AppError(270012);
  }

  /** Two racing saves pass the check; the unique indexes refuse the second with the same codes. */
  async function uniquely<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new AppError(violatedConstraint(error) === 'library_types_tenant_name_key' ? 270011 : 270012);
    }
  }

  const view = async (auth: Caller, id: bigint) => mapLibraryType((await repo.find({ tenantId: auth.tenantId, id }))!);

  return {
    /** GET type/v1/list: every type code with its capabilities and families, and the account's library types of it. */
    async typeList(auth: Caller): Promise<TypeListRow[]> {
      const library = (await repo.list({ tenantId: auth.tenantId })).map(mapLibraryType);
      const families = Object.entries(DEVICE_FAMILIES) as Array<[DeviceFamily, readonly number[]]>;
      return DEVICE_TYPE_CODE_LIST.map((code) => ({
        ...DEVICE_TYPES[code]!,
        families: families.filter(([, codes]) => codes.includes(code)).map(([name]) => name),
        library: library.filter((t) => t.type === code),
      }));
    },

    async add(auth: Caller, body: LibraryTypeAddBody): Promise<LibraryType> {
      assertMay(auth, 'write');
      const values = valuesOf(body);
      // Checked before the insert, not locked: two racing adds may pass the limit by one, which harms nobody.
      if ((await repo.count({ tenantId: auth.tenantId })) >= LIBRARY_LIMITS.perAccount) throw new AppError(100602);
      await assertNoClash(auth, values);
      const row = await uniquely(() => repo.insert({ ...values, tenantId: auth.tenantId }));
      return view(auth, row.id);
    },

    async update(auth: Caller, body: LibraryTypeUpdateBody): Promise<LibraryType> {
      assertMay(auth, 'write');
      const current = await requireType(auth, body.id);
      const values = valuesOf(body);
      await assertNoClash(auth, values, current.id);
      await uniquely(() => repo.update({ tenantId: auth.tenantId, id: current.id, values }));
      return view(auth, current.id);
    },

    /** GET type/v1/delete: 270006 while a device of the account carries the type's part number. */
    async remove(auth: Caller, id: string): Promise<null> {
      assertMay(auth, 'write');
      const gone = await repo.removeUnused({ tenantId: auth.tenantId, id: toId(id) });
      if (gone === undefined) denyAccess();
      if (gone === 'used') throw new AppError(270006);
      if (gone.icon) await images.remove(gone.icon);
      return null;
    },

    async setIcon(auth: Caller, id: string | undefined, data: Buffer): Promise<LibraryType> {
      assertMay(auth, 'write');
      const current = await requireType(auth, id);
      const file = await images.save(await checkedPicture(data, LIBRARY_LIMITS.icon.maxBytes));
      await repo.update({ tenantId: auth.tenantId, id: current.id, values: { icon: file } });
      if (current.icon) await images.remove(current.icon);
      return view(auth, current.id);
    },

    async removeIcon(auth: Caller, id: string): Promise<LibraryType> {
      assertMay(auth, 'write');
      const current = await requireType(auth, id);
      await repo.update({ tenantId: auth.tenantId, id: current.id, values: { icon: null } });
      if (current.icon) await images.remove(current.icon);
      return view(auth, current.id);
    },

    /** A stored icon by its file name; undefined for a name the store never made or no longer has. */
    async iconFile(file: string): Promise<{ data: Buffer; contentType: string } | undefined> {
      const data = await images.read(file);
      return data ? { data, contentType: storedImageType(file) } : undefined;
    },

    /**
     * Each device's library type, burning hours and remaining life, by device id, for devices the caller was
     * already allowed to read.
     */
    async lifeOf(tenantId: bigint, deviceIds: bigint[]): Promise<Map<string, DeviceLife>> {
      const rows = await repo.lifeOf({ tenantId, deviceIds });
      return new Map(
        rows.map((r) => {
          const usedHours = r.onS === null ? null : Math.round((Number(r.onS) / HOUR_S) * 10) / 10;
          return [
            String(r.deviceId),
            {
              libraryTypeName: r.typeName,
              usedHours,
              remainingLifeHours: remainingLife(r.lifespan, usedHours ?? (r.lifespan === null ? null : 0)),
            },
          ];
        }),
      );
    },
  };
}

export type LibraryService = ReturnType<typeof createLibraryService>;
export type { LibraryTypeRow };
