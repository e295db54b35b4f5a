import { FAULT_CODES } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { runConsoleCommand } from './console-commands.ts';
import { faultCodesOf } from './devices.ts';
import { createFleet } from './fleet.ts';

describe('faults on demand at the simulator console', () => {
  const fleet = createFleet({ url: 'mqtt://127.0.0.1:1', count: 2, password: 'x', activityIntervalS: 0 });
  const gateway = fleet.gateways[1]!;
  const light = [...gateway.devices.values()].find((d) => d.state.kind === 'light-cct')!.state;

  it('raises and clears a fault of a device of a gateway named by number or MAC', () => {
    expect(runConsoleCommand(fleet, `fault 2 ${light.addr.toLowerCase()} 8`)).toBe(`${gateway.mac} ${light.addr}: fault 8`);
    expect(light.fault).toBe(8);
    runConsoleCommand(fleet, `clear ${gateway.mac} ${light.addr}`);
    expect(light.fault).toBe(0);
    runConsoleCommand(fleet, `fault 2 ${light.addr} 2`);
    expect(light).toMatchObject({ fault: 2, online: false });
    runConsoleCommand(fleet, `clear 2 ${light.addr}`);
    expect(light.online).toBe(true);
  });

  it('makes a device flap and steady again, and says what it did not understand', () => {
    runConsoleCommand(fleet, `flap 2 ${light.addr}`);
    expect(gateway.faults.flapping.has(light.addr)).toBe(true);
    runConsoleCommand(fleet, `steady 2 ${light.addr}`);
    expect(gateway.faults.flapping.has(light.addr)).toBe(false);
    expect(runConsoleCommand(fleet, `fault 2 ${light.addr} 12`)).toBe('the fault code is 1-9');
    expect(runConsoleCommand(fleet, 'fault 9 00 1')).toMatch(/^no gateway 9/);
    expect(runConsoleCommand(fleet, 'fault 1 NOPE 1')).toMatch(/^no device NOPE/);
    expect(runConsoleCommand(fleet, `devices 2`)).toContain(`${light.addr} light-cct fault 0`);
  });

  it('sends energy history on demand and says why it could not', async () => {
    expect(await runConsoleCommand(fleet, 'backfill 1 0')).toBe('backfill needs days above 0 and a step of at least 1 minute');
    expect(await runConsoleCommand(fleet, 'backfill all 2 60')).toBe(
      fleet.gateways.map((g) => `${g.mac}: backfill failed: gateway ${g.mac} is not connected`).join('\n'),
    );
  });

  it('gives each kind the faults it can have', () => {
    expect(faultCodesOf('emergency')).toContain(FAULT_CODES.battery);
    expect(faultCodesOf('sensor-daylight')).toContain(FAULT_CODES.daylightSensor);
    expect(faultCodesOf('light-dimmer')).toEqual([FAULT_CODES.power, FAULT_CODES.led]);
    expect(faultCodesOf('curtain')).not.toContain(FAULT_CODES.offline);
  });
});
