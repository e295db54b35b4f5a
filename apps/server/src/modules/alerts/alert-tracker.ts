import { FAULT_CODES, type DecodedUp, type DeviceState } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { FaultsChangedEvent, RealtimeBus } from '../../realtime/realtime-bus.ts';
import type { DevicesRepo } from '../devices/devices.repo.ts';
import type { GatewaysRepo } from '../gateways/gateways.repo.ts';
import type { AlertSubject, AlertsRepo } from './alerts.repo.ts';

const OFFLINE: number = FAULT_CODES.offline;

/** An alert this node raised, for the notices. */
export interface RaisedAlert extends AlertSubject {
  id: bigint;
  code: number;
  raisedAt: Date;
}

/** What one gateway's devices have open, as this node last saw them ('' is the gateway itself). */
interface GatewayFaults {
  subject: AlertSubject;
  open: Map<string, Set<number>>;
}

/**
 * Turns what gateways say into alerts: a fault code in a report or a `fault` event raises an alert once,
 * its end clears it; offline (code 2, a device reported offline or a gateway that lost its connection) is
 * raised only when it lasts `graceMs`, so a reconnect of a few seconds pages nobody. A gateway's messages are
 * handled in arrival order. What is open is kept in memory per gateway, read from the alerts on its first
 * message; the database's one-open-alert-per-code index keeps a second node or a redelivery from raising
 * twice. Alerts are raised and cleared at the server's time of receipt, never at the message's `ts`: a gateway's
 * clock may be wrong, and an alert dated by it would be raised in the future or cleared before it was raised.
 */
