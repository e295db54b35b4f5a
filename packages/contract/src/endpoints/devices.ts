/** The calls of devices: control, parameters, lists, deletion, telemetry (filled in from the domain's routes). */
export const deviceEndpoints = {};
