import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { GatewayBindBodySchema, GatewayParamsBodySchema, GatewaySchema, SYNC_STATUS } from './index.ts';

describe('gateways contract', () => {
  it('accepts a MAC with or without separators and nothing else', () => {
    for (const mac of ['AABBCCDDEEFF', 'aa:bb:cc:dd:ee:ff', 'AA-BB-CC-DD-EE-FF'])
      expect(Value.Check(GatewayBindBodySchema, { mac, mapId: '1' }), mac).toBe(true);
    for (const mac of ['AABBCCDDEE', 'GGBBCCDDEEFF', 'AA:BB:CC:DD:EE:FF:00', ''])
      expect(Value.Check(GatewayBindBodySchema, { mac, mapId: '1' }), mac).toBe(false);
  });

  it('checks parameter ranges of spec section 5', () => {
    expect(Value.Check(GatewayParamsBodySchema, { id: '1', reportIntervalS: 10, channel: 26 })).toBe(true);
    expect(Value.Check(GatewayParamsBodySchema, { id: '1', reportIntervalS: 901 })).toBe(false);
    expect(Value.Check(GatewayParamsBodySchema, { id: '1', channel: 10 })).toBe(false);
  });

  it('carries every gateway field of spec section 3', () => {
    const keys = Object.keys(GatewaySchema.properties);
    for (const k of [
      'name',
      'ip',
      'mac',
      'networkAddress',
      'panId',
      'channel',
      'versions',
      'largeGroupNumber',
      'online',
      'bridgeQuantity',
      'syncStatus',
      'configVersion',
      'syncedVersion',
      'projectName',
      'buildName',
      'mapName',
    ])
      expect(keys).toContain(k);
    expect(Object.keys(GatewaySchema.properties.versions.properties)).toEqual(['gateway', 'zigbee', 'zigbee2', 'zigbee3', 'wisun', 'plc']);
    expect(SYNC_STATUS.syncing).toBe(2);
    expect(SYNC_STATUS.synced).toBe(3);
  });
});

describe('gateways contract literals', () => {
  it('keeps the literal unions in the schemas and the constants in step', async () => {
    const { FirmwareParamsSchema, GATEWAY_ACTIVITY, GATEWAY_FIRMWARE_TARGETS } = await import('./index.ts');
    for (const t of GATEWAY_FIRMWARE_TARGETS) expect(Value.Check(FirmwareParamsSchema, { id: '1', target: t })).toBe(true);
    expect(Value.Check(FirmwareParamsSchema, { id: '1', target: 'bios' })).toBe(false);
    for (const a of GATEWAY_ACTIVITY) expect(Value.Check(GatewaySchema.properties.activity, a)).toBe(true);
  });
});
