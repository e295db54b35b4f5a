import { describe, expect, it } from 'vitest';
import { bridgeOptionsFromEnv } from './config.ts';

describe("the bridge's configuration from the environment", () => {
  const base = { LUMIGRID_MQTT_URL: 'mqtts://lumigrid.example.com:8883', LUMIGRID_GATEWAY_PASSWORD: 'secret' };

  it('takes the Lumigrid broker for Zigbee2MQTT too unless told otherwise', () => {
    expect(bridgeOptionsFromEnv(base)).toEqual({ url: base.LUMIGRID_MQTT_URL, password: 'secret', stateFile: 'lumigrid-z2m-bridge.json' });
    expect(
      bridgeOptionsFromEnv({
        ...base,
        Z2M_MQTT_URL: 'mqtt://127.0.0.1:1883',
        Z2M_BASE_TOPIC: 'zigbee',
        LUMIGRID_GATEWAY_MAC: 'a4:c1:38:0b:22:9f',
      }),
    ).toMatchObject({
      z2mUrl: 'mqtt://127.0.0.1:1883',
      baseTopic: 'zigbee',
      mac: 'a4:c1:38:0b:22:9f',
    });
  });

  it('refuses a missing or malformed value with one line naming the variable', () => {
    expect(() => bridgeOptionsFromEnv({ LUMIGRID_GATEWAY_PASSWORD: 'x' })).toThrow(/^LUMIGRID_MQTT_URL is missing/);
    expect(() => bridgeOptionsFromEnv({ LUMIGRID_MQTT_URL: 'mqtt://h' })).toThrow(/^LUMIGRID_GATEWAY_PASSWORD is missing/);
    expect(() => bridgeOptionsFromEnv({ ...base, LUMIGRID_GATEWAY_MAC: 'not-a-mac' })).toThrow(/^LUMIGRID_GATEWAY_MAC/);
    expect(() => bridgeOptionsFromEnv({ ...base, Z2M_MQTT_URL: 'http://x' })).toThrow(/^Z2M_MQTT_URL/);
    expect(() => bridgeOptionsFromEnv({ ...base, Z2M_BASE_TOPIC: 'zigbee/#' })).toThrow(/^Z2M_BASE_TOPIC/);
  });
});
