import { describe, expect, it } from 'vitest';
import { deviceState, kelvinToMireds, rgbToXy, setPayloadFor, telemetrySample, xyToRgb, groupLightFeatures } from './convert.ts';
import { mapDevice, type MappedDevice } from './mapping.ts';
import { recordedDevices } from './stand-in/stand-in.ts';

const catalogue = new Map(
  recordedDevices().flatMap((d) => {
    const mapped = mapDevice(d);
    return mapped && 'kind' in mapped ? [[d.friendly_name, mapped]] : [];
  }),
);
const device = (name: string): MappedDevice => catalogue.get(name)!;

describe('protocol actions as Zigbee2MQTT /set payloads', () => {
  it('dims on the 0-254 scale Zigbee2MQTT uses, and level 0 switches off', () => {
    const driver = device('Desk strip').capabilities;
    expect(setPayloadFor(driver, { level: 127 })).toEqual({ state: 'ON', brightness: 127 });
    expect(setPayloadFor(driver, { level: 254 })).toEqual({ state: 'ON', brightness: 254 });
    expect(setPayloadFor(driver, { level: 0 })).toEqual({ state: 'OFF' });
    expect(setPayloadFor(driver, { on: true, fade: 15 })).toEqual({ state: 'ON', transition: 1.5 });
  });

  it("turns kelvin into mireds within the definition's range", () => {
    const hue = device('Hall ceiling').capabilities;
    expect(hue.light?.colorTemp).toEqual({ property: 'color_temp', min: 153, max: 454 });
    expect(setPayloadFor(hue, { cct: 2700 })).toEqual({ color_temp: 370 });
    // 1800 K is 556 mireds, warmer than this bulb goes; 10000 K is 100, cooler than it goes.
    expect(setPayloadFor(hue, { cct: 1800 })).toEqual({ color_temp: 454 });
    expect(setPayloadFor(hue, { cct: 10_000 })).toEqual({ color_temp: 153 });
    expect(kelvinToMireds(4000, { min: 250, max: 454 })).toBe(250);
    // A dimmable driver has no colour temperature: nothing to send.
    expect(setPayloadFor(device('Desk strip').capabilities, { cct: 3000 })).toBeUndefined();
  });

  it('sends colour as CIE xy to an xy light, and reads it back as the same hue', () => {
    const colour = device('Meeting colour').capabilities;
    const payload = setPayloadFor(colour, { rgb: [255, 0, 0] })!;
    expect(payload.color).toEqual(rgbToXy([255, 0, 0]));
    // The sRGB red primary sits at x 0.64, y 0.33.
    expect(rgbToXy([255, 0, 0]).x).toBeCloseTo(0.64, 3);
    expect(rgbToXy([255, 0, 0]).y).toBeCloseTo(0.33, 3);
    expect(xyToRgb(0.64, 0.33)).toEqual([255, 0, 0]);
    const orange = rgbToXy([255, 128, 0]);
    expect(xyToRgb(orange.x, orange.y)).toEqual([255, 128, 0]);
  });

  it("switches a 2-gang switch's channels by their own properties", () => {
    const gang = device('Entrance switch').capabilities;
    expect(setPayloadFor(gang, { on: true, channel: 2 })).toEqual({ state_right: 'ON' });
    expect(setPayloadFor(gang, { on: false })).toEqual({ state_left: 'OFF', state_right: 'OFF' });
    expect(setPayloadFor(gang, { on: true, channel: 3 })).toBeUndefined();
  });

  it('moves a blind to a position, opens, closes and stops it', () => {
    const blind = device('Window blind').capabilities;
    expect(setPayloadFor(blind, { level: 127 })).toEqual({ position: 50 });
    expect(setPayloadFor(blind, { on: true })).toEqual({ state: 'OPEN' });
    expect(setPayloadFor(blind, { on: false })).toEqual({ state: 'CLOSE' });
    expect(setPayloadFor(blind, { stop: true })).toEqual({ state: 'STOP' });
  });

  it('gives a group the narrowest colour temperature range of its lights', () => {
    const features = groupLightFeatures([device('Hall ceiling').capabilities, device('Meeting colour').capabilities]);
    expect(features.colorTemp).toEqual({ property: 'color_temp', min: 153, max: 454 });
    expect(setPayloadFor({ light: features, ota: false }, { level: 200, cct: 6500 })).toEqual({
      state: 'ON',
      brightness: 200,
      color_temp: 154,
    });
  });
});

describe('Zigbee2MQTT states as platform reports', () => {
  it('reads a light, a switch, a blind and a motion sensor', () => {
    expect(deviceState(device('Hall ceiling'), { state: 'ON', brightness: 127, color_temp: 370 }, true)).toEqual({
      addr: '0017880108A1B2C3',
      kind: 'light-cct',
      online: true,
      fault: 0,
      on: true,
      level: 127,
      cct: 2703,
    });
    expect(deviceState(device('Entrance switch'), { state_left: 'OFF', state_right: 'ON' }, true).channels).toEqual([false, true]);
    expect(deviceState(device('Window blind'), { position: 40, battery: 87 }, true)).toMatchObject({ position: 40, battery: 87 });
    expect(deviceState(device('Hall motion'), { occupancy: true, illuminance: 45, battery: 91, voltage: 3005 }, true)).toMatchObject({
      occupied: true,
      lux: 45,
      battery: 91,
    });
  });

  it('marks an unavailable device offline with the offline fault', () => {
    expect(deviceState(device('Desk strip'), { state: 'ON', brightness: 10 }, false)).toMatchObject({ online: false, fault: 2 });
  });

  it('turns a metering plug into telemetry: W, kWh to Wh, V, A', () => {
    expect(telemetrySample(device('Floor lamp plug'), { state: 'ON', power: 60, energy: 1.25, voltage: 230, current: 0.261 })).toEqual({
      addr: '00158D0004C5D6E7',
      power: 60,
      energyWh: 1250,
      voltage: 230,
      current: 0.261,
    });
    expect(telemetrySample(device('Desk strip'), { state: 'ON' })).toBeUndefined();
  });
});
