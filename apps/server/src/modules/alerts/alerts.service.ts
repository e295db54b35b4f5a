import {
  defectiveName,
  type Alert,
  type AlertCount,
  type AlertDeleteBody,
  type AlertHandleBody,
  type AlertListBody,
  type AlertReportBody,
  type AlertPage,
  type AlertStatistics,
  type AlertStatisticsBody,
  type DefectiveNotice,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { Clock } from '../../lib/clock.ts';
import { paging } from '../../lib/paging.ts';
import { denyAccess, toId, visibleMapIds, type AccessService } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { RaisedAlert } from './alert-tracker.ts';
import type { Db } from '../../db/client.ts';
import type { AlertFilter, AlertsRepo, HandledAlert } from './alerts.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope' | 'userId'>;

/** Alerts a user just marked handled, with who, when and the note, inside the transaction that marked them. */
export interface AlertsHandled {
  /** The transaction's database: a listener's writes stand or fall with the marking. */
  db: Db;
  alerts: HandledAlert[];
  userId: bigint;
  userName: string;
  note: string;
  at: Date;
}
/** Another domain's part in handling alerts (the emergency log book records a repair). */
export type AlertsHandledListener = (handled: AlertsHandled) => Promise<void>;
type AlertRow = Awaited<ReturnType<AlertsRepo['page']>>['rows'][number];

const idOrNull = (id: bigint | null) => (id === null ? null : String(id));

function mapAlert({ alert, projectName, buildName, mapName }: AlertRow): Alert {
  return {
    id: String(alert.id),
    kind: alert.deviceId === null && alert.addr === '' ? 'gateway' : 'device',
    deviceId: idOrNull(alert.deviceId),
    name: alert.name,
    deviceType: alert.deviceType,
    gatewayId: String(alert.gatewayId ?? ''),
    gatewayName: alert.gatewayName,
    code: alert.code,
    projectId: idOrNull(alert.projectId),
    projectName: projectName ?? '',
    buildId: idOrNull(alert.buildId),
    buildName: buildName ?? '',
    mapId: idOrNull(alert.mapId),
    mapName: mapName ?? '',
    raisedAt: alert.raisedAt.toISOString(),
    clearedAt: alert.clearedAt?.toISOString() ?? null,
    state: alert.handledAt ? 'handled' : 'pending',
    handledBy: alert.handledByName,
    handledAt: alert.handledAt?.toISOString() ?? null,
    note: alert.note,
  };
}

/** The repository's filter for the list's filters, within what the caller sees. */
function filterOf(auth: Caller, body: AlertReportBody): AlertFilter {
  return {
    tenantId: auth.tenantId,
    mapIds: visibleMapIds(auth),
    projectId: body.projectId === undefined ? undefined : toId(body.projectId),
    buildId: body.buildId === undefined ? undefined : toId(body.buildId),
    mapId: body.mapId === undefined ? undefined : toId(body.mapId),
    gatewayId: body.gatewayId === undefined ? undefined : toId(body.gatewayId),
    code: body.code,
    state: body.state,
    open: body.open,
    from: body.from === undefined ? undefined : new Date(body.from),
    to: body.to === undefined ? undefined : new Date(body.to),
  };
}

/** A page cursor: the last row's raised time (epoch ms) and id. */
const cursorOf = (alert: AlertRow['alert']) => `${alert.raisedAt.getTime()}_${alert.id}`;
function parseCursor(after: string): { raisedAt: Date; id: bigint } {
  const [ms, id] = after.split('_');
  return { raisedAt: new Date(Number(ms)), id: BigInt(id!) };
}

/**
 * The fault list of spec section 7 "Status and faults": alerts of the caller's account on the maps it sees,
 * marked handled or deleted; and the defective-device notices (/topic/defective/{userId}) for each alert raised.
 */
export function createAlertsService(deps: {
  repo: AlertsRepo;
  clock: Clock;
  hub: Pick<RealtimeHub, 'publishToUser'>;
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'>;
  /** Checks a gateway in a filter as the caller's. */
  objects: Pick<AccessService, 'requireOne'>;
  /** The caller's display name for "handled by". */
  nameOf: (userId: bigint) => Promise<string>;
}) {
  const { repo } = deps;
  const handledListeners: AlertsHandledListener[] = [];

  /** The ids, all of the caller's account and maps; 110011 otherwise. */
  async function requireOwned(auth: Caller, raw: readonly string[]): Promise<bigint[]> {
    const ids = [...new Set(raw.map(toId))];
    const owned = await repo.owned({ tenantId: auth.tenantId, mapIds: visibleMapIds(auth), ids });
    if (owned.length !== ids.length) denyAccess();
    return ids;
  }

  /** A place of another account in a filter answers 110011, as everywhere, rather than an empty answer. */
  async function requirePlaces(auth: Caller, body: { projectId?: string; buildId?: string; mapId?: string; gatewayId?: string }) {
    if (body.projectId !== undefined) await deps.access.requireProject(auth, body.projectId);
    if (body.buildId !== undefined) await deps.access.requireBuilding(auth, body.buildId);
    if (body.mapId !== undefined) await deps.access.requireMap(auth, body.mapId);
    if (body.gatewayId !== undefined) await deps.objects.requireOne(auth, 'signedIn', 'gateway', body.gatewayId);
  }

  return {
    async page(auth: Caller, body: AlertListBody): Promise<AlertPage> {
      await requirePlaces(auth, body);
      const { offset, limit } = paging(body);
      const { rows, total, totalCapped } = await repo.page({
        ...filterOf(auth, body),
        limit,
        offset,
        after: body.after === undefined ? undefined : parseCursor(body.after),
      });
      const last = rows.at(-1);
      return { total, totalCapped, list: rows.map(mapAlert), next: rows.length === limit && last ? cursorOf(last.alert) : null };
    },

    /** The failure report's rows: every alert the filters take, newest first, a batch at a time. */
    async report(auth: Caller, body: AlertReportBody): Promise<AsyncIterable<Alert[]>> {
      await requirePlaces(auth, body);
      const batches = repo.batches(filterOf(auth, body));
      return (async function* () {
        for await (const rows of batches) yield rows.map(mapAlert);
      })();
    },

    async statistics(auth: Caller, body: AlertStatisticsBody): Promise<AlertStatistics> {
      await requirePlaces(auth, body);
      const from = new Date(body.from);
      const to = new Date(body.to);
      if (!(from.getTime() <= to.getTime())) throw new AppError(100001, 'to');
      const stats = await repo.statistics({
        tenantId: auth.tenantId,
        mapIds: visibleMapIds(auth),
        projectId: body.projectId === undefined ? undefined : toId(body.projectId),
        buildId: body.buildId === undefined ? undefined : toId(body.buildId),
        mapId: body.mapId === undefined ? undefined : toId(body.mapId),
        from,
        to,
        unit: body.unit,
        utcOffsetMin: body.utcOffsetMin ?? 0,
      });
      return {
        total: stats.total,
        pending: stats.pending,
        open: stats.open,
        meanMinutesToClear: stats.meanMinutes === null ? null : Math.round(stats.meanMinutes * 10) / 10,
        byCode: stats.byCode,
        byMap: stats.byMap.map((m) => ({ ...m, mapId: m.mapId === null ? null : String(m.mapId) })),
        overTime: stats.overTime,
      };
    },

    async handle(auth: Caller, body: AlertHandleBody): Promise<AlertCount> {
      assertMay(auth, 'control');
      const ids = await requireOwned(auth, body.ids);
      const by = { userId: auth.userId, userName: await deps.nameOf(auth.userId), note: body.note.trim(), at: deps.clock.now() };
      // What other domains record of the handling is written with it, or neither is.
      const handled = await repo.handle({ tenantId: auth.tenantId, ids, ...by }, async (db, alerts) => {
        for (const listener of handledListeners) await listener({ db, alerts, ...by });
      });
      return { count: handled.length };
    },

    /** Adds another domain's part in handling alerts, run in the transaction that marks them. */
    onHandled(listener: AlertsHandledListener): void {
      handledListeners.push(listener);
    },

    async remove(auth: Caller, body: AlertDeleteBody): Promise<AlertCount> {
      assertMay(auth, 'write');
      const ids = await requireOwned(auth, body.ids);
      return { count: await repo.remove({ tenantId: auth.tenantId, ids }) };
    },

    /** Tells every user of the account who sees the alert's map, once per alert raised. */
    async notify(alert: RaisedAlert): Promise<void> {
      if (alert.deviceId === null) return;
      for (const userId of await repo.audience({ tenantId: alert.tenantId, mapId: alert.mapId })) {
        const notice: DefectiveNotice = {
          userId: String(userId),
          id: String(alert.deviceId),
          name: defectiveName(alert.name),
          code: alert.code,
          ...(alert.mapId !== null ? { mapId: String(alert.mapId) } : {}),
        };
        deps.hub.publishToUser(userId, 'defective', notice);
      }
    },
  };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
