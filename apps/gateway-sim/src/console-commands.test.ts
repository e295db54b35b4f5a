import { FAULT_CODES } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { runConsoleCommand } from './console-commands.ts';
import { faultCodesOf } from './devices.ts';
import { createFleet } from './fleet.ts';

describe('faults on demand at the simulator console', () => {
  const fleet = createFleet({ url: 'mqtt://127.0.0.1:1', count: 2, password: 'x', activityIntervalS: 0 });
  const gateway = fleet.gateways[1]!;
  const light = [...gateway.devices.values()].find((d) => d.state.kind === 'light-cct')!.state;

  it('raises and clears a fault of a device of a gateway named by number or MAC', async () => {
    expect(runConsoleCommand(fleet, `fault 2 ${light.addr.toLowerCase()} 8`)).toBe(`${gateway.mac} ${light.addr}: fault 8`);
    expect(light.fault).toBe(8);
    await runConsoleCommand(fleet, `clear ${gateway.mac} ${light.addr}`);
    expect(light.fault).toBe(0);
    await runConsoleCommand(fleet, `fault 2 ${light.addr} 2`);
    expect(light).toMatchObject({ fault: 2, online: false });
    await runConsoleCommand(fleet, `clear 2 ${light.addr}`);
    expect(light.online).toBe(true);
  });

  it('makes a device flap and steady again, and says what it did not understand', async () => {
    await runConsoleCommand(fleet, `flap 2 ${light.addr}`);
    expect(gateway.faults.flapping.has(light.addr)).toBe(true);
    await runConsoleCommand(fleet, `steady 2 ${light.addr}`);
    expect(gateway.faults.flapping.has(light.addr)).toBe(false);
    expect(runConsoleCommand(fleet, `fault 2 ${light.addr} 12`)).toBe('the fault code is 1-9');
    expect(runConsoleCommand(fleet, 'fault 9 00 1')).toMatch(/^no gateway 9/);
    expect(runConsoleCommand(fleet, 'fault 1 NOPE 1')).toMatch(/^no device NOPE/);
    expect(runConsoleCommand(fleet, `devices 2`)).toContain(`${light.addr} light-cct fault 0`);
  });

  it('makes firmware updates fail or go silent on demand, and succeed again', async () => {
    expect(runConsoleCommand(fleet, 'updates 1 fail')).toBe(`${fleet.gateways[0]!.mac}: firmware updates fail`);
    expect(fleet.gateways[0]!.faults).toMatchObject({ failUpdates: true, hangUpdates: false });
    await runConsoleCommand(fleet, `updates ${fleet.gateways[0]!.mac} hang`);
    expect(fleet.gateways[0]!.faults).toMatchObject({ failUpdates: false, hangUpdates: true });
    await runConsoleCommand(fleet, 'updates 1 ok');
    expect(fleet.gateways[0]!.faults).toMatchObject({ failUpdates: false, hangUpdates: false });
    expect(runConsoleCommand(fleet, 'updates 1 sometimes')).toBe('updates takes fail, hang or ok');
  });

  it('sends energy history on demand and says why it could not', async () => {
    expect(await runConsoleCommand(fleet, 'backfill 1 0')).toBe('backfill needs days above 0 and a step of at least 1 minute');
    expect(await runConsoleCommand(fleet, 'backfill all 2 60')).toBe(
      fleet.gateways.map((g) => `${g.mac}: backfill failed: gateway ${g.mac} is not connected`).join('\n'),
    );
  });

  it('sets an emergency light battery and failure', async () => {
    const exit = [...gateway.devices.values()].find((d) => d.state.kind === 'emergency')!.state.addr;
    expect(runConsoleCommand(fleet, `emergency 2 ${exit} age=3 charge=50 cells=4 failure=lamp`)).toBe(
      `${gateway.mac} ${exit}: state 21, battery 50 %, 4 cells, 3 years, rated 115 min, failing: lamp`,
    );
    expect(gateway.emergencyLight(exit).status()).toMatchObject({ failure: 'lamp', lightType: 'maintained' });
    await runConsoleCommand(fleet, `emergency 2 ${exit} failure=none type=non-maintained`);
    expect(gateway.emergencyLight(exit).status()).toMatchObject({ state: 16, lightType: 'non-maintained' });
    expect(gateway.emergencyLight(exit).status().failure).toBeUndefined();
    expect(runConsoleCommand(fleet, `emergency 2 ${exit} cells=30`)).toBe('battery cells 30 is not 1-20');
    expect(runConsoleCommand(fleet, `emergency 2 ${exit} colour=red`)).toMatch(/^cannot set colour=red/);
    expect(runConsoleCommand(fleet, `emergency 2 ${light.addr} age=1`)).toBe(`${light.addr} is not an emergency light of this gateway`);
  });

  it('gives each kind the faults it can have', () => {
    expect(faultCodesOf('emergency')).toContain(FAULT_CODES.battery);
    expect(faultCodesOf('sensor-daylight')).toContain(FAULT_CODES.daylightSensor);
    expect(faultCodesOf('light-dimmer')).toEqual([FAULT_CODES.power, FAULT_CODES.led]);
    expect(faultCodesOf('curtain')).not.toContain(FAULT_CODES.offline);
  });
});
