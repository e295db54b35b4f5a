import { Type, type Static } from 'typebox';
import { IdSchema, PageOf } from './common.ts';
import { LIMITS } from './limits.ts';
import { OPERATE_AUTH, USER_AUTH } from './roles.ts';
import { MAIL_PATTERN, PHONE_PATTERN } from './validation.ts';
import { MAP_IMAGE_FILE_PATTERN } from './projects.ts';

/* @__NO_SIDE_EFFECTS__ */
const Text = (max: number, description: string) => Type.String({ maxLength: max, description });
/* @__NO_SIDE_EFFECTS__ */
const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** An optional contact field that an empty string clears. */
/* @__NO_SIDE_EFFECTS__ */
const Clearable = (schema: ReturnType<typeof Type.String>) => Type.Optional(Type.Union([schema, Type.Literal('')]));

/** The fields of spec section 3 an administrator or owner edits on an account they manage; '' clears a field. */
const AccountFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Person in charge (weighted length, CJK counts 3)' })),
  mail: Clearable(Type.String({ maxLength: LIMITS.mail.max, pattern: MAIL_PATTERN, description: 'E-mail address' })),
  phone: Clearable(Type.String({ pattern: PHONE_PATTERN, description: 'Phone number' })),
  company: Type.Optional(Text(150, 'Company (weighted length 50)')),
  country: Type.Optional(Text(50, 'Country')),
  address: Type.Optional(Text(100, 'Address')),
  remarks: Type.Optional(Text(LIMITS.remarks.max, 'Remarks')),
};

/** An account as the account screens show it (spec section 3). */
export const ManagedAccountSchema = Type.Object({
  id: IdSchema,
  account: Type.String(),
  name: Type.String(),
  mail: Nullable('E-mail address'),
  phone: Nullable('Phone number'),
  company: Nullable('Company'),
  country: Nullable('Country'),
  address: Nullable('Address'),
  remarks: Nullable('Remarks'),
  companyCode: Nullable('Company code of the platform the account belongs to'),
  userAuth: Type.Integer({ description: '1 platform administrator, 2 account, 3 sub-account' }),
  operateAuth: Type.Integer({ description: '0 owner, 2 editable, 3 controllable, 4 view only' }),
  pushAuth: Type.Boolean({ description: 'The push permission: an administrator who reviews push news (docs/roles.md)' }),
  enabled: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  avatar: Nullable('URL of the avatar'),
  logo: Nullable('URL of the company logo'),
  loginBackground: Nullable('URL of the login background'),
  projectIds: Type.Union([Type.Array(IdSchema), Type.Null()], {
    description: 'A sub-account’s projects (with their sub-projects); null when it sees every project of its account',
  }),
});
export type ManagedAccount = Static<typeof ManagedAccountSchema>;

export const ManagedAccountPageSchema = PageOf(ManagedAccountSchema);
export type ManagedAccountPage = Static<typeof ManagedAccountPageSchema>;

/** Which accounts a list shows: administrators (1), accounts (2), or the caller's sub-accounts (3). */
export const AccountListParamsSchema = Type.Object({
  userAuth: Type.Integer({ minimum: USER_AUTH.admin, maximum: USER_AUTH.subAccount }),
  page: Type.Integer({ minimum: 1, maximum: 100_000 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100 }),
});
export const AccountListQuerySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the account, name, e-mail, phone or company' })),
});

const SubAccountAuthority = Type.Union(
  [Type.Literal(OPERATE_AUTH.editable), Type.Literal(OPERATE_AUTH.controllable), Type.Literal(OPERATE_AUTH.viewOnly)],
  { description: 'A sub-account’s authority: 2 editable, 3 controllable, 4 view only' },
);

const ProjectScopeField = Type.Optional(
  Type.Union([Type.Array(IdSchema, { minItems: 1, maxItems: 1000 }), Type.Null()], {
    description: 'A sub-account’s projects: the ids it may see (with their sub-projects), or null for every project',
  }),
);

export const AddAccountBodySchema = Type.Object({
  userAuth: Type.Union([Type.Literal(USER_AUTH.admin), Type.Literal(USER_AUTH.account), Type.Literal(USER_AUTH.subAccount)], {
    description: 'What to create: an administrator or an account (the platform administrator), a sub-account (an account owner)',
  }),
  account: Type.String({ minLength: 1, maxLength: 100, description: 'The sign-in name (weighted length 50)' }),
  password: Type.String({ minLength: LIMITS.password.min, maxLength: LIMITS.password.max, description: 'The first password' }),
  operateAuth: Type.Optional(SubAccountAuthority),
  projectIds: ProjectScopeField,
  ...AccountFields,
});
export type AddAccountBody = Static<typeof AddAccountBodySchema>;

export const UpdateAccountBodySchema = Type.Object({
  id: IdSchema,
  operateAuth: Type.Optional(SubAccountAuthority),
  enabled: Type.Optional(Type.Boolean({ description: 'false disables the account: its sessions end at once' })),
  pushAuth: Type.Optional(
    Type.Boolean({
      description:
        'Grants or takes the push permission (push review); administrators only, set by another administrator (110003 otherwise)',
    }),
  ),
  projectIds: ProjectScopeField,
  ...AccountFields,
});
export type UpdateAccountBody = Static<typeof UpdateAccountBodySchema>;

/** The user centre's own-info form (spec section 2): the fields of the signed-in user the browser shows. */
export const UpdateProfileBodySchema = Type.Object({
  name: AccountFields.name,
  mail: AccountFields.mail,
  phone: AccountFields.phone,
  remarks: AccountFields.remarks,
});
export type UpdateProfileBody = Static<typeof UpdateProfileBodySchema>;

export const AccountIdParamsSchema = Type.Object({ id: IdSchema });

export const ResetAccountPasswordBodySchema = Type.Object({
  id: IdSchema,
  channel: Type.Union([Type.Literal('mail'), Type.Literal('sms')], { description: 'Where the new password is sent' }),
});
export type ResetAccountPasswordBody = Static<typeof ResetAccountPasswordBodySchema>;

/** The pictures of an account (spec section 5): png or jpeg, each up to its size, with the size it is best at. */
export const ACCOUNT_IMAGES = {
  avatar: { maxBytes: 1024 * 1024, width: 512, height: 512 },
  logo: { maxBytes: 1024 * 1024, width: 750, height: 750 },
  background: { maxBytes: 800 * 1024, width: 1400, height: 900 },
} as const;
export type AccountImageKind = keyof typeof ACCOUNT_IMAGES;

/** The multipart fields of an account picture upload: the `file` part alone. */
export const AccountImageUploadSchema = Type.Object({
  file: Type.Optional(Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The picture: png or jpeg' })),
});

/** {file}: the name in an account picture's URL. */
export const AccountImageFileParamsSchema = Type.Object({
  file: Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: '32 hex digits and .png or .jpg' }),
});

/** Where an account picture is served from. */
export function accountImageUrl(file: string): string {
  return `/api1/user/v1/image/${file}`;
}
