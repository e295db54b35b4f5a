import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rowBytesByTenant } from '../../db/row-bytes.ts';
import { deviceStates } from '../../db/schema/index.ts';

/**
 * Every device's last reported state as a subquery named `alias` (columns gateway_id, addr, tenant_id, kind,
 * online, fault, state, reported_at, received_at), which the devices' readers join on the device's gateway and
 * address, in drizzle or in SQL text.
 */
export function deviceStatesAnyTenant(alias = 'ds') {
  return new QueryBuilder()
    .select({
      gatewayId: deviceStates.gatewayId,
      addr: deviceStates.addr,
      tenantId: deviceStates.tenantId,
      kind: deviceStates.kind,
      online: deviceStates.online,
      fault: deviceStates.fault,
      state: deviceStates.state,
      reportedAt: deviceStates.reportedAt,
      receivedAt: deviceStates.receivedAt,
    })
    .from(deviceStates)
    .as(alias);
}

/** The bytes each account's device states take, for the platform's storage count (`rowBytesByTenant`). */
export const deviceStateBytesByTenant = () => rowBytesByTenant(deviceStates);
