import { endpoint } from '../endpoint.ts';
import { EmptySchema, NoFieldsBodySchema } from '../common.ts';
import {
  LibraryIconFileParamsSchema,
  LibraryIconUploadSchema,
  LibraryTypeAddBodySchema,
  LibraryTypeIdParamsSchema,
  LibraryTypeIdQuerySchema,
  LibraryTypeSchema,
  LibraryTypeUpdateBodySchema,
  TypeListSchema,
} from '../device-library.ts';
import { BinarySchema } from '../projects.ts';

const FIELDS =
  'Name 1-50 (270011 when the account has it), initial power 0-10000 W, lifespan 10000-100000 h, part number 3-32 characters of A-Z 0-9 - . / after trimming and upper-casing (100601 "illegal serial number"; 270012 when the account has it).';

/**
 * The device type calls of spec section 7 "Device types": the type code table with the account's device
 * library, and the library's add, update, delete and icons (/system/library).
 */
export const libraryEndpoints = {
  typeTable: endpoint({
    method: 'GET',
    path: '/api4/type/v1/list',
    tags: ['library'],
    summary: 'The device type code table, each code with the account\u2019s library types',
    description:
      'Every type code with its capabilities and the families of spec section 3 it belongs to; `library` lists the account\u2019s device library types of that code, by name.',
    access: 'read',
    response: TypeListSchema,
  }),
  add: endpoint({
    method: 'POST',
    path: '/api4/type/v1/add',
    tags: ['library'],
    summary: 'Add a type to the device library',
    description: `${FIELDS} An unknown type code 100208; at most 500 types per account (100602). The icon is uploaded after (upload_icon).`,
    access: 'write',
    body: LibraryTypeAddBodySchema,
    response: LibraryTypeSchema,
    errors: [100208, 100601, 100602, 270011, 270012],
  }),
  update: endpoint({
    method: 'POST',
    path: '/api4/type/v1/update',
    tags: ['library'],
    summary: 'Change a type of the device library',
    description: `Every field again; the icon stays. ${FIELDS} Devices follow the part number: a new one matches other devices.`,
    access: 'write',
    objects: { body: { id: 'libraryType' } },
    body: LibraryTypeUpdateBodySchema,
    response: LibraryTypeSchema,
    errors: [100208, 100601, 270011, 270012],
  }),
  remove: endpoint({
    method: 'GET',
    path: '/api4/type/v1/delete',
    tags: ['library'],
    summary: 'Delete a type of the device library',
    description: 'Refused with 270006 while a device of the account has its part number.',
    access: 'write',
    objects: { query: { id: 'libraryType' } },
    query: LibraryTypeIdQuerySchema,
    response: EmptySchema,
    errors: [270006],
  }),
  uploadIcon: endpoint({
    method: 'POST',
    path: '/api4/type/v1/upload_icon',
    tags: ['library'],
    summary: 'Set a library type\u2019s icon: png or jpeg up to 1 MB',
    description:
      'multipart/form-data with an `id` field (the type) before a `file` part. The type is read from the bytes; anything else answers 100013 ("please select a valid image"), a larger file 100014. Replaces the icon before.',
    access: 'write',
    objects: { body: { id: 'libraryType' } },
    kind: 'upload',
    body: LibraryIconUploadSchema,
    response: LibraryTypeSchema,
    errors: [100013, 100014],
  }),
  removeIcon: endpoint({
    method: 'POST',
    path: '/api4/type/v1/delete_icon/:id',
    tags: ['library'],
    summary: 'Remove a library type\u2019s icon',
    access: 'write',
    objects: { params: { id: 'libraryType' } },
    params: LibraryTypeIdParamsSchema,
    body: NoFieldsBodySchema,
    response: LibraryTypeSchema,
  }),
  icon: endpoint({
    method: 'GET',
    path: '/api4/type/v1/icon/:file',
    tags: ['library'],
    summary: 'A stored library icon (png or jpeg)',
    description:
      '{file}: the name in a type\u2019s `icon` URL. Served without a token, so <img> can load it: the name carries 128 random bits and is only ever given to users of the account. Unknown names answer 404.',
    access: 'public',
    params: LibraryIconFileParamsSchema,
    kind: 'raw',
    produces: ['image/png', 'image/jpeg'],
    response: BinarySchema,
  }),
};
