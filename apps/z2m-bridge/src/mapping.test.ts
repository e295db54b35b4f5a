import { describe, expect, it } from 'vitest';
import { isMapped, mapDevice, type Capabilities, type MappedDevice, type RefusedDevice } from './mapping.ts';
import { realDevice, type Fingerprint } from './real-definitions.ts';
import type { Z2mDevice } from './z2m-formats.ts';

type Expected = { kind: MappedDevice['kind']; caps: Partial<Capabilities>; absent?: Array<keyof Capabilities> } | { refused: RegExp };

/** What every light of the cases exposes: on/off and brightness on Zigbee's 0-254 scale. */
const DIMMABLE = { state: 'state', brightness: { property: 'brightness', max: 254 } } as const;
/** A tunable white light, with its model's own range of colour temperature (mired). */
const cct = (min: number, max: number) => ({ light: { ...DIMMABLE, colorTemp: { property: 'color_temp', min, max } } });
/** A colour light: tunable white and xy colour. */
const rgb = (min: number, max: number) => ({ light: { ...cct(min, max).light, color: 'xy' as const } });

/**
 * Real definitions from zigbee-herdsman-converters (model IDs as the devices announce themselves), with what
 * the bridge must make of them: kind, ranges and channels, or the refusal and its reason.
 */
const CASES: Array<[string, Fingerprint, Expected]> = [
  // Lights: the range of colour temperature is each model's own.
  ['Philips Hue white ambiance E27 (9290022169)', { modelID: 'LTA001' }, { kind: 'light-cct', caps: cct(153, 454) }],
  ['Philips Hue white and colour ambiance (9290012573A)', { modelID: 'LCT015' }, { kind: 'light-rgb', caps: rgb(153, 500) }],
  ['Philips Hue white (9290011370)', { modelID: 'LWB010' }, { kind: 'light-dimmer', caps: { light: DIMMABLE } }],
  ['IKEA TRADFRI driver 10 W', { modelID: 'TRADFRI Driver 10W' }, { kind: 'light-dimmer', caps: { light: DIMMABLE } }],
  [
    'IKEA TRADFRI bulb E27 WS opal 980 lm (LED1545G12)',
    { modelID: 'TRADFRI bulb E27 WS opal 980lm' },
    { kind: 'light-cct', caps: cct(250, 454) },
  ],
  ['Innr RB 285 C (RGBW bulb)', { modelID: 'RB 285 C' }, { kind: 'light-rgb', caps: rgb(153, 555) }],
  ['Gledopto GL-C-008 (RGB+CCT controller)', { modelID: 'GL-C-008' }, { kind: 'light-rgb', caps: rgb(150, 500) }],
  ['Gledopto GL-C-009 (mono LED controller)', { modelID: 'GL-C-009' }, { kind: 'light-dimmer', caps: { light: DIMMABLE } }],
  // Switches: one to four outputs, each its own property.
  [
    'IKEA TRADFRI control outlet',
    { modelID: 'TRADFRI control outlet' },
    { kind: 'switch-1', caps: { channels: ['state'] }, absent: ['power'] },
  ],
  ['SONOFF ZBMINI', { modelID: '01MINIZB' }, { kind: 'switch-1', caps: { channels: ['state'] } }],
  [
    'Moes/Tuya 2-gang switch (TS0012)',
    { modelID: 'TS0012', manufacturerName: '_TZ3000_18ejxno0' },
    { kind: 'switch-2', caps: { channels: ['state_left', 'state_right'] } },
  ],
  [
    'Tuya 4-gang switch (TS0014)',
    { modelID: 'TS0014', manufacturerName: '_TZ3000_jr2atpww' },
    { kind: 'switch-4', caps: { channels: ['state_l1', 'state_l2', 'state_l3', 'state_l4'] } },
  ],
  [
    'Aqara double wall switch with metering (QBKG12LM)',
    { modelID: 'lumi.ctrl_ln2.aq1' },
    { kind: 'switch-2', caps: { channels: ['state_left', 'state_right'], power: 'power', energy: 'energy' } },
  ],
  // Plugs with metering: power, energy, voltage and current become telemetry.
  [
    'Innr SP 120 plug',
    { modelID: 'SP 120' },
    { kind: 'switch-1', caps: { channels: ['state'], power: 'power', energy: 'energy', voltage: 'voltage', current: 'current' } },
  ],
  [
    'Aqara smart plug EU (SP-EUC01)',
    { modelID: 'lumi.plug.maeu01' },
    { kind: 'switch-1', caps: { channels: ['state'], power: 'power', energy: 'energy' } },
  ],
  [
    'Tuya metering plug (TS011F)',
    { modelID: 'TS011F', manufacturerName: '_TZ3000_gjnozsaz' },
    { kind: 'switch-1', caps: { channels: ['state'], power: 'power', energy: 'energy' } },
  ],
  // Covers.
  [
    'IKEA FYRTUR roller blind',
    { modelID: 'FYRTUR block-out roller blind', type: 'EndDevice' },
    { kind: 'curtain', caps: { cover: { state: 'state', position: 'position' }, battery: 'battery' } },
  ],
  // Sensors: occupancy wins over illuminance and temperature, which come along; a battery cell's voltage is no mains telemetry.
  [
    'Aqara motion sensor (RTCGQ11LM)',
    { modelID: 'lumi.sensor_motion.aq2', type: 'EndDevice' },
    {
      kind: 'sensor-motion',
      caps: { occupancy: 'occupancy', illuminance: 'illuminance', battery: 'battery' },
      absent: ['voltage', 'temperature'],
    },
  ],
  [
    'Philips Hue motion sensor (SML001)',
    { modelID: 'SML001', type: 'EndDevice' },
    { kind: 'sensor-motion', caps: { occupancy: 'occupancy', illuminance: 'illuminance', temperature: 'temperature', battery: 'battery' } },
  ],
  [
    'Xiaomi light sensor (GZCGQ01LM)',
    { modelID: 'lumi.sen_ill.mgl01', type: 'EndDevice' },
    { kind: 'sensor-daylight', caps: { illuminance: 'illuminance', battery: 'battery' } },
  ],
  [
    'Aqara temperature sensor (WSDCGQ11LM)',
    { modelID: 'lumi.weather', type: 'EndDevice' },
    { kind: 'sensor-temperature', caps: { temperature: 'temperature', battery: 'battery' } },
  ],
  ['SONOFF SNZB-02', { modelID: 'TH01', type: 'EndDevice' }, { kind: 'sensor-temperature', caps: { temperature: 'temperature' } }],
  // Buttons and remotes: their actions are the panel's keys.
  ['Philips Hue dimmer switch (324131092621)', { modelID: 'RWL021', type: 'EndDevice' }, { kind: 'panel-scene6', caps: {} }],
  ['IKEA TRADFRI remote (E1524/E1810)', { modelID: 'TRADFRI remote control', type: 'EndDevice' }, { kind: 'panel-scene6', caps: {} }],
  ['Aqara cube (MFKZQ01LM)', { modelID: 'lumi.sensor_cube', type: 'EndDevice' }, { kind: 'panel-scene6', caps: {} }],
  // Refused: what no lighting kind controls or reports, said why.
  [
    'Zemismart 6-gang switch (TB26-6)',
    { modelID: 'TS0601', manufacturerName: '_TZE200_9mahtqtg' },
    { refused: /6 switch outputs.*at most 4/ },
  ],
  ['Eurotronic Spirit thermostat (SPZB0001)', { modelID: 'SPZB0001', type: 'EndDevice' }, { refused: /climate/ }],
  ['Yale lock (YRD226HA2619)', { modelID: 'YRD226 TSDB', type: 'EndDevice' }, { refused: /lock/ }],
  ['IKEA STARKVIND air purifier', { modelID: 'STARKVIND Air purifier' }, { refused: /fan/ }],
  ['Aqara door and window sensor (MCCGQ11LM)', { modelID: 'lumi.sensor_magnet.aq2', type: 'EndDevice' }, { refused: /senses contact/ }],
  ['Aqara water leak sensor (SJCGQ11LM)', { modelID: 'lumi.sensor_wleak.aq1', type: 'EndDevice' }, { refused: /senses water_leak/ }],
  ['Aqara vibration sensor (DJT11LM)', { modelID: 'lumi.vibration.aq1', type: 'EndDevice' }, { refused: /senses vibration/ }],
];

