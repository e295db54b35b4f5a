import type { AlarmCodeSetting, AlarmSeverity, AlarmState } from '@lumigrid/contract';
import type { Clock } from '../../lib/clock.ts';

/** How one fault code of one project becomes an alarm, in milliseconds. */
export interface AlarmPolicy {
  severity: AlarmSeverity;
  onDelayMs: number;
  offDelayMs: number;
  chatterCount: number;
  chatterWindowMs: number;
}

export function policyOf(setting: AlarmCodeSetting): AlarmPolicy {
  return {
    severity: setting.severity,
    onDelayMs: setting.onDelaySec * 1000,
    offDelayMs: setting.offDelaySec * 1000,
    chatterCount: setting.chatterCount,
    chatterWindowMs: setting.chatterWindowSec * 1000,
  };
}

/** The alarm of a fault source while it is not over (normal). Times are epoch milliseconds. */
export interface StandingAlarm {
  state: Exclude<AlarmState, 'normal'>;
  severity: AlarmSeverity;
  chattering: boolean;
  raiseCount: number;
  raisedAt: number;
  clearedAt: number | null;
  ackedAt: number | null;
}

/** Shelving belongs to the source, not to one alarm: an alarm raised while it lasts is shelved too. */
export interface Shelf {
  until: number;
}

/** Everything the engine knows of one fault source (a gateway, a device address on it, a code). */
export interface SourceState {
  /** The fault as the gateway last said: present or not. */
  faulty: boolean;
  /** The on-delay's end, while a fault waits to become an alarm. */
  raiseAt: number | null;
  /** The off-delay's end, while an active alarm's fault stays away. */
  clearAt: number | null;
  /** When the fault was raised, within the chattering window. */
  raises: number[];
  alarm: StandingAlarm | null;
  shelf: Shelf | null;
}

export const QUIET_SOURCE: SourceState = { faulty: false, raiseAt: null, clearAt: null, raises: [], alarm: null, shelf: null };

export type AlarmInput =
  | { kind: 'fault'; at: number; policy: AlarmPolicy }
  | { kind: 'clear'; at: number; policy: AlarmPolicy }
  /** Time passed: delays and shelving that ended by `at` take effect. */
  | { kind: 'tick'; at: number; policy: AlarmPolicy }
  | { kind: 'acknowledge'; at: number }
  | { kind: 'shelve'; at: number; until: number }
  | { kind: 'unshelve'; at: number };

/**
 * What happened to the source's alarm. `alarm` is the alarm after the step (null once it is over), so whoever
 * keeps alarms writes it as it stands.
 */
export type AlarmEvent =
  | { kind: 'raised'; at: number }
  | { kind: 'returned'; at: number }
  | { kind: 'repeated'; at: number }
  | { kind: 'chattering'; at: number }
  | { kind: 'cleared'; at: number }
  | { kind: 'acknowledged'; at: number }
  | { kind: 'ended'; at: number }
  | { kind: 'shelved'; at: number; until: number }
  | { kind: 'unshelved'; at: number };

export interface AlarmStep {
  state: SourceState;
  events: AlarmEvent[];
  /** The alarm as it stands after the step; on `ended`, as it was when it ended (state normal). */
  alarm: (Omit<StandingAlarm, 'state'> & { state: AlarmState }) | null;
}

/** Raises within the window ending at `at`. */
function recentRaises(raises: readonly number[], at: number, windowMs: number): number[] {
  return raises.filter((t) => t > at - windowMs);
}

/** How long a clear must last: a chattering alarm waits out the whole window, so one alarm covers the flapping. */
function clearDelay(alarm: StandingAlarm, policy: AlarmPolicy): number {
  return alarm.chattering ? Math.max(policy.offDelayMs, policy.chatterWindowMs) : policy.offDelayMs;
}

/**
 * One step of the alarm state machine of ISA-18.2 for one fault source: pure, no clock, no I/O.
 *
 * - A fault raises an alarm when it lasts the on-delay; gone sooner, it raises none.
 * - An active alarm clears when the fault stays away for the off-delay; back sooner, the alarm stands on.
 * - A fault raised chatterCount times within the window is one chattering alarm at once, and that alarm
 *   clears only after a whole quiet window.
 * - Acknowledging and clearing are apart: active-unacknowledged -> acknowledged -> (clear) normal, or
 *   active-unacknowledged -> (clear) cleared-unacknowledged -> (acknowledge) normal. A fault back before the
 *   alarm is over makes the same alarm active-unacknowledged again.
 * - Shelving lasts until its time (tick) or an unshelve.
 */
