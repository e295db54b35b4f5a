import { expect, it } from 'vitest';
import { recordCatalogue } from './record.ts';
import { recordedDevices } from './stand-in.ts';

it('plays the definitions zigbee-herdsman-converters has now (run record.ts after upgrading it)', async () => {
  expect(recordedDevices()).toEqual(await recordCatalogue());
});
