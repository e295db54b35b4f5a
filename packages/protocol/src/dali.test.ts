import { describe, expect, it } from 'vitest';
import { DALI_LIMITS, DeviceAddrSchema, daliDeviceAddr, daliShortAddress } from './index.ts';
import { Value } from 'typebox/value';

describe('DALI device addresses', () => {
  it('name the bus by its bridge and the gear by its short address', () => {
    expect(daliDeviceAddr('00124B0000A1B2C3', 5)).toBe('4B0000A1B2C3DA05');
    expect(daliDeviceAddr('00124b0000a1b2c3', 63)).toBe('4B0000A1B2C3DA3F');
    for (const short of [DALI_LIMITS.shortAddress.min, 17, DALI_LIMITS.shortAddress.max]) {
      const addr = daliDeviceAddr('00124B0000A1B2C3', short);
      expect(Value.Check(DeviceAddrSchema, addr)).toBe(true);
      expect(daliShortAddress(addr)).toBe(short);
    }
  });

  it('refuses short addresses outside 0-63 and reads none from other addresses', () => {
    expect(() => daliDeviceAddr('00124B0000A1B2C3', 64)).toThrow(RangeError);
    expect(() => daliDeviceAddr('00124B0000A1B2C3', -1)).toThrow(RangeError);
    expect(daliShortAddress('00124B0000A1B2C3')).toBeUndefined();
    expect(daliShortAddress('4B0000A1B2C3DA40')).toBeUndefined();
  });
});