export function stepAlarm(source: SourceState, input: AlarmInput): AlarmStep {
  const events: AlarmEvent[] = [];
  let state: SourceState = { ...source };
  let alarm: StandingAlarm | null = source.alarm ? { ...source.alarm } : null;
  let ended: AlarmStep['alarm'] = null;
  const at = input.at;

  const raise = (when: number, chattering: boolean, policy: AlarmPolicy) => {
    alarm = {
      state: 'activeUnacked',
      severity: policy.severity,
      chattering,
      raiseCount: 1,
      raisedAt: when,
      clearedAt: null,
      ackedAt: null,
    };
    state.raiseAt = null;
    events.push({ kind: 'raised', at: when });
  };
  const end = (when: number) => {
    ended = { ...alarm!, state: 'normal' };
    alarm = null;
    state.clearAt = null;
    events.push({ kind: 'ended', at: when });
  };
  const clearNow = (when: number) => {
    const current = alarm!;
    state.clearAt = null;
    current.clearedAt = when;
    current.chattering = false;
    if (current.state === 'activeAcked') {
      events.push({ kind: 'cleared', at: when });
      end(when);
    } else {
      current.state = 'clearedUnacked';
      events.push({ kind: 'cleared', at: when });
    }
  };

  switch (input.kind) {
    case 'fault': {
      if (state.faulty) break;
      const { policy } = input;
      state.faulty = true;
      state.clearAt = null;
      state.raises = [...recentRaises(state.raises, at, policy.chatterWindowMs), at];
      const chatters = state.raises.length >= policy.chatterCount;
      if (alarm) {
        alarm.raiseCount += 1;
        if (alarm.state === 'clearedUnacked') {
          alarm.state = 'activeUnacked';
          alarm.clearedAt = null;
          events.push({ kind: 'returned', at });
        } else events.push({ kind: 'repeated', at });
        if (chatters && !alarm.chattering) {
          alarm.chattering = true;
          events.push({ kind: 'chattering', at });
        }
      } else if (chatters) {
        raise(at, true, policy);
        events.push({ kind: 'chattering', at });
      } else if (policy.onDelayMs === 0) raise(at, false, policy);
      else state.raiseAt = at + policy.onDelayMs;
      break;
    }
    case 'clear': {
      if (!state.faulty) break;
      state.faulty = false;
      // Gone within the on-delay: no alarm, but the raise still counts towards chattering.
      state.raiseAt = null;
      if (alarm && (alarm.state === 'activeUnacked' || alarm.state === 'activeAcked')) {
        const delay = clearDelay(alarm, input.policy);
        if (delay === 0) clearNow(at);
        else state.clearAt = at + delay;
      }
      break;
    }
    case 'tick': {
      if (state.raiseAt !== null && state.raiseAt <= at && state.faulty) raise(state.raiseAt, false, input.policy);
      if (state.clearAt !== null && state.clearAt <= at && alarm) clearNow(state.clearAt);
      if (state.shelf && state.shelf.until <= at) {
        events.push({ kind: 'unshelved', at: state.shelf.until });
        state.shelf = null;
      }
      state.raises = recentRaises(state.raises, at, input.policy.chatterWindowMs);
      break;
    }
    case 'acknowledge': {
      if (!alarm || alarm.ackedAt !== null) break;
      alarm.ackedAt = at;
      events.push({ kind: 'acknowledged', at });
      if (alarm.state === 'clearedUnacked') end(at);
      else alarm.state = 'activeAcked';
      break;
    }
    case 'shelve': {
      if (!alarm || input.until <= at) break;
      state.shelf = { until: input.until };
      events.push({ kind: 'shelved', at, until: input.until });
      break;
    }
    case 'unshelve': {
      if (!state.shelf) break;
      state.shelf = null;
      events.push({ kind: 'unshelved', at });
      break;
    }
  }
  state = { ...state, alarm };
  const standing: StandingAlarm | null = alarm;
  return { state, events, alarm: standing ?? ended };
}

