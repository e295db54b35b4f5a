import { ACCOUNT_IMAGES, accountEndpoints as E } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import { sendImage } from '../../http/send-image.ts';
import { uploadRoute } from '../../http/single-file-upload.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { AccountsService } from './accounts.service.ts';

/** The signed-in user's own account (contract endpoints/accounts.ts); its password is the auth module's. */
export function registerAccountRoutes(route: RouteOf, deps: { accounts: AccountsService }) {
  const { accounts } = deps;

  route(E.profile, ({ auth }) => accounts.profile(auth));

  route(E.updateProfile, ({ auth, body }) => accounts.updateProfile(auth, body));

  const pictures = [
    [E.uploadAvatar, E.removeAvatar, 'avatar'],
    [E.uploadLogo, E.removeLogo, 'logo'],
    [E.uploadBackground, E.removeBackground, 'background'],
  ] as const;
  for (const [upload, remove, kind] of pictures) {
    uploadRoute(route, upload, { maxBytes: ACCOUNT_IMAGES[kind].maxBytes }, ({ auth }, file) => accounts.setImage(auth, kind, file));
    route(remove, ({ auth }) => accounts.removeImage(auth, kind));
  }

  route(E.image, async ({ params, reply }) => {
    const found = await accounts.imageFile(params.file);
    if (!found) throw new AppError(100002);
    return sendImage(reply, found);
  });

  route(E.setLang, async ({ auth, body }) => {
    await accounts.setLang(auth, body.lang);
    return null;
  });
}
