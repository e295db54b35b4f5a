import { withDefaultCodes, type AlarmsChangedNotice } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Json, JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { RaisedAlert } from '../alerts/alert-tracker.ts';
import type { Messenger } from '../outbox/messenger.ts';
import type { WebhookEvents } from '../webhooks/webhooks.service.ts';
import { createAlarmEngine, policyOf, type AlarmChange, type AlarmPolicy, type SourceState } from './alarm-engine.ts';
import { ALARM_MAIL_JOB, alarmMail, mailStillDue, notificationPlan } from './alarm-notifications.ts';
import type { AlarmPatch, AlarmRow, AlarmsRepo, NewAlarm, StoredRule } from './alarms.repo.ts';

/** What a fault is on, as the alert tracker raised it. */
export type FaultSource = Pick<
  RaisedAlert,
  'tenantId' | 'gatewayId' | 'gatewayName' | 'deviceId' | 'addr' | 'name' | 'projectId' | 'mapId' | 'code'
>;

/** A fault open in the fault list, for a node taking the engine over. */
export interface OpenFault extends FaultSource {
  raisedAt: Date;
}

/** Faults of one device (or gateway) that cleared together. */
export interface ClearedFaults {
  gatewayId: bigint;
  addr: string;
  codes: number[];
}

type SourceKey = `${string}/${string}/${number}`;
const keyOf = (s: { gatewayId: bigint | null; addr: string; code: number }): SourceKey => `${s.gatewayId ?? 0n}/${s.addr}/${s.code}`;

/** Who changed an alarm by hand, and why, for the record. */
interface ByHand {
  byName: string;
  reason?: string;
}

/** One alarm row to write: a new one (insert) or changes to a standing one (patch), and mails to plan after. */
interface StagedWrite {
  key: SourceKey;
  subject: FaultSource;
  /** The standing alarm written: its row id is known once its insert is written, perhaps after this was staged. */
  owner: StandingRecord;
  id?: bigint;
  insert?: NewAlarm;
  patch: AlarmPatch;
  plan?: { round: number; since: Date; severity: AlarmRow['severity'] };
  /** What integrators are told once the row is written (webhooks), in the order it happened. */
  told: Array<{ kind: ToldKind; at: number; severity: AlarmRow['severity']; state: AlarmRow['state']; byName?: string }>;
}

/** The alarm events webhooks carry. */
const TOLD_KINDS = { raised: 'alarm.raised', cleared: 'alarm.cleared', acknowledged: 'alarm.acknowledged' } as const;
type ToldKind = keyof typeof TOLD_KINDS;
const isTold = (kind: string): kind is ToldKind => kind in TOLD_KINDS;

/** What the keeper knows of a source's standing alarm. */
interface StandingRecord {
  id: bigint | undefined;
  round: number;
  pending?: StagedWrite;
}

/** How long a project's settings and rules are taken as read; a change on this node is seen at once. */
const SETTINGS_TTL_MS = 60_000;

/** How long the users who see a map are taken as read for the banner (a new sub-account waits this long). */
const AUDIENCE_TTL_MS = 10_000;

/** How often delays and shelving are looked at in production: an alarm is late by at most this. */
export const ALARM_TICK_MS = 1000;
/**
 * A banner notice goes out as soon as its alarm is written, then at most one per this gap while changes keep
 * coming: a fault storm sends a few dozen a second, not thousands, and none waits longer than the gap.
 */
export const BANNER_GAP_MS = 40;

/** What the alarm keeper works with; the alarms module passes most of it on from its own dependencies. */
export interface AlarmKeeperDeps {
  repo: AlarmsRepo;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  messenger: Pick<Messenger, 'send'>;
  hub: Pick<RealtimeHub, 'publishToUser'>;
  logger: Pick<FastifyBaseLogger, 'warn'>;
  /** Told each alarm raised, cleared and acknowledged after it is written. */
  events?: WebhookEvents;
  /** How often delays and shelving are looked at (tests tick by hand and pass 0 to start no timer). */
  tickMs?: number;
  bannerGapMs?: number;
  /** The faults open in the fault list now (every account), matched against the standing alarms at start. */
  openFaults?: () => Promise<OpenFault[]>;
}

/**
 * Runs the alarm engine for the faults the alert tracker raises and clears: keeps each source's alarm in the
 * alarms table, plans its notification mails as durable jobs (one per rule step and round, so each goes once),
 * and tells the account's users that their banner changed. Every change runs in one queue, in arrival order.
 */
