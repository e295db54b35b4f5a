/** The calls of gateways: binding, settings, commands, import, sync, firmware, bridges (filled in from the domain's routes). */
export const gatewayEndpoints = {};
