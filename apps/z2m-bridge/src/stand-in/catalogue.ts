import type { DeviceKind } from '@lumigrid/protocol';
import type { Fingerprint } from '../real-definitions.ts';

/**
 * The stand-in's installation: real models, each with the fingerprint zigbee-herdsman-converters resolves its
 * definition from, an IEEE address in its vendor's range, and the kind the bridge must make of it (what the
 * end-to-end tests expect to import). `recorded-devices.json` holds what Zigbee2MQTT publishes on
 * bridge/devices for them (record.ts writes it; record.test.ts keeps it equal to the library).
 */
export const STAND_IN_CATALOGUE: ReadonlyArray<{
  friendlyName: string;
  ieee: string;
  fingerprint: Fingerprint;
  kind: DeviceKind | 'refused';
}> = [
  { friendlyName: 'Hall ceiling', ieee: '0x0017880108a1b2c3', fingerprint: { modelID: 'LTA001' }, kind: 'light-cct' },
  { friendlyName: 'Desk strip', ieee: '0x000b57fffe1a2b3c', fingerprint: { modelID: 'TRADFRI Driver 10W' }, kind: 'light-dimmer' },
  {
    friendlyName: 'Entrance switch',
    ieee: '0xa4c1380a1b2c3d4e',
    fingerprint: { modelID: 'TS0012', manufacturerName: '_TZ3000_18ejxno0' },
    kind: 'switch-2',
  },
  {
    friendlyName: 'Hall motion',
    ieee: '0x00158d0001a2b3c4',
    fingerprint: { modelID: 'lumi.sensor_motion.aq2', type: 'EndDevice' },
    kind: 'sensor-motion',
  },
  {
    friendlyName: 'Window blind',
    ieee: '0x000b57fffe4d5e6f',
    fingerprint: { modelID: 'FYRTUR block-out roller blind', type: 'EndDevice' },
    kind: 'curtain',
  },
  { friendlyName: 'Floor lamp plug', ieee: '0x00158d0004c5d6e7', fingerprint: { modelID: 'SP 120' }, kind: 'switch-1' },
  { friendlyName: 'Meeting colour', ieee: '0x0017880109d4e5f6', fingerprint: { modelID: 'LCT015' }, kind: 'light-rgb' },
  { friendlyName: 'Hall dimmer', ieee: '0x0017880106f7a8b9', fingerprint: { modelID: 'RWL021', type: 'EndDevice' }, kind: 'panel-scene6' },
  {
    friendlyName: 'Store door',
    ieee: '0x00158d0002b3c4d5',
    fingerprint: { modelID: 'lumi.sensor_magnet.aq2', type: 'EndDevice' },
    kind: 'refused',
  },
];

/** The Lumigrid address and kind of each catalogue device the bridge offers for import. */
export function expectedImports(): Record<string, DeviceKind> {
  return Object.fromEntries(STAND_IN_CATALOGUE.flatMap((e) => (e.kind === 'refused' ? [] : [[e.ieee.slice(2).toUpperCase(), e.kind]])));
}