/**
 * The next time a tick would change the source, or null when nothing waits on time. With the chattering
 * window, a quiet source also waits for its last raise to leave the window, so it can be forgotten.
 */
export function nextDeadline(source: SourceState, chatterWindowMs?: number): number | null {
  const times = [source.raiseAt, source.clearAt, source.shelf?.until ?? null].filter((t): t is number => t !== null);
  const last = source.raises.at(-1);
  if (chatterWindowMs !== undefined && last !== undefined && !source.faulty && source.alarm === null) times.push(last + chatterWindowMs);
  return times.length === 0 ? null : Math.min(...times);
}

/** Nothing left to remember: no fault, no alarm, no shelf, no raise inside any window. */
function forgettable(source: SourceState): boolean {
  return !source.faulty && source.alarm === null && source.shelf === null && source.raiseAt === null && source.raises.length === 0;
}

/** What the engine reports for one source after an input: the events and the alarm as it stands. */
export interface AlarmChange<K> {
  key: K;
  events: AlarmEvent[];
  alarm: AlarmStep['alarm'];
  shelf: Shelf | null;
}

/**
 * The alarm state machine for every fault source, on an injected clock: inputs are applied at the clock's
 * time, and `advance()` applies the delays and shelving that ended by now. It holds no timers and does no
 * I/O, so tests drive it with a clock they move and assert on the changes it answers.
 */
export function createAlarmEngine<K extends string>(deps: { clock: Clock }) {
  const sources = new Map<K, SourceState>();
  /** The policy each remembered source last came with: its ticks take it. */
  const policies = new Map<K, AlarmPolicy>();
  /** When each source with a deadline wants its next tick. */
  const waiting = new Map<K, number>();

  function apply(key: K, input: AlarmInput, policy: AlarmPolicy | undefined): AlarmChange<K> {
    const before = sources.get(key) ?? QUIET_SOURCE;
    const step = stepAlarm(before, input);
    if (policy) policies.set(key, policy);
    if (forgettable(step.state)) {
      sources.delete(key);
      policies.delete(key);
      waiting.delete(key);
    } else {
      sources.set(key, step.state);
      const deadline = nextDeadline(step.state, policies.get(key)?.chatterWindowMs);
      if (deadline === null) waiting.delete(key);
      else waiting.set(key, deadline);
    }
    return { key, events: step.events, alarm: step.alarm, shelf: step.state.shelf };
  }

  const now = () => deps.clock.now().getTime();

  return {
    /** A fault, at the clock's time or when it was raised (a node taking the engine over, for the on-delay). */
    fault: (key: K, policy: AlarmPolicy, at?: Date) => apply(key, { kind: 'fault', at: at?.getTime() ?? now(), policy }, policy),
    clear: (key: K, policy: AlarmPolicy) => apply(key, { kind: 'clear', at: now(), policy }, policy),
    acknowledge: (key: K) => apply(key, { kind: 'acknowledge', at: now() }, undefined),
    shelve: (key: K, until: Date) => apply(key, { kind: 'shelve', at: now(), until: until.getTime() }, undefined),
    unshelve: (key: K) => apply(key, { kind: 'unshelve', at: now() }, undefined),

    /** Applies every delay and shelving that ended by the clock's time, earliest first. */
    advance(): AlarmChange<K>[] {
      const at = now();
      const due = [...waiting].filter(([, deadline]) => deadline <= at).sort((x, y) => x[1] - y[1]);
      const changes: AlarmChange<K>[] = [];
      for (const [key] of due) {
        const policy = policies.get(key);
        if (!policy) continue;
        const change = apply(key, { kind: 'tick', at, policy }, policy);
        if (change.events.length > 0) changes.push(change);
      }
      return changes;
    },

    /** Takes back what was kept of a source (an alarm standing at the last start). */
    restore(key: K, source: SourceState, policy: AlarmPolicy): void {
      sources.set(key, source);
      policies.set(key, policy);
      const deadline = nextDeadline(source, policy.chatterWindowMs);
      if (deadline !== null) waiting.set(key, deadline);
    },

    source: (key: K): SourceState => sources.get(key) ?? QUIET_SOURCE,
    /** Sources remembered (tests, the benchmark). */
    size: () => sources.size,
  };
}
export type AlarmEngine<K extends string = string> = ReturnType<typeof createAlarmEngine<K>>;
