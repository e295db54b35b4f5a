/**
 * Writes recorded-devices.json: the bridge/devices entries Zigbee2MQTT publishes for the stand-in's
 * catalogue, from zigbee-herdsman-converters. Run after upgrading the library: `npx tsx src/stand-in/record.ts`.
 */
import { writeFileSync } from 'node:fs';
import { realDevice } from '../real-definitions.ts';
import type { Z2mDevice } from '../z2m-formats.ts';
import { STAND_IN_CATALOGUE } from './catalogue.ts';

export async function recordCatalogue(): Promise<Z2mDevice[]> {
  const devices: Z2mDevice[] = [];
  for (const entry of STAND_IN_CATALOGUE) {
    const device = await realDevice(entry.fingerprint, entry.ieee, entry.friendlyName);
    if (!device) throw new Error(`zigbee-herdsman-converters has no definition for ${entry.fingerprint.modelID}`);
    devices.push(device);
  }
  return devices;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const devices = await recordCatalogue();
  writeFileSync(new URL('./recorded-devices.json', import.meta.url), `${JSON.stringify(devices, null, 2)}\n`);
  console.log(`recorded ${devices.length} devices`);
}
