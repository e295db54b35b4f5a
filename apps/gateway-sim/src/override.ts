import type { SimDevice } from './devices.ts';

/**
 * Manual override: a device a person switched keeps its state against sensor linkage until devices.auto,
 * the next scheduled scene, or `overrideMin` simulated minutes (none when 0 or absent).
 */
export function setManual(device: SimDevice, now: number, overrideMin: number | undefined): boolean {
  const was = device.state.manual === true;
  device.state.manual = true;
  device.manualUntil = overrideMin ? now + overrideMin * 60_000 : undefined;
  return !was;
}

/** Hands a device back to its sensors and schedules; answers whether it was overridden. */
export function clearManual(device: SimDevice): boolean {
  device.manualUntil = undefined;
  if (!device.state.manual) return false;
  // Left out rather than false, as DeviceState leaves out what does not apply.
  delete device.state.manual;
  return true;
}

/** Ends the overrides whose time is up; answers the devices released. */
export function expireOverrides(devices: Iterable<SimDevice>, now: number): SimDevice[] {
  const released: SimDevice[] = [];
  for (const device of devices) {
    if (device.manualUntil !== undefined && device.manualUntil <= now && clearManual(device)) released.push(device);
  }
  return released;
}
