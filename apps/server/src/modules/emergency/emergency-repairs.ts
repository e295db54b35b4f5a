import { DEVICE_FAMILIES, EMERGENCY_FAILURE_FAULT } from '@lumigrid/contract';
import type { AlertsHandled } from '../alerts/alerts.service.ts';
import type { EmergencyRepo, LightRow, LogBookInsert } from './emergency.repo.ts';

const EMERGENCY_TYPES: ReadonlySet<number> = new Set(DEVICE_FAMILIES.emergency);
const EMERGENCY_FAULTS: ReadonlySet<number> = new Set(Object.values(EMERGENCY_FAILURE_FAULT));

/** A light as a repair entry names it: where it stood when the repair was written. */
type RepairedLight = Pick<LightRow, 'id' | 'name' | 'addr'> & { projectId: bigint; mapName: string; buildName: string };

/** A repair of a light for the log book: what was done, by whom, and the fault it repaired when known. */
export function repairEntry(
  light: RepairedLight,
  repair: { tenantId: bigint; note: string; by: string; byUserId: bigint; at: Date; faultCode?: number },
): LogBookInsert {
  return {
    tenantId: repair.tenantId,
    projectId: light.projectId,
    at: repair.at,
    type: 'repair',
    deviceId: light.id,
    deviceName: light.name,
    addr: light.addr,
    buildName: light.buildName,
    mapName: light.mapName,
    faultCode: repair.faultCode ?? null,
    note: repair.note,
    by: repair.by,
    byUserId: repair.byUserId,
  };
}

/**
 * Handling an emergency light's failure alert (battery, circuit, lamp, communication) with a note is a repair: the
 * note says what was done, and the log book records it with who handled it, as an inspector expects to find it. A
 * handling without a note says nothing was done, so it writes nothing. Runs in the transaction that marks the alerts.
 */
export async function appendRepairsOfHandledAlerts(repo: Pick<EmergencyRepo, 'light' | 'appendLog'>, handled: AlertsHandled) {
  if (handled.note === '') return;
  for (const alert of handled.alerts) {
    if (alert.deviceId === null || !EMERGENCY_FAULTS.has(alert.code) || !EMERGENCY_TYPES.has(alert.deviceType ?? -1)) continue;
    const light = await repo.light({ tenantId: alert.tenantId, id: alert.deviceId });
    // A light deleted or taken off its map since has no site whose log book could hold the repair.
    if (!light || light.projectId === null) continue;
    await repo.appendLog([
      repairEntry(
        { ...light, projectId: light.projectId },
        {
          tenantId: alert.tenantId,
          note: handled.note,
          by: handled.userName,
          byUserId: handled.userId,
          at: handled.at,
          faultCode: alert.code,
        },
      ),
    ]);
  }
}