export function createAlarmKeeper(deps: AlarmKeeperDeps) {
  const { repo, clock } = deps;
  let engine = createAlarmEngine<SourceKey>({ clock });
  const subjects = new Map<SourceKey, FaultSource>();
  /** The standing alarm's row (undefined until written), its notification round and its unwritten change, by source. */
  const standing = new Map<SourceKey, StandingRecord>();
  let staged: StagedWrite[] = [];
  let writeScheduled = false;
  let writing: Promise<unknown> = Promise.resolve();
  const rules = new Map<string, { at: number; rules: Promise<StoredRule[]> }>();
  const audiences = new Map<string, { at: number; users: bigint[] }>();
  /** Who shelved a source, and why, kept for the alarms raised while it is shelved. */
  const shelfNotes = new Map<SourceKey, ByHand>();
  const policies = new Map<string, { at: number; policies: Promise<Map<number, AlarmPolicy>> }>();
  const dirty = new Map<bigint, Set<bigint | null>>();
  let bannerTimer: NodeJS.Timeout | undefined;
  let lastBannerAt = Number.NEGATIVE_INFINITY;
  let tickTimer: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work);
    queue = next.catch((err: unknown) => deps.logger.warn({ err }, 'alarms not updated'));
    return next;
  }

  function policiesOf(projectId: bigint | null): Promise<Map<number, AlarmPolicy>> {
    const cacheKey = String(projectId ?? 'none');
    const known = policies.get(cacheKey);
    if (known && clock.now().getTime() - known.at < SETTINGS_TTL_MS) return known.policies;
    const loaded = (async () => {
      const codes = projectId === null ? [] : await repo.codeSettings({ projectId });
      return new Map(withDefaultCodes(codes).map((c) => [c.code, policyOf(c)]));
    })();
    policies.set(cacheKey, { at: clock.now().getTime(), policies: loaded });
    loaded.catch(() => policies.delete(cacheKey));
    return loaded;
  }
  async function policyFor(subject: FaultSource): Promise<AlarmPolicy> {
    return (await policiesOf(subject.projectId)).get(subject.code) ?? (await policiesOf(null)).get(subject.code)!;
  }

  function markDirty(subject: FaultSource) {
    let maps = dirty.get(subject.tenantId);
    if (!maps) dirty.set(subject.tenantId, (maps = new Set()));
    maps.add(subject.mapId);
    if (bannerTimer) return;
    const wait = Math.max(0, lastBannerAt + (deps.bannerGapMs ?? BANNER_GAP_MS) - performance.now());
    bannerTimer = setTimeout(() => void flushBanner(), wait);
  }

  /** Who sees a map's alarms, read again after AUDIENCE_TTL_MS: a storm asks every 100 ms. */
  async function audienceOf(tenantId: bigint, mapId: bigint | null): Promise<bigint[]> {
    const cacheKey = `${tenantId}/${mapId ?? ''}`;
    const known = audiences.get(cacheKey);
    if (known && clock.now().getTime() - known.at < AUDIENCE_TTL_MS) return known.users;
    const users = await repo.audience({ tenantId, mapId });
    audiences.set(cacheKey, { at: clock.now().getTime(), users });
    return users;
  }

  /** Tells every user who sees a changed alarm that their banner changed (they read the summary again). */
  async function flushBanner() {
    clearTimeout(bannerTimer);
    bannerTimer = undefined;
    lastBannerAt = performance.now();
    const changed = [...dirty];
    dirty.clear();
    try {
      for (const [tenantId, mapIds] of changed) {
        const people = new Set<bigint>();
        for (const mapId of mapIds) for (const userId of await audienceOf(tenantId, mapId)) people.add(userId);
        for (const userId of people) deps.hub.publishToUser(userId, 'alarms', { userId: String(userId) } satisfies AlarmsChangedNotice);
      }
    } catch (err) {
      deps.logger.warn({ err }, 'alarm banner not told');
    }
  }

  /** A project's rules, read once a while: mails are planned on every alarm raised. */
  function rulesOf(projectId: bigint): Promise<StoredRule[]> {
    const cacheKey = String(projectId);
    const known = rules.get(cacheKey);
    if (known && clock.now().getTime() - known.at < SETTINGS_TTL_MS) return known.rules;
    const loaded = repo.rules({ projectId });
    rules.set(cacheKey, { at: clock.now().getTime(), rules: loaded });
    loaded.catch(() => rules.delete(cacheKey));
    return loaded;
  }

  async function planMails(alarm: { id: bigint; severity: AlarmRow['severity'] }, subject: FaultSource, round: number, since: Date) {
    if (subject.projectId === null) return;
    const projectRules = await rulesOf(subject.projectId);
    for (const mail of notificationPlan(
      { id: alarm.id, severity: alarm.severity, attentionRound: round, attentionSince: since },
      projectRules,
    )) {
      const payload: Json = { alarmId: String(alarm.id), round: mail.round, ruleId: String(mail.ruleId), step: mail.step };
      await deps.jobs.schedule({ kind: ALARM_MAIL_JOB, key: mail.key, runAt: mail.runAt, payload });
    }
  }

  /**
   * Stages what the engine changed for the next write: the engine answers at once, and the writes of a storm
   * go in batches (one insert of the new alarms, one transaction of the changed ones), a source's changes in
   * between merged into one row.
   */
  function stage(change: AlarmChange<SourceKey>, by?: ByHand & { kind: 'ack' | 'shelve' | 'unshelve' }) {
    const subject = subjects.get(change.key);
    const { alarm, events } = change;
    if (!subject || !alarm || events.length === 0) return;
    const shelf = change.shelf;
    const note = shelfNotes.get(change.key);
    const snapshot: AlarmPatch = {
      state: alarm.state,
      chattering: alarm.chattering,
      raiseCount: alarm.raiseCount,
      clearedAt: alarm.clearedAt === null ? null : new Date(alarm.clearedAt),
      ackedAt: alarm.ackedAt === null ? null : new Date(alarm.ackedAt),
      ...(shelf
        ? { shelvedUntil: new Date(shelf.until), shelvedReason: note?.reason ?? null, shelvedByName: note?.byName ?? null }
        : { shelvedUntil: null, shelvedReason: null, shelvedByName: null }),
    };
    if (by?.kind === 'ack') snapshot.ackedByName = by.byName;
    const raised = events.find((e) => e.kind === 'raised');
    let write: StagedWrite;
    if (raised) {
      const raisedAt = new Date(alarm.raisedAt);
      const owner: StandingRecord = { id: undefined, round: 0 };
      write = {
        key: change.key,
        subject,
        owner,
        insert: {
          tenantId: subject.tenantId,
          gatewayId: subject.gatewayId,
          deviceId: subject.deviceId,
          addr: subject.addr,
          code: subject.code,
          severity: alarm.severity,
          name: subject.name,
          gatewayName: subject.gatewayName,
          projectId: subject.projectId,
          mapId: subject.mapId,
          raisedAt,
          attentionRound: 0,
          attentionSince: raisedAt,
          ...snapshot,
          state: alarm.state,
        },
        patch: {},
        plan: shelf ? undefined : { round: 0, since: raisedAt, severity: alarm.severity },
        told: [],
      };
      owner.pending = write;
      standing.set(change.key, owner);
      staged.push(write);
    } else {
      const known = standing.get(change.key);
      if (!known) return;
      if (known.pending) write = known.pending;
      else {
        write = { key: change.key, subject, owner: known, patch: {}, told: [] };
        known.pending = write;
        staged.push(write);
      }
      const unshelved = events.find((e) => e.kind === 'unshelved');
      if (unshelved) {
        known.round += 1;
        snapshot.attentionRound = known.round;
        snapshot.attentionSince = new Date(unshelved.at);
        shelfNotes.delete(change.key);
        if (alarm.state === 'activeUnacked') write.plan = { round: known.round, since: new Date(unshelved.at), severity: alarm.severity };
      }
      Object.assign(write.insert ?? write.patch, snapshot);
    }
    for (const event of events)
      if (isTold(event.kind))
        write.told.push({
          kind: event.kind,
          at: event.at,
          severity: alarm.severity,
          state: alarm.state,
          byName: event.kind === 'acknowledged' ? by?.byName : undefined,
        });
    if (events.some((e) => e.kind === 'ended')) standing.delete(change.key);
    scheduleWrite();
  }

  function scheduleWrite() {
    if (writeScheduled) return;
    writeScheduled = true;
    setImmediate(() => {
      writeScheduled = false;
      void writeNow();
    });
  }

  /** Writes what is staged: new alarms in one insert, changed ones in one transaction; then mails and the banner. */
  async function writeStaged() {
    const batch = staged;
    staged = [];
    if (batch.length === 0) return;
    for (const write of batch) if (write.owner.pending === write) write.owner.pending = undefined;
    const inserts = batch.filter((w) => w.insert);
    if (inserts.length) {
      const ids = await repo.insertMany(inserts.map((w) => w.insert!));
      inserts.forEach((write, index) => {
        write.id = ids[index];
        write.owner.id = write.id;
      });
    }
    // A change staged while its alarm's insert was being written learns the id now (writes run one at a time).
    for (const write of batch) write.id ??= write.owner.id;
    const updates = batch.filter((w) => !w.insert && w.id !== undefined);
    if (updates.length) await repo.updateMany(updates.map((w) => ({ id: w.id!, patch: w.patch })));
    for (const write of batch) {
      if (write.plan && write.id !== undefined)
        await planMails({ id: write.id, severity: write.plan.severity }, write.subject, write.plan.round, write.plan.since);
      markDirty(write.subject);
      if (write.id !== undefined) tell(write);
    }
  }

  /** Tells integrators what happened to a written alarm (webhooks); queued off this path. */
  function tell(write: StagedWrite) {
    if (!deps.events) return;
    const { subject } = write;
    for (const told of write.told)
      deps.events.emit({
        kind: TOLD_KINDS[told.kind],
        tenantId: subject.tenantId,
        projectId: subject.projectId,
        at: new Date(told.at),
        data: {
          alarmId: String(write.id),
          code: subject.code,
          severity: told.severity,
          state: told.state,
          gatewayId: String(subject.gatewayId),
          gatewayName: subject.gatewayName,
          deviceId: subject.deviceId === null ? null : String(subject.deviceId),
          addr: subject.addr,
          name: subject.name,
          mapId: subject.mapId === null ? null : String(subject.mapId),
          ...(told.byName !== undefined ? { acknowledgedBy: told.byName } : {}),
        },
      });
  }

  /** Sends one rule step's mail if the alarm still wants it; the job's key made sure it runs once. */
  async function sendMail(payload: Json): Promise<Json> {
    const p = payload as { alarmId: string; round: number; ruleId: string; step: number };
    const alarm = await repo.findAnyTenant(BigInt(p.alarmId));
    const rule = await repo.ruleAnyTenant(BigInt(p.ruleId));
    if (!alarm || !rule || rule.projectId !== alarm.projectId || rule.tenantId !== alarm.tenantId) return { sent: 0, why: 'gone' };
    const step = rule.steps[p.step];
    if (!step || !rule.severities.includes(alarm.severity)) return { sent: 0, why: 'rule changed' };
    if (!mailStillDue(alarm, { round: p.round }, clock.now())) return { sent: 0, why: 'not due' };
    const mail = alarmMail(alarm, rule.lang);
    for (const recipient of step.mails) await deps.messenger.send({ channel: 'mail', recipient, ...mail });
    return { sent: step.mails.length };
  }
  deps.jobs.register(ALARM_MAIL_JOB, sendMail);

  /** The engine's source as the table keeps it, for a start. */
  function sourceOf(row: AlarmRow): SourceState {
    const active = row.state === 'activeUnacked' || row.state === 'activeAcked';
    return {
      faulty: active,
      raiseAt: null,
      clearAt: null,
      raises: [],
      alarm:
        row.state === 'normal'
          ? null
          : {
              state: row.state,
              severity: row.severity,
              chattering: row.chattering,
              raiseCount: row.raiseCount,
              raisedAt: row.raisedAt.getTime(),
              clearedAt: row.clearedAt?.getTime() ?? null,
              ackedAt: row.ackedAt?.getTime() ?? null,
            },
      shelf: row.shelvedUntil ? { until: row.shelvedUntil.getTime() } : null,
    };
  }

  function subjectOf(row: AlarmRow): FaultSource {
    return {
      tenantId: row.tenantId,
      gatewayId: row.gatewayId ?? 0n,
      gatewayName: row.gatewayName,
      deviceId: row.deviceId,
      addr: row.addr,
      name: row.name,
      projectId: row.projectId,
      mapId: row.mapId,
      code: row.code,
    };
  }

  /** A hand-made change to alarms the caller may touch: answers how many it changed. */
  function byHand(
    rows: AlarmRow[],
    by: ByHand & { kind: 'ack' | 'shelve' | 'unshelve' },
    change: (key: SourceKey) => AlarmChange<SourceKey>,
  ) {
    return enqueue(async () => {
      let count = 0;
      for (const row of rows) {
        const key = keyOf(row);
        // Only the alarm standing for its source is the engine's; an older one is over already.
        if (standing.get(key)?.id !== row.id) continue;
        if (by.kind === 'shelve') shelfNotes.set(key, { byName: by.byName, reason: by.reason });
        const made = change(key);
        if (made.events.length === 0) continue;
        count += 1;
        stage(made, by);
      }
      return count;
    }).then(async (count) => {
      await writeNow();
      return count;
    });
  }

  /** Writes what is staged now, after the write under way. */
  function writeNow(): Promise<unknown> {
    writing = writing.then(writeStaged).catch((err: unknown) => deps.logger.warn({ err }, 'alarms not written'));
    return writing;
  }

  return {
    /** A fault raised by the alert tracker. */
    faultRaised(source: FaultSource): Promise<void> {
      return enqueue(async () => {
        const key = keyOf(source);
        subjects.set(key, source);
        stage(engine.fault(key, await policyFor(source)));
      });
    },

    /** Faults cleared by the alert tracker. */
    faultCleared(cleared: ClearedFaults): Promise<void> {
      return enqueue(async () => {
        for (const code of cleared.codes) {
          const key = keyOf({ ...cleared, code });
          const subject = subjects.get(key);
          if (!subject) continue;
          stage(engine.clear(key, await policyFor(subject)));
        }
      });
    },

    /** Applies the delays and shelving that ended by now. */
    tick(): Promise<void> {
      return enqueue(async () => {
        for (const change of engine.advance()) stage(change);
        // Sources the engine forgot (quiet for a whole window) are forgotten here too.
        if (subjects.size > engine.size()) {
          for (const key of subjects.keys())
            if (!standing.has(key) && engine.source(key).raises.length === 0 && !engine.source(key).faulty) subjects.delete(key);
        }
      });
    },

    acknowledge: (rows: AlarmRow[], byName: string) => byHand(rows, { kind: 'ack', byName }, (key) => engine.acknowledge(key)),
    shelve: (rows: AlarmRow[], until: Date, reason: string, byName: string) =>
      byHand(rows, { kind: 'shelve', byName, reason }, (key) => engine.shelve(key, until)),
    unshelve: (rows: AlarmRow[], byName: string) => byHand(rows, { kind: 'unshelve', byName }, (key) => engine.unshelve(key)),

    /** A project's settings changed: its next faults follow them. */
    settingsChanged(projectId: bigint): void {
      policies.delete(String(projectId));
      rules.delete(String(projectId));
    },

    /**
     * Takes back the alarms standing in the table, then the faults open in the fault list: a fault open without
     * an active alarm comes in at the time it was raised (so its on-delay runs on from then, not again), an
     * active alarm whose fault is no longer open clears (after its off-delay). A node taking the engine over
     * from another (or starting after a stop) so raises nothing twice and loses no fault. Then looks at time
     * every tick.
     */
    async start(): Promise<void> {
      await enqueue(async () => {
        for (const row of await repo.standingAnyTenant()) {
          const key = keyOf(row);
          const subject = subjectOf(row);
          subjects.set(key, subject);
          standing.set(key, { id: row.id, round: row.attentionRound });
          if (row.shelvedReason !== null) shelfNotes.set(key, { byName: row.shelvedByName ?? '', reason: row.shelvedReason });
          engine.restore(key, sourceOf(row), await policyFor(subject));
        }
        if (!deps.openFaults) return;
        const open = new Set<SourceKey>();
        for (const fault of await deps.openFaults()) {
          const key = keyOf(fault);
          open.add(key);
          if (engine.source(key).faulty) continue;
          const { raisedAt, ...subject } = fault;
          if (!subjects.has(key)) subjects.set(key, subject);
          stage(engine.fault(key, await policyFor(subject), raisedAt));
        }
        for (const key of standing.keys())
          if (!open.has(key) && engine.source(key).faulty) stage(engine.clear(key, await policyFor(subjects.get(key)!)));
        for (const change of engine.advance()) stage(change);
      });
      const tickMs = deps.tickMs ?? ALARM_TICK_MS;
      if (tickMs > 0) {
        tickTimer = setInterval(() => void this.tick(), tickMs);
        tickTimer.unref();
      }
    },

    /** Resolves when every change received so far is written (tests, the benchmark). */
    async settled(): Promise<void> {
      let seen: Promise<unknown>;
      do {
        seen = queue;
        await seen;
        await writeNow();
      } while (seen !== queue || staged.length > 0);
    },

    /** Sends the banner notices waiting now (tests). */
    flushBanner,

    /** Writes what is staged, then forgets every source: another node runs the engine now. */
    async stop(): Promise<void> {
      clearInterval(tickTimer);
      tickTimer = undefined;
      await this.settled();
      engine = createAlarmEngine<SourceKey>({ clock });
      subjects.clear();
      standing.clear();
      shelfNotes.clear();
    },

    close(): void {
      clearInterval(tickTimer);
      clearTimeout(bannerTimer);
    },
  };
}
export type AlarmKeeper = ReturnType<typeof createAlarmKeeper>;
