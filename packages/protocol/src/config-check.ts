import { DALI_LIMITS } from './devices.ts';
import type { GatewayConfig, Target } from './config.ts';

/**
 * Why a configuration cannot run on this gateway: the first reference to a device that has not joined, or
 * to a group or scene the configuration does not define; undefined when every reference holds.
 */
export function unknownReference(config: GatewayConfig, joined: ReadonlySet<string> | ReadonlyMap<string, unknown>): string | undefined {
  const groups = new Set(config.groups.map((g) => g.id));
  const scenes = new Set(config.scenes.map((s) => s.id));
  const missingTarget = (target: Target): string | undefined => {
    if ('device' in target) return joined.has(target.device) ? undefined : `device ${target.device} has not joined this gateway`;
    return groups.has(target.group) ? undefined : `group ${target.group} is not in the configuration`;
  };
  for (const group of config.groups) {
    const member = group.devices.find((addr) => !joined.has(addr));
    if (member) return `group member ${member} has not joined this gateway`;
  }
  for (const scene of config.scenes) {
    for (const step of scene.steps) {
      const missing = missingTarget(step.target);
      if (missing) return `scene ${scene.id}: ${missing}`;
    }
  }
  for (const schedule of config.schedules) {
    if (!scenes.has(schedule.scene)) return `schedule ${schedule.id}: scene ${schedule.scene} is not in the configuration`;
  }
  for (const { panel, key, scene } of config.panelKeys ?? []) {
    if (!joined.has(panel)) return `panel key ${key}: panel ${panel} has not joined this gateway`;
    if (!scenes.has(scene)) return `panel key ${key} of ${panel}: scene ${scene} is not in the configuration`;
  }
  return undefined;
}

/**
 * Why a configuration cannot run on the DALI buses: a bus (the bridge its devices sit behind) in more groups
 * than its 16 DALI groups; undefined when every bus fits.
 */
export function daliOverflow(config: GatewayConfig, busOf: (addr: string) => string | undefined): string | undefined {
  const groupsOfBus = new Map<string, Set<number>>();
  for (const group of config.groups) {
    for (const addr of group.devices) {
      const bus = busOf(addr);
      if (bus === undefined) continue;
      const groups = groupsOfBus.get(bus) ?? new Set<number>();
      groups.add(group.id);
      groupsOfBus.set(bus, groups);
    }
  }
  for (const [bus, groups] of groupsOfBus) {
    if (groups.size > DALI_LIMITS.groups) return `the DALI bus of ${bus} is in ${groups.size} groups; it holds ${DALI_LIMITS.groups}`;
  }
  return undefined;
}

/** The addresses a target names: the device, or the members of a configured group (none for an unknown one). */
export function targetAddrs(target: Target, config: GatewayConfig): readonly string[] {
  return 'device' in target ? [target.device] : (config.groups.find((g) => g.id === target.group)?.devices ?? []);
}
