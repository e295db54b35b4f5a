import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { expectRefusedAtStart } from '../test/config.fixtures.ts';

describe('demo site settings', () => {
  it('is on by default for the embedded database and broker, with a demo account and real time', () => {
    expect(loadConfig({})).toMatchObject({ demo: true, demoAccount: 'demo@lumigrid.local', demoPassword: undefined, demoTimeFactor: 1 });
  });

  it('is off by default for a real installation: PostgreSQL or an external broker', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z' }).demo).toBe(false);
    expect(loadConfig({ MQTT_URL: 'mqtt://server:pw@broker:1883' }).demo).toBe(false);
  });

  it('follows DEMO when it is given', () => {
    expect(loadConfig({ DEMO: 'off' }).demo).toBe(false);
    expect(loadConfig({ DEMO: 'on', DATABASE_URL: 'postgres://x@y/z' }).demo).toBe(true);
    expect(loadConfig({ DEMO_ACCOUNT: 'show@example.com', DEMO_PASSWORD: 'Show-Pass-1', DEMO_TIME_FACTOR: '60' })).toMatchObject({
      demoAccount: 'show@example.com',
      demoPassword: 'Show-Pass-1',
      demoTimeFactor: 60,
    });
  });

  it.each([
    [{ DEMO: 'yes' }, /DEMO must be on or off/],
    [{ DEMO: 'on', MQTT_URL: 'mqtt://broker:1883' }, /DEMO=on needs the embedded MQTT broker/],
    [{ DEMO_TIME_FACTOR: '0' }, /DEMO_TIME_FACTOR/],
    [{ DEMO_TIME_FACTOR: 'fast' }, /DEMO_TIME_FACTOR/],
    [{ DEMO_TIME_FACTOR: '5000' }, /DEMO_TIME_FACTOR/],
  ])('names a wrong setting: %o', (env, message) => {
    expectRefusedAtStart(env, message);
  });
});
