import {
  ALARM_SEVERITIES,
  withDefaultCodes,
  type Alarm,
  type AlarmAckBody,
  type AlarmCount,
  type AlarmListBody,
  type AlarmPage,
  type AlarmSettings,
  type AlarmSettingsQuery,
  type AlarmShelveBody,
  type AlarmSummary,
  type AlarmUnshelveBody,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { Clock } from '../../lib/clock.ts';
import { paging } from '../../lib/paging.ts';
import { denyAccess, toId, visibleMapIds } from '../access/access.ts';
import type { AlarmKeeper } from './alarm-keeper.ts';
import type { AlarmRow, AlarmsRepo } from './alarms.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope' | 'userId'>;

const idOrNull = (id: bigint | null) => (id === null ? null : String(id));
const timeOrNull = (at: Date | null) => at?.toISOString() ?? null;

/** An alarm as the list shows it; a shelving whose time is up shows as none, even before the tick writes it. */
export function mapAlarm(row: AlarmRow, now: Date): Alarm {
  const shelved = row.shelvedUntil !== null && row.shelvedUntil.getTime() > now.getTime();
  return {
    id: String(row.id),
    code: row.code,
    severity: row.severity,
    state: row.state,
    chattering: row.chattering,
    raiseCount: row.raiseCount,
    deviceId: idOrNull(row.deviceId),
    name: row.name,
    gatewayId: idOrNull(row.gatewayId),
    gatewayName: row.gatewayName,
    projectId: idOrNull(row.projectId),
    mapId: idOrNull(row.mapId),
    raisedAt: row.raisedAt.toISOString(),
    clearedAt: timeOrNull(row.clearedAt),
    ackedAt: timeOrNull(row.ackedAt),
    ackedBy: row.ackedByName,
    shelvedUntil: shelved ? timeOrNull(row.shelvedUntil) : null,
    shelvedReason: shelved ? row.shelvedReason : null,
    shelvedBy: shelved ? row.shelvedByName : null,
  };
}

/**
 * The alarm calls (docs/alarms.md): the list and the banner of the alarms the caller sees, acknowledging and
 * shelving them through the alarm keeper, and a project's alarm settings.
 */
export function createAlarmsService(deps: {
  repo: AlarmsRepo;
  keeper: Pick<AlarmKeeper, 'acknowledge' | 'shelve' | 'unshelve' | 'settingsChanged'>;
  clock: Clock;
  /** The caller's display name, for "acknowledged by". */
  nameOf: (userId: bigint) => Promise<string>;
}) {
  const { repo, keeper, clock } = deps;

  /** The alarms, all of the caller's account and maps; 110011 otherwise, before anything changes. */
  async function requireOwned(auth: Caller, raw: readonly string[]): Promise<AlarmRow[]> {
    const ids = [...new Set(raw.map(toId))];
    const rows = await repo.owned({ tenantId: auth.tenantId, mapIds: visibleMapIds(auth), ids });
    if (rows.length !== ids.length) denyAccess();
    return rows;
  }

  return {
    async page(auth: Caller, body: AlarmListBody): Promise<AlarmPage> {
      const { offset, limit } = paging(body);
      const now = clock.now();
      const { rows, total } = await repo.page({
        tenantId: auth.tenantId,
        mapIds: visibleMapIds(auth),
        projectId: body.projectId === undefined ? undefined : toId(body.projectId),
        states: body.states,
        severity: body.severity,
        shelved: body.shelved,
        now,
        limit,
        offset,
      });
      return { total, list: rows.map((row) => mapAlarm(row, now)) };
    },

    async summary(auth: Caller): Promise<AlarmSummary> {
      const rows = await repo.summary({ tenantId: auth.tenantId, mapIds: visibleMapIds(auth), now: clock.now() });
      const unacked = Object.fromEntries(ALARM_SEVERITIES.map((s) => [s, 0])) as AlarmSummary['unacked'];
      let shelved = 0;
      for (const row of rows) {
        unacked[row.severity] = row.unacked;
        shelved += row.shelved;
      }
      return { unacked, shelved };
    },

    async acknowledge(auth: Caller, body: AlarmAckBody): Promise<AlarmCount> {
      assertMay(auth, 'control');
      const rows = await requireOwned(auth, body.ids);
      return { count: await keeper.acknowledge(rows, await deps.nameOf(auth.userId)) };
    },

    async shelve(auth: Caller, body: AlarmShelveBody): Promise<AlarmCount> {
      assertMay(auth, 'control');
      const reason = body.reason.trim();
      if (!reason) throw new AppError(100001, 'reason');
      const rows = await requireOwned(auth, body.ids);
      const until = new Date(clock.now().getTime() + body.minutes * 60_000);
      return { count: await keeper.shelve(rows, until, reason, await deps.nameOf(auth.userId)) };
    },

    async unshelve(auth: Caller, body: AlarmUnshelveBody): Promise<AlarmCount> {
      assertMay(auth, 'control');
      const rows = await requireOwned(auth, body.ids);
      return { count: await keeper.unshelve(rows, await deps.nameOf(auth.userId)) };
    },

    /** The project was checked by its endpoint (objects). */
    async settings(_auth: Caller, query: AlarmSettingsQuery): Promise<AlarmSettings> {
      const projectId = toId(query.projectId);
      const [codes, rules] = await Promise.all([repo.codeSettings({ projectId }), repo.rules({ projectId })]);
      return {
        projectId: query.projectId,
        codes: withDefaultCodes(codes),
        rules: rules.map(({ name, severities, steps, lang }) => ({ name, severities, steps, lang })),
      };
    },

    async saveSettings(auth: Caller, body: AlarmSettings): Promise<AlarmSettings> {
      assertMay(auth, 'write');
      if (new Set(body.codes.map((c) => c.code)).size !== body.codes.length) throw new AppError(100001, 'codes');
      const projectId = toId(body.projectId);
      const rules = body.rules.map((rule) => ({
        ...rule,
        name: rule.name.trim(),
        steps: [...rule.steps].sort((x, y) => x.afterMinutes - y.afterMinutes),
      }));
      if (rules.some((rule) => !rule.name)) throw new AppError(100001, 'name');
      await repo.saveSettings({ tenantId: auth.tenantId, projectId, codes: body.codes, rules });
      keeper.settingsChanged(projectId);
      return this.settings(auth, { projectId: body.projectId });
    },
  };
}
export type AlarmsService = ReturnType<typeof createAlarmsService>;
