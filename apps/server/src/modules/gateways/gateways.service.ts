import { gatewayBindingCalls } from './gateway-binding.ts';
import { createGatewayContext, type GatewayServiceDeps } from './gateway-context.ts';
import { gatewayFirmwareCalls } from './gateway-firmware.ts';
import { gatewayImportCalls } from './gateway-import.ts';
import { gatewaySettingsCalls } from './gateway-settings.ts';
import { gatewaySyncCalls } from './gateway-sync.ts';

/**
 * Gateway management (spec section 7 "Gateways" and the sync helpers), one file per seam: binding and the
 * pool, settings and commands, device import, configuration sync and firmware. Every call checks the
 * caller's authority, then reaches only the caller's tenant's rows.
 */
export function createGatewaysService(deps: GatewayServiceDeps) {
  const context = createGatewayContext(deps);
  return {
    ...gatewayBindingCalls(context),
    ...gatewaySettingsCalls(context),
    ...gatewayImportCalls(context),
    ...gatewaySyncCalls(context),
    ...gatewayFirmwareCalls(context),
  };
}
export type GatewaysService = ReturnType<typeof createGatewaysService>;
