import type { DecodedUp } from '@lumigrid/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '../../realtime/realtime-bus.ts';
import { createAlertTracker, type RaisedAlert } from './alert-tracker.ts';
import type { AlertSubject, AlertsRepo } from './alerts.repo.ts';

// The tracker's rules against an in-memory alerts table: no database, no app, no broker.

const MAC = 'A4C138000001';
const GATEWAY: AlertSubject = {
  tenantId: 1n,
  gatewayId: 10n,
  gatewayName: 'Lobby gateway',
  deviceId: null,
  addr: '',
  name: 'Lobby gateway',
  deviceType: null,
  projectId: 100n,
  buildId: 200n,
  mapId: 300n,
};
const GRACE_MS = 30_000;
const START = Date.parse('2026-11-23T08:00:00Z');

interface Row {
  id: bigint;
  addr: string;
  code: number;
  deviceId: bigint | null;
  raisedAt: Date;
  clearedAt: Date | null;
}

/** The alerts table as the repo keeps it, with its one-open-alert-per-code index. */
function memoryAlerts() {
  const rows: Row[] = [];
  const repo = {
    openOfGateway: async () => {
      const open = new Map<string, Set<number>>();
      for (const r of rows.filter((row) => !row.clearedAt)) open.set(r.addr, (open.get(r.addr) ?? new Set()).add(r.code));
      return open;
    },
    raise: async (q: AlertSubject & { code: number; raisedAt: Date }) => {
      if (rows.some((r) => !r.clearedAt && r.addr === q.addr && r.code === q.code)) return undefined;
      const id = BigInt(rows.length + 1);
      rows.push({ id, addr: q.addr, code: q.code, deviceId: q.deviceId, raisedAt: q.raisedAt, clearedAt: null });
      return id;
    },
    clear: async (q: { addr: string; code?: number; at: Date }) => {
      for (const r of rows) if (!r.clearedAt && r.addr === q.addr && (q.code === undefined || r.code === q.code)) r.clearedAt = q.at;
    },
  };
  return { rows, repo: repo as unknown as AlertsRepo };
}

function rig(devices: Record<string, { id: bigint; name: string; type: number }> = { '01': { id: 501n, name: 'Hall light', type: 1 } }) {
  let now = START;
  const table = memoryAlerts();
  const raised: RaisedAlert[] = [];
  const busListeners: Array<(event: RealtimeEvent) => void> = [];
  const warnings: unknown[] = [];
  const tracker = createAlertTracker({
    repo: table.repo,
    gateways: {
      placeAnyTenant: async (q: { mac: string }) =>
        q.mac === MAC
          ? {
              id: GATEWAY.gatewayId,
              name: GATEWAY.gatewayName,
              tenantId: GATEWAY.tenantId,
              mapId: GATEWAY.mapId,
              buildId: GATEWAY.buildId,
              projectId: GATEWAY.projectId,
            }
          : undefined,
    },
    devices: {
      atAddress: async (q: { addr: string }) => {
        const d = devices[q.addr];
        return d && { ...d, mapId: GATEWAY.mapId, buildId: GATEWAY.buildId, projectId: GATEWAY.projectId };
      },
    },
    clock: { now: () => new Date(now) },
    graceMs: GRACE_MS,
    onRaised: (alert) => raised.push(alert),
    bus: {
      subscribe: (handler) => {
        busListeners.push(handler);
        return () => busListeners.splice(busListeners.indexOf(handler), 1);
      },
    },
    logger: { warn: (...args: unknown[]) => void warnings.push(args) } as never,
  });
  const report = (...devicesState: Array<{ addr: string; online?: boolean; fault?: number }>) =>
    tracker.onUp({
      mac: MAC,
      channel: 'report',
      message: { ts: 1, full: true, devices: devicesState.map((d) => ({ kind: 'light-single', online: true, fault: 0, ...d })) },
    } as unknown as DecodedUp);
  const fault = (addr: string, code: number, raised: boolean) =>
    tracker.onUp({ mac: MAC, channel: 'event', message: { type: 'fault', ts: 1, addr, code, raised } } as unknown as DecodedUp);
  const open = () => table.rows.filter((r) => !r.clearedAt).map((r) => `${r.addr}:${r.code}`);
  return {
    tracker,
    repo: table.repo,
    rows: table.rows,
    raised,
    warnings,
    busListeners,
    report,
    fault,
    advance: (ms: number) => (now += ms),
    open,
    /** The open alerts once the tracker has written what it was told. */
    openWhenSettled: async () => {
      await tracker.settled();
      return open();
    },
  };
}

