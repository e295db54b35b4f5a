import type { EndpointSpec } from '../endpoint.ts';
import { authEndpoints } from './auth.ts';
import { accountEndpoints } from './accounts.ts';
import { brandingEndpoints } from './branding.ts';
import { projectEndpoints } from './projects.ts';
import { mapEndpoints } from './maps.ts';
import { gatewayEndpoints } from './gateways.ts';
import { deviceEndpoints } from './devices.ts';
import { libraryEndpoints } from './library.ts';
import { groupEndpoints } from './groups.ts';
import { sceneEndpoints } from './scenes.ts';
import { alertEndpoints } from './alerts.ts';
import { alarmEndpoints } from './alarms.ts';
import { recipientEndpoints } from './recipients.ts';
import { energyEndpoints } from './energy.ts';
import { emergencyEndpoints } from './emergency.ts';
import { heatmapEndpoints } from './heatmap.ts';
import { userEndpoints } from './users.ts';
import { outboxEndpoints, systemEndpoints } from './system.ts';
import { virtualEndpoints } from './virtual.ts';
import { pushEndpoints } from './push.ts';
import { backupEndpoints } from './backup.ts';
import { auditEndpoints } from './audit.ts';
import { apiKeyEndpoints } from './api-keys.ts';
import { webhookEndpoints } from './webhooks.ts';
import { ssoEndpoints } from './sso.ts';
import { platformEndpoints } from './platform.ts';

export * from './auth.ts';
export * from './accounts.ts';
export * from './branding.ts';
export * from './projects.ts';
export * from './maps.ts';
export * from './gateways.ts';
export * from './devices.ts';
export * from './library.ts';
export * from './groups.ts';
export * from './scenes.ts';
export * from './alerts.ts';
export * from './alarms.ts';
export * from './recipients.ts';
export * from './energy.ts';
export * from './emergency.ts';
export * from './heatmap.ts';
export * from './users.ts';
export * from './system.ts';
export * from './virtual.ts';
export * from './push.ts';
export * from './backup.ts';
export * from './audit.ts';
export * from './api-keys.ts';
export * from './webhooks.ts';
export * from './sso.ts';
export * from './platform.ts';

/** Every endpoint of the API, by domain: the server registers exactly these, and a test holds OpenAPI to them. */
export const ENDPOINT_GROUPS = {
  system: systemEndpoints,
  outbox: outboxEndpoints,
  auth: authEndpoints,
  accounts: accountEndpoints,
  users: userEndpoints,
  branding: brandingEndpoints,
  projects: projectEndpoints,
  maps: mapEndpoints,
  gateways: gatewayEndpoints,
  devices: deviceEndpoints,
  library: libraryEndpoints,
  groups: groupEndpoints,
  scenes: sceneEndpoints,
  alerts: alertEndpoints,
  alarms: alarmEndpoints,
  recipients: recipientEndpoints,
  energy: energyEndpoints,
  virtual: virtualEndpoints,
  push: pushEndpoints,
  emergency: emergencyEndpoints,
  heatmap: heatmapEndpoints,
  backup: backupEndpoints,
  audit: auditEndpoints,
  apiKeys: apiKeyEndpoints,
  webhooks: webhookEndpoints,
  sso: ssoEndpoints,
  platform: platformEndpoints,
} satisfies Record<string, Record<string, EndpointSpec>>;

/** Every endpoint of the API as one list. */
export function allEndpoints(): EndpointSpec[] {
  return Object.values(ENDPOINT_GROUPS).flatMap((group) => Object.values(group) as EndpointSpec[]);
}

let ids: WeakMap<EndpointSpec, string> | undefined;

/** The endpoint's id in the table, `<domain>.<name>` (`devices.control`): how the audit trail names it. */
export function endpointId(spec: EndpointSpec): string | undefined {
  if (!ids) {
    ids = new WeakMap();
    for (const [domain, group] of Object.entries(ENDPOINT_GROUPS))
      for (const [name, e] of Object.entries(group as Record<string, EndpointSpec>)) ids.set(e, `${domain}.${name}`);
  }
  return ids.get(spec);
}