export function createAlertTracker(deps: {
  repo: AlertsRepo;
  /** Where a reporting gateway and its devices stand: what an alert is raised on. */
  gateways: Pick<GatewaysRepo, 'placeAnyTenant'>;
  devices: Pick<DevicesRepo, 'atAddress'>;
  clock: Clock;
  graceMs: number;
  onRaised: (alert: RaisedAlert) => void;
  /** Told of the faults of one device (or gateway) that cleared together (the alarm engine). */
  onCleared?: (cleared: { gatewayId: bigint; addr: string; codes: number[] }) => void;
  /**
   * Tells of gateways that changed place or account (placementsChanged), on this node and the others; carries
   * the faults this node raises and clears to the others (faultsChanged), so each node's open faults stay in
   * step whichever node a gateway's next report reaches.
   */
  bus: Pick<RealtimeBus, 'subscribe'> & Partial<Pick<RealtimeBus, 'publish'>>;
  /** This node's name on the bus: its own faultsChanged are not applied twice. */
  node?: string;
  logger: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const { repo } = deps;
  const gateways = new Map<string, GatewayFaults>();
  const macOf = new Map<bigint, string>();
  // A gateway unbound, bound elsewhere or moved is read again, so no alert lands in an account it left.
  const node = deps.node ?? '';
  const unsubscribe = deps.bus.subscribe((event) => {
    if (event.kind === 'faultsChanged') {
      if (event.node !== node) heardFrom(event);
      return;
    }
    if (event.kind !== 'placementsChanged') return;
    for (const id of event.gatewayIds) {
      const mac = macOf.get(BigInt(id));
      if (mac !== undefined) gateways.delete(mac);
    }
  });
  const chains = new Map<string, Promise<void>>();
  /** Offline waiting out the grace period, by `${mac}/${addr}`. */
  const waiting = new Map<string, NodeJS.Timeout>();

  /** Runs a gateway's work after the work before it, so its faults change in arrival order. */
  function enqueue(mac: string, work: () => Promise<void>): Promise<void> {
    const next = (chains.get(mac) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) => deps.logger.warn({ err, mac }, 'alerts not updated'))
      .finally(() => {
        if (chains.get(mac) === next) chains.delete(mac);
      });
    chains.set(mac, next);
    return next;
  }

  async function settled(): Promise<void> {
    while (chains.size > 0) await Promise.all(chains.values());
  }

  /** Another node raised or cleared a fault: a gateway this node holds open faults of takes the change. */
  function heardFrom(event: FaultsChangedEvent) {
    const mac = macOf.get(BigInt(event.gatewayId));
    const faults = mac === undefined ? undefined : gateways.get(mac);
    if (!faults) return;
    const open = faults.open.get(event.addr) ?? new Set<number>();
    if (event.raised) open.add(event.raised.code);
    for (const code of event.cleared ?? []) open.delete(code);
    faults.open.set(event.addr, open);
  }

  async function faultsOf(mac: string): Promise<GatewayFaults | undefined> {
    const known = gateways.get(mac);
    if (known) return known;
    const place = await deps.gateways.placeAnyTenant({ mac });
    if (!place) return undefined;
    const subject: AlertSubject = {
      tenantId: place.tenantId,
      gatewayId: place.id,
      gatewayName: place.name || mac,
      deviceId: null,
      addr: '',
      name: place.name || mac,
      deviceType: null,
      projectId: place.projectId,
      buildId: place.buildId,
      mapId: place.mapId,
    };
    const loaded = { subject, open: await repo.openOfGateway({ gatewayId: subject.gatewayId }) };
    gateways.set(mac, loaded);
    macOf.set(subject.gatewayId, mac);
    return loaded;
  }

  async function subjectOf(faults: GatewayFaults, addr: string): Promise<AlertSubject | undefined> {
    if (addr === '') return faults.subject;
    const device = await deps.devices.atAddress({ gatewayId: faults.subject.gatewayId, tenantId: faults.subject.tenantId, addr });
    if (!device) return undefined;
    return {
      ...faults.subject,
      deviceId: device.id,
      addr,
      name: device.name,
      deviceType: device.type,
      projectId: device.projectId,
      buildId: device.buildId,
      mapId: device.mapId,
    };
  }

  async function raise(faults: GatewayFaults, addr: string, code: number, at: Date) {
    const open = faults.open.get(addr) ?? new Set<number>();
    if (open.has(code)) return;
    open.add(code);
    faults.open.set(addr, open);
    const subject = await subjectOf(faults, addr);
    if (!subject) return;
    const id = await repo.raise({ ...subject, code, raisedAt: at });
    if (id === undefined) return;
    deps.onRaised({ ...subject, id, code, raisedAt: at });
    deps.bus.publish?.({
      kind: 'faultsChanged',
      node,
      gatewayId: String(subject.gatewayId),
      addr,
      raised: {
        tenantId: String(subject.tenantId),
        gatewayName: subject.gatewayName,
        deviceId: subject.deviceId === null ? null : String(subject.deviceId),
        name: subject.name,
        projectId: subject.projectId === null ? null : String(subject.projectId),
        mapId: subject.mapId === null ? null : String(subject.mapId),
        code,
        raisedAt: at.toISOString(),
      },
    });
  }

  async function clear(faults: GatewayFaults, addr: string, code: number | undefined, at: Date) {
    const open = faults.open.get(addr);
    if (!open || open.size === 0) return;
    if (code !== undefined && !open.has(code)) return;
    const codes = code === undefined ? [...open] : [code];
    if (code === undefined) open.clear();
    else open.delete(code);
    await repo.clear({ gatewayId: faults.subject.gatewayId, addr, code, at });
    deps.onCleared?.({ gatewayId: faults.subject.gatewayId, addr, codes });
    deps.bus.publish?.({ kind: 'faultsChanged', node, gatewayId: String(faults.subject.gatewayId), addr, cleared: codes });
  }

  /**
   * Offline that lasts the grace period is raised, dated from when it began. The grace counts from `since`: a
   * gateway's presence is told only once it has been away for the link's own grace (presence.ts), which counts too.
   */
  function offline(mac: string, addr: string, since: Date) {
    const key = `${mac}/${addr}`;
    if (waiting.has(key) || gateways.get(mac)?.open.get(addr)?.has(OFFLINE)) return;
    const left = Math.max(0, deps.graceMs - (deps.clock.now().getTime() - since.getTime()));
    const timer = setTimeout(() => {
      waiting.delete(key);
      void enqueue(mac, async () => {
        const faults = await faultsOf(mac);
        if (faults) await raise(faults, addr, OFFLINE, since);
      });
    }, left);
    timer.unref();
    waiting.set(key, timer);
  }

  /** Back in time: the offline that waited is forgotten, one raised is cleared. */
  async function online(mac: string, faults: GatewayFaults, addr: string, at: Date) {
    const key = `${mac}/${addr}`;
    clearTimeout(waiting.get(key));
    waiting.delete(key);
    await clear(faults, addr, OFFLINE, at);
  }

  /** A device's state in a report: its code is the only one open (offline stands for any other while it lasts). */
  async function reported(mac: string, faults: GatewayFaults, state: DeviceState, at: Date) {
    if (!state.online) {
      offline(mac, state.addr, at);
      return;
    }
    await online(mac, faults, state.addr, at);
    const open = faults.open.get(state.addr);
    for (const code of [...(open ?? [])]) if (code !== state.fault) await clear(faults, state.addr, code, at);
    if (state.fault !== 0 && state.fault !== OFFLINE) await raise(faults, state.addr, state.fault, at);
  }

  return {
    /** A decoded up message: reports and fault events change alerts; the rest is not the tracker's. */
    onUp(message: DecodedUp): void {
      const { mac } = message;
      // Taken now, on arrival, not when the gateway's queue reaches the message.
      const at = deps.clock.now();
      if (message.channel === 'report') {
        const { devices } = message.message;
        void enqueue(mac, async () => {
          const faults = await faultsOf(mac);
          if (!faults) return;
          for (const state of devices) await reported(mac, faults, state, at);
        });
      } else if (message.channel === 'event' && message.message.type === 'fault') {
        const event = message.message;
        void enqueue(mac, async () => {
          const faults = await faultsOf(mac);
          if (!faults) return;
          if (event.code === OFFLINE) {
            if (event.raised) offline(mac, event.addr, at);
            else await online(mac, faults, event.addr, at);
          } else if (event.raised) await raise(faults, event.addr, event.code, at);
          else await clear(faults, event.addr, event.code, at);
        });
      }
    },

    /** A gateway's connection came or went (presence), `since` when it did (now when not given). */
    presence(mac: string, isOnline: boolean, since?: Date): void {
      const at = deps.clock.now();
      if (!isOnline) {
        offline(mac, '', since ?? at);
        return;
      }
      void enqueue(mac, async () => {
        const faults = await faultsOf(mac);
        if (faults) await online(mac, faults, '', at);
      });
    },

    /** Offline waiting out the grace period (tests: a flap leaves none). */
    waitingOffline(): number {
      return waiting.size;
    },

    /** Resolves when every message received so far has been handled (tests). */
    settled,

    /**
     * Takes no more changes from other nodes, drops the offline waiting out its grace, and resolves once the work
     * already begun is written: the database closes after the modules, so a write left running would be lost.
     */
    async close(): Promise<void> {
      unsubscribe();
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      await settled();
    },
  };
}
export type AlertTracker = ReturnType<typeof createAlertTracker>;