describe('the alert tracker (in-memory alerts)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('raises a reported fault once, however often the gateway reports it', async () => {
    const r = rig();
    r.report({ addr: '01', fault: 8 });
    r.report({ addr: '01', fault: 8 });
    r.fault('01', 8, true);
    expect(await r.openWhenSettled()).toEqual(['01:8']);
    expect(r.raised).toHaveLength(1);
    expect(r.raised[0]).toMatchObject({ code: 8, deviceId: 501n, name: 'Hall light', gatewayName: 'Lobby gateway', mapId: 300n });
  });

  it('dates an alert by the server’s clock at receipt, not by the gateway’s ts', async () => {
    const r = rig();
    r.report({ addr: '01', fault: 8 });
    await r.tracker.settled();
    expect(r.rows[0]!.raisedAt.getTime()).toBe(START);
  });

  it('clears the old code when a report carries another one, and raises the new', async () => {
    const r = rig();
    r.report({ addr: '01', fault: 8 });
    r.advance(1000);
    r.report({ addr: '01', fault: 1 });
    expect(await r.openWhenSettled()).toEqual(['01:1']);
    expect(r.rows.find((row) => row.code === 8)!.clearedAt!.getTime()).toBe(START + 1000);
  });

  it('clears every open code when the device reports healthy', async () => {
    const r = rig();
    r.fault('01', 8, true);
    r.fault('01', 1, true);
    r.report({ addr: '01', fault: 0 });
    expect(await r.openWhenSettled()).toEqual([]);
  });

  it.each([
    {
      rule: 'clears only the code a fault event ends',
      events: [
        [8, true],
        [1, true],
        [8, false],
      ],
      open: ['01:1'],
    },
    {
      rule: 'handles a gateway’s messages in arrival order',
      events: [
        [8, true],
        [8, false],
        [8, true],
      ],
      open: ['01:8'],
    },
  ] as const)('$rule', async ({ events, open }) => {
    const r = rig();
    for (const [code, raised] of events) r.fault('01', code, raised);
    expect(await r.openWhenSettled()).toEqual(open);
    // One row per raise: a code raised again after its end is a new alert.
    expect(r.rows).toHaveLength(2);
  });

  it('ignores the end of a fault that was never open', async () => {
    const r = rig();
    r.fault('01', 8, false);
    await r.tracker.settled();
    expect(r.rows).toEqual([]);
  });

  it('raises offline only when it lasts the grace period, dated from when it began', async () => {
    const r = rig();
    r.report({ addr: '01', online: false });
    await r.tracker.settled();
    expect(r.tracker.waitingOffline()).toBe(1);
    r.advance(GRACE_MS);
    await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
    await r.tracker.settled();
    expect(r.rows).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await r.openWhenSettled()).toEqual(['01:2']);
    expect(r.rows[0]!.raisedAt.getTime()).toBe(START);
  });

  it('forgets an offline that comes back within the grace period: a flap pages nobody', async () => {
    const r = rig();
    r.report({ addr: '01', online: false });
    r.report({ addr: '01', online: true });
    await r.tracker.settled();
    expect(r.tracker.waitingOffline()).toBe(0);
    await vi.advanceTimersByTimeAsync(GRACE_MS * 2);
    await r.tracker.settled();
    expect(r.rows).toEqual([]);
    expect(r.raised).toEqual([]);
  });

  it('clears a raised offline when the device is back', async () => {
    const r = rig();
    r.fault('01', 2, true);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(await r.openWhenSettled()).toEqual(['01:2']);
    r.fault('01', 2, false);
    expect(await r.openWhenSettled()).toEqual([]);
  });

  it('waits once per device for offline, however many reports say so', async () => {
    const r = rig();
    r.report({ addr: '01', online: false });
    r.report({ addr: '01', online: false });
    await r.tracker.settled();
    expect(r.tracker.waitingOffline()).toBe(1);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    await r.tracker.settled();
    expect(r.rows).toHaveLength(1);
  });

  it('raises the gateway’s own offline (addr "") after the grace period of a lost connection, and clears it on return', async () => {
    const r = rig();
    r.tracker.presence(MAC, false);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(await r.openWhenSettled()).toEqual([':2']);
    expect(r.raised[0]).toMatchObject({ addr: '', deviceId: null, name: 'Lobby gateway' });
    r.tracker.presence(MAC, true);
    expect(await r.openWhenSettled()).toEqual([]);
  });

  it('counts the wait the link already made: a lost connection told late is raised at the end of its grace, dated from the loss', async () => {
    const r = rig();
    r.advance(GRACE_MS / 2);
    // The link held it back for half the grace (presence.ts) and tells it now, dated when the connection went.
    r.tracker.presence(MAC, false, new Date(START));
    await vi.advanceTimersByTimeAsync(GRACE_MS / 2 - 1);
    await r.tracker.settled();
    expect(r.raised).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await r.tracker.settled();
    expect(r.raised).toEqual([expect.objectContaining({ addr: '', raisedAt: new Date(START) })]);
  });

  it('raises nothing for an unknown gateway or a device it does not have', async () => {
    const r = rig();
    r.tracker.onUp({ mac: 'A4C138FFFFFF', channel: 'report', message: { ts: 1, full: true, devices: [] } } as unknown as DecodedUp);
    r.fault('99', 8, true);
    await r.tracker.settled();
    expect(r.rows).toEqual([]);
    expect(r.raised).toEqual([]);
  });

  it('does not tell of an alert another node raised first (the open-alert index refused it)', async () => {
    const r = rig();
    r.rows.push({ id: 77n, addr: '01', code: 8, deviceId: 501n, raisedAt: new Date(START - 1000), clearedAt: null });
    // This node learnt of the gateway before the other node's insert: its memory has nothing open.
    r.fault('01', 1, true);
    await r.tracker.settled();
    r.fault('01', 8, true);
    await r.tracker.settled();
    expect(r.rows.filter((row) => row.code === 8)).toHaveLength(1);
    expect(r.raised.map((a) => a.code)).toEqual([1]);
  });

  it('reads what is open from the table on a gateway’s first message, so a restart raises nothing twice', async () => {
    const r = rig();
    r.rows.push({ id: 77n, addr: '01', code: 8, deviceId: 501n, raisedAt: new Date(START - 1000), clearedAt: null });
    r.report({ addr: '01', fault: 8 });
    await r.tracker.settled();
    expect(r.raised).toEqual([]);
    r.report({ addr: '01', fault: 0 });
    expect(await r.openWhenSettled()).toEqual([]);
  });

  it('reads a gateway again after placementsChanged, so no alert lands in the account it left', async () => {
    const r = rig();
    r.fault('01', 8, true);
    await r.tracker.settled();
    // Cleared behind this node's back (another node, or the gateway moved on): memory must not be trusted.
    r.rows[0]!.clearedAt = new Date(START);
    r.fault('01', 8, true);
    expect(await r.openWhenSettled()).toEqual([]);
    for (const listener of r.busListeners) listener({ kind: 'placementsChanged', gatewayIds: ['10'] } as RealtimeEvent);
    r.fault('01', 8, true);
    expect(await r.openWhenSettled()).toEqual(['01:8']);
  });

  it('resolves its close once the alert writes it has begun are done', async () => {
    const r = rig();
    let release!: () => void;
    const raise = r.repo.raise.bind(r.repo);
    r.repo.raise = async (q) => {
      await new Promise<void>((resolve) => (release = resolve));
      return raise(q);
    };
    r.fault('01', 8, true);
    await vi.waitFor(() => expect(release).toBeDefined());
    let closed = false;
    const closing = r.tracker.close().then(() => (closed = true));
    // Every promise that can settle without the write settles before an immediate (timeouts are fake here).
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(r.open()).toEqual(['01:8']);
  });

  it('stops its grace timers on close', async () => {
    const r = rig();
    r.report({ addr: '01', online: false });
    await r.tracker.settled();
    await r.tracker.close();
    expect(r.tracker.waitingOffline()).toBe(0);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    await r.tracker.settled();
    expect(r.rows).toEqual([]);
    expect(r.busListeners).toEqual([]);
  });
});
