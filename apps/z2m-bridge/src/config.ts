import { normaliseMac } from '@lumigrid/protocol';
import type { BridgeOptions } from './bridge.ts';

/** The variables the bridge reads, with what each means (docs/zigbee2mqtt.md lists them too). */
export const BRIDGE_ENV = {
  LUMIGRID_MQTT_URL: 'the Lumigrid broker, e.g. mqtts://lumigrid.example.com:8883 (required)',
  LUMIGRID_GATEWAY_PASSWORD: 'the password the platform provisioned for this gateway (required)',
  LUMIGRID_GATEWAY_MAC: "the gateway MAC to connect as; default: from the coordinator's IEEE address",
  Z2M_MQTT_URL: "Zigbee2MQTT's broker; default the Lumigrid broker",
  Z2M_MQTT_USERNAME: "user name on Zigbee2MQTT's broker",
  Z2M_MQTT_PASSWORD: "password on Zigbee2MQTT's broker",
  Z2M_BASE_TOPIC: "Zigbee2MQTT's mqtt.base_topic (default zigbee2mqtt)",
  LUMIGRID_STATE_FILE: 'where the bridge keeps the configuration across restarts (default lumigrid-z2m-bridge.json)',
} as const;

/** Reads the bridge's configuration once; a bad value is refused with one line naming the variable. */
export function bridgeOptionsFromEnv(env: Record<string, string | undefined>): BridgeOptions {
  const required = (name: keyof typeof BRIDGE_ENV) => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`${name} is missing: ${BRIDGE_ENV[name]}`);
    return value;
  };
  const url = required('LUMIGRID_MQTT_URL');
  const mac = env.LUMIGRID_GATEWAY_MAC?.trim();
  if (mac && !normaliseMac(mac)) throw new Error(`LUMIGRID_GATEWAY_MAC "${mac}" is not twelve hex digits`);
  for (const name of ['LUMIGRID_MQTT_URL', 'Z2M_MQTT_URL'] as const) {
    const value = env[name]?.trim();
    if (value && !/^(mqtts?|wss?|tcp|ssl):\/\//.test(value))
      throw new Error(`${name} "${value}" is not an mqtt://, mqtts:// or ws(s):// URL`);
  }
  const base = env.Z2M_BASE_TOPIC?.trim();
  if (base !== undefined && base !== '' && /[#+]/.test(base)) throw new Error(`Z2M_BASE_TOPIC "${base}" may not hold MQTT wildcards`);
  return {
    url,
    password: required('LUMIGRID_GATEWAY_PASSWORD'),
    ...(mac ? { mac } : {}),
    ...(env.Z2M_MQTT_URL?.trim() ? { z2mUrl: env.Z2M_MQTT_URL.trim() } : {}),
    ...(env.Z2M_MQTT_USERNAME ? { z2mUsername: env.Z2M_MQTT_USERNAME } : {}),
    ...(env.Z2M_MQTT_PASSWORD ? { z2mPassword: env.Z2M_MQTT_PASSWORD } : {}),
    ...(base ? { baseTopic: base } : {}),
    stateFile: env.LUMIGRID_STATE_FILE?.trim() || 'lumigrid-z2m-bridge.json',
  };
}