describe('the mapping of real Zigbee2MQTT definitions to device kinds', () => {
  it('covers at least 20 real definitions, refused ones among them', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(CASES.filter(([, , e]) => 'refused' in e).length).toBeGreaterThanOrEqual(5);
  });

  it.each(CASES)('%s', async (_, fingerprint, expected) => {
    const device = await realDevice(fingerprint, '0x00124b0012345678', 'Test device');
    expect(device, `zigbee-herdsman-converters has no definition for ${fingerprint.modelID}`).toBeDefined();
    const mapped = mapDevice(device!)!;
    if ('refused' in expected) {
      expect(isMapped(mapped), `${fingerprint.modelID} should be refused`).toBe(false);
      expect((mapped as RefusedDevice).reason).toMatch(expected.refused);
      return;
    }
    expect(isMapped(mapped) ? '' : (mapped as RefusedDevice).reason).toBe('');
    const { kind, capabilities, addr, model } = mapped as MappedDevice;
    expect(kind).toBe(expected.kind);
    expect(addr).toBe('00124B0012345678');
    expect(model).toBe(device!.definition!.model);
    expect(capabilities).toMatchObject(expected.caps);
    for (const field of expected.absent ?? []) expect(capabilities[field], field).toBeUndefined();
  });

  it('lists the actions of a remote as its keys, at most six', async () => {
    const remote = mapDevice(
      (await realDevice({ modelID: 'TRADFRI remote control', type: 'EndDevice' }, '0x000b57fffe000001'))!,
    ) as MappedDevice;
    expect(remote.capabilities.actions!.length).toBe(6);
    expect(remote.capabilities.actions![0]).toBe('toggle');
  });

  it('leaves the coordinator out and refuses what Zigbee2MQTT does not support, is disabled or still interviewing', () => {
    const base: Z2mDevice = {
      ieee_address: '0x00124b0000000001',
      type: 'Router',
      network_address: 1,
      supported: true,
      friendly_name: 'x',
      disabled: false,
      definition: { model: 'M', vendor: 'V', description: '', exposes: [], supports_ota: false },
      interview_completed: true,
    };
    expect(mapDevice({ ...base, type: 'Coordinator', definition: null })).toBeUndefined();
    expect(mapDevice({ ...base, supported: false, definition: null })).toMatchObject({ reason: /not supported/ });
    expect(mapDevice({ ...base, disabled: true })).toMatchObject({ reason: /disabled/ });
    expect(mapDevice({ ...base, interview_completed: false })).toMatchObject({ reason: /interview/ });
    expect(mapDevice(base)).toMatchObject({ reason: /fit no Lumigrid kind/ });
  });
});
