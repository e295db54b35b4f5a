import { findByDevice, setLogger } from 'zigbee-herdsman-converters';
import type { Expose, Z2mDevice } from './z2m-formats.ts';

/**
 * Real device definitions from zigbee-herdsman-converters, the library Zigbee2MQTT itself resolves devices
 * with: tests and the stand-in's recording use it to get the exposes Zigbee2MQTT publishes. Development only
 * (zigbee-herdsman-converters is a devDependency): the bridge and the stand-in never import this at run time.
 */

/** A device as it announces itself on the Zigbee network: what zigbee-herdsman-converters matches a definition on. */
export interface Fingerprint {
  modelID: string;
  manufacturerName?: string;
  type?: 'Router' | 'EndDevice';
}

const quiet = () => undefined;
setLogger({ debug: quiet, info: quiet, warning: quiet, error: quiet });

/**
 * The bridge/devices entry Zigbee2MQTT publishes for a device with this fingerprint, with its definition's
 * exposes as JSON (Zigbee2MQTT serialises the same objects), or undefined when no definition matches.
 */
export async function realDevice(fingerprint: Fingerprint, ieee: string, friendlyName = ieee): Promise<Z2mDevice | undefined> {
  const zh = {
    ieeeAddr: ieee,
    modelID: fingerprint.modelID,
    manufacturerName: fingerprint.manufacturerName,
    type: fingerprint.type ?? 'Router',
    powerSource: fingerprint.type === 'EndDevice' ? 'Battery' : 'Mains (single phase)',
    endpoints: [],
    getEndpoint: () => undefined,
  };
  const definition = await findByDevice(zh as unknown as Parameters<typeof findByDevice>[0]);
  if (!definition) return undefined;
  // Zigbee2MQTT's Device.exposes(): a definition's exposes are a list, or a function of the device and its options.
  const exposes = typeof definition.exposes === 'function' ? definition.exposes(zh as never, {}) : definition.exposes;
  return {
    ieee_address: ieee,
    type: zh.type as Z2mDevice['type'],
    network_address: parseInt(ieee.slice(-4), 16),
    supported: true,
    friendly_name: friendlyName,
    disabled: false,
    definition: {
      model: definition.model,
      vendor: definition.vendor,
      description: definition.description,
      exposes: JSON.parse(JSON.stringify(exposes)) as Expose[],
      supports_ota: Boolean(definition.ota),
      source: 'native',
    },
    power_source: zh.powerSource,
    model_id: fingerprint.modelID,
    manufacturer: fingerprint.manufacturerName,
    interview_completed: true,
    interview_state: 'SUCCESSFUL',
  };
}
