import { backupEndpoints } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { BackupService } from './backup.service.ts';

export function registerBackupRoutes(route: RouteOf, deps: { backup: BackupService }) {
  route(backupEndpoints.directorys, ({ auth, body }) => deps.backup.directorys(auth, body));
  route(backupEndpoints.backup, ({ auth, body }) => deps.backup.backup(auth, body));
  route(backupEndpoints.backupMsg, ({ auth, query }) => deps.backup.backupMsg(auth, query));
  route(backupEndpoints.restore, ({ auth, body }) => deps.backup.restore(auth, body));
  route(backupEndpoints.progress, ({ auth, params }) => deps.backup.progress(auth, params.id));
}
