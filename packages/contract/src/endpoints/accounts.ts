import { endpoint } from '../endpoint.ts';
import { sizeText } from '../limits.ts';
import { EmptySchema } from '../common.ts';
import {
  ACCOUNT_IMAGES,
  AccountImageFileParamsSchema,
  AccountImageUploadSchema,
  UpdateProfileBodySchema,
  type AccountImageKind,
} from '../users.ts';
import { BinarySchema } from '../projects.ts';
import {
  AccountExistsQuerySchema,
  AccountExistsSchema,
  AccountParamsSchema,
  ChangePasswordBodySchema,
  LoginUserSchema,
  UpdateLangBodySchema,
} from '../auth.ts';

/** An account picture's upload: png or jpeg within its kind's size, answering the user as `me` does. */
function pictureUpload<P extends string>(path: P, what: string, kind: AccountImageKind, access: 'signedIn' | 'manageAccounts') {
  const limit = ACCOUNT_IMAGES[kind];
  return endpoint({
    method: 'POST',
    path,
    tags: ['accounts'],
    summary: `Upload ${what}: png or jpeg up to ${sizeText(limit.maxBytes)}`,
    description: `multipart/form-data with a \`file\` part; best at ${limit.width} × ${limit.height}. The type is read from the bytes; anything else answers 100013, a larger file 100014. Replaces the one before.`,
    access,
    kind: 'upload',
    body: AccountImageUploadSchema,
    response: LoginUserSchema,
    errors: [100013, 100014],
  });
}

/** The signed-in user's own account: profile, password, language; whether an account name is taken. */
export const accountEndpoints = {
  accountExists: endpoint({
    method: 'GET',
    path: '/api1/user/v1/check_account_exist/:account',
    tags: ['accounts'],
    summary: 'Whether an account (e-mail, phone or name) is taken',
    description:
      'Answers only with a solved captcha (GET captcha; each captcha one try, a wrong or spent one 240101), so account names cannot be ' +
      'listed by a script; at most 30 checks per address in 15 minutes (100003).',
    access: 'public',
    params: AccountParamsSchema,
    query: AccountExistsQuerySchema,
    response: AccountExistsSchema,
    errors: [240101, 100003],
  }),
  profile: endpoint({
    method: 'GET',
    path: '/api1/user/v1/me',
    tags: ['accounts'],
    summary: 'The signed-in user',
    access: 'signedIn',
    response: LoginUserSchema,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api1/user/v1/change_password',
    tags: ['accounts'],
    summary: 'Change the own password; other sessions end',
    access: 'signedIn',
    body: ChangePasswordBodySchema,
    response: EmptySchema,
  }),
  updateProfile: endpoint({
    method: 'POST',
    path: '/api1/user/v1/update',
    tags: ['accounts'],
    summary: 'Edit the signed-in user’s own name, e-mail, phone and remarks',
    description: 'SaaS mode only, and not for sub-accounts above editable (spec section 2); others get 110003.',
    access: 'signedIn',
    body: UpdateProfileBodySchema,
    response: LoginUserSchema,
    errors: [110003, 250001, 100011],
  }),
  setLang: endpoint({
    method: 'POST',
    path: '/api1/user/v1/lang',
    tags: ['accounts'],
    summary: 'Save the interface language of the signed-in user',
    access: 'signedIn',
    body: UpdateLangBodySchema,
    response: EmptySchema,
  }),
  uploadAvatar: pictureUpload('/api1/user/v1/upload', 'the signed-in user’s avatar', 'avatar', 'signedIn'),
  uploadLogo: pictureUpload(
    '/api1/user/v1/upload_logo',
    'the account’s company logo (shown in the header of every user of the account)',
    'logo',
    'manageAccounts',
  ),
  uploadBackground: pictureUpload('/api1/user/v1/upload_home', 'the account’s login background', 'background', 'manageAccounts'),
  removeAvatar: endpoint({
    method: 'GET',
    path: '/api1/user/v1/delete_img',
    tags: ['accounts'],
    summary: 'Remove the signed-in user’s avatar',
    access: 'signedIn',
    audit: { record: true },
    response: LoginUserSchema,
  }),
  removeLogo: endpoint({
    method: 'DELETE',
    path: '/api1/user/v1/delete_logo',
    tags: ['accounts'],
    summary: 'Remove the account’s company logo',
    access: 'manageAccounts',
    response: LoginUserSchema,
  }),
  removeBackground: endpoint({
    method: 'DELETE',
    path: '/api1/user/v1/delete_home',
    tags: ['accounts'],
    summary: 'Remove the account’s login background',
    access: 'manageAccounts',
    response: LoginUserSchema,
  }),
  image: endpoint({
    method: 'GET',
    path: '/api1/user/v1/image/:file',
    tags: ['accounts'],
    summary: 'A stored account picture (png or jpeg)',
    description:
      '{file}: the name in an avatar, logo or background URL. Served without a token, so <img> and the login page can load it: the name carries 128 random bits. Unknown names answer 404.',
    access: 'public',
    params: AccountImageFileParamsSchema,
    kind: 'raw',
    produces: ['image/png', 'image/jpeg'],
    response: BinarySchema,
  }),
};
