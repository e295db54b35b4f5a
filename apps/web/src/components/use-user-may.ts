import { userMay, type Access } from '@lumigrid/contract/browser';
import { useMe } from '../features/auth/api.ts';

/** Whether the signed-in user's role grants `access` (which buttons a page offers); false until the user is known. */
export function useUserMay(access: Access): boolean {
  const { data: user } = useMe();
  return userMay(user, access);
}
