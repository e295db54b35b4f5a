import { targetAddrs, type EventMessage, type GatewayConfig, type LightAction, type Target } from '@lumigrid/protocol';
import type { SimClock } from './clock.ts';
import type { SimDevice } from './devices.ts';

export type SceneEvent = Extract<EventMessage, { type: 'scene' }>;
export type SceneTrigger = SceneEvent['trigger'];

/**
 * How an action treats manual override: a person's action sets it, a scheduled scene clears it (it hands
 * the devices back), linkage leaves overridden devices alone.
 */
export type OverrideRule = 'set' | 'clear' | 'respect';

/** What the scene runner needs from its gateway. */
export interface SceneHost {
  clock: SimClock;
  devices: ReadonlyMap<string, SimDevice>;
  config(): GatewayConfig;
  /** Applies an action to the reachable devices of a target; answers those whose report changed. */
  applyTo(target: Target, action: LightAction, rule: OverrideRule): SimDevice[];
  publishReport(devices: SimDevice[]): void;
  /** Scene events reach the cloud even when they happen offline (kept until the gateway is back). */
  publishEvent(event: SceneEvent): void;
}

/** Runs the configuration's scenes (schedules, panel keys, scene.run) and reports each run as a scene event. */
export class SceneRunner {
  /** Scenes run, newest last (for demos and tests). */
  readonly log: Array<{ scene: number; at: number; trigger: SceneTrigger }> = [];

  constructor(private readonly host: SceneHost) {}

  /**
   * Runs a scene now: steps without a delay at once, the others after their delays. `at` is the instant the
   * run belongs to (a schedule's due time). Answers the targets addressed and how many of them are
   * unreachable, or undefined for a scene the configuration does not have.
   */
  run(
    id: number,
    trigger: SceneTrigger,
    { at, schedule }: { at?: number; schedule?: number } = {},
  ): { targets: number; failed: number } | undefined {
    const config = this.host.config();
    const scene = config.scenes.find((s) => s.id === id);
    if (!scene) return undefined;
    const ts = at ?? this.host.clock.now();
    this.log.push({ scene: id, at: ts, trigger });
    if (this.log.length > 100) this.log.shift();
    const outcome = this.reach(
      scene.steps.map((step) => step.target),
      config,
    );
    // Run by a person, the scene's states are theirs to keep; run by a schedule, they go back to automatic.
    const rule: OverrideRule = trigger === 'schedule' ? 'clear' : 'set';
    let delayS = 0;
    for (const step of scene.steps) {
      delayS += step.delayS ?? 0;
      const apply = () => {
        const changed = this.host.applyTo(step.target, step.action, rule);
        if (changed.length) this.host.publishReport(changed);
      };
      if (delayS === 0) apply();
      else this.host.clock.after(delayS * 1000, apply);
    }
    this.host.publishEvent({ type: 'scene', ts, scene: id, trigger, ...(schedule !== undefined ? { schedule } : {}), ...outcome });
    return outcome;
  }

  /** Distinct devices and groups addressed; a device is unreachable when offline or gone, a group when no member is online. */
  private reach(targets: Target[], config: GatewayConfig): { targets: number; failed: number } {
    const distinct = new Map<string, Target>();
    for (const target of targets) distinct.set('device' in target ? `device ${target.device}` : `group ${target.group}`, target);
    let failed = 0;
    for (const target of distinct.values()) {
      if (!targetAddrs(target, config).some((addr) => this.host.devices.get(addr)?.state.online)) failed++;
    }
    return { targets: distinct.size, failed };
  }
}
