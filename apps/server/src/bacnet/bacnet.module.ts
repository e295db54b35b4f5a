import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ErrorClass, ErrorCode } from '@bacnet-js/client';
import {
  AUDIT_CHANNELS,
  LIMITS,
  deviceEndpoints,
  errorStatus,
  groupEndpoints,
  groupDisplay,
  mapDestination,
  isLang,
  sceneEndpoints,
  type DeviceMarker,
  type EndpointSpec,
  type MapTopicMessage,
} from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { BacnetConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/app-error.ts';
import { assertMay } from '../http/authority.ts';
import type { AccessService } from '../modules/access/access.ts';
import { serverCallDraft, type AuditSink } from '../http/audit-entry.ts';
import type { AuthContext } from '../http/auth.ts';
import type { Clock } from '../lib/clock.ts';
import { tenantOf, type AccountsService } from '../modules/accounts/accounts.service.ts';
import type { TelemetryRepo } from '../modules/device-reports/telemetry.repo.ts';
import type { DevicesService } from '../modules/devices/devices.service.ts';
import type { GroupsService } from '../modules/groups/groups.service.ts';
import type { ProjectMembers } from '../modules/projects/project-members.ts';
import type { ProjectsService } from '../modules/projects/projects.service.ts';
import type { ScenesService } from '../modules/scenes/scenes.service.ts';
import type { RealtimeBus } from '../realtime/realtime-bus.ts';
import { BacnetWriteError, startBacnetServer, type BacnetServer, type BacnetServerOptions, type BacnetSource } from './bacnet-server.ts';
import { createInstancesRepo } from './instances.repo.ts';
import { createDeviceSlotsRepo } from './device-slots.repo.ts';
import { createRecipientsRepo } from './recipients.repo.ts';
import { createLeaseRepo, keepLease, LEASE_DEFAULTS, type LeaseKeeper, type LeaseOptions } from './lease.ts';
import { describeObjects, instanceKey, withInstances, type BacnetObject, type ProjectSnapshot } from './object-model.ts';

const MAX_PORT = 65_535;
/** The prefix of a map's real-time destination, before its id. */
const MAP_TOPIC = mapDestination('');
/** Meters (power, energy) of stored reports are read together over this window: one query, not one per report. */
const METERS_BATCH_MS = 200;
/** How long a device's reported marker outranks a load while its state's write is not heard of: writes take milliseconds. */
const UNSTORED_TRUST_MS = 30_000;
/** 4194303 is the wildcard of Who-Is and ReadProperty. */
const MAX_DEVICE_INSTANCE = 4_194_302;

/** A meter's register in kWh to the Wh (its resolution); null for a device without a meter. */
const energyKwh = (wh: number | null) => (wh === null ? null : Math.round(wh) / 1000);

/** The audit trail's channel for what came over BACnet. */
const VIA: (typeof AUDIT_CHANNELS)[number] = 'bacnet';

/** The BACnet error a refused command is answered with. */
function bacnetErrorOf(error: AppError): BacnetWriteError {
  const status = errorStatus(error.code);
  if (status === 401 || status === 403 || error.code === 110003 || error.code === 110011)
    return new BacnetWriteError({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.WRITE_ACCESS_DENIED }, error.message);
  if (status === 503 || status === 504)
    return new BacnetWriteError({ errorClass: ErrorClass.COMMUNICATION, errorCode: ErrorCode.TIMEOUT }, error.message);
  return new BacnetWriteError({ errorClass: ErrorClass.DEVICE, errorCode: ErrorCode.OPERATIONAL_PROBLEM }, error.message);
}

/**
 * The BACnet/IP interface (docs/bacnet.md): made with the app, started when BACNET=on (or by a test with its own
 * settings); of the nodes started for a project, the one holding its lease serves the device. It reads and commands through the same services as the API, as the configured user in the
 * configured project, so that user's authority, project scope and radio limits apply, and records every write
 * in the audit trail as that user's call through BACnet.
 */
export function createBacnetModule(deps: {
  db: Db;
  access: Pick<AccessService, 'requireObjects'>;
  accounts: Pick<AccountsService, 'findByLogin'>;
  members: Pick<ProjectMembers, 'scopeOf' | 'scopeOfProjects'>;
  projects: Pick<ProjectsService, 'tree'>;
  devices: Pick<DevicesService, 'markers' | 'control'>;
  groups: Pick<GroupsService, 'list' | 'control'>;
  /** The scene selector is served when given. */
  scenes?: Pick<ScenesService, 'all' | 'execute'>;
  telemetry: Pick<TelemetryRepo, 'ofDevices'>;
  audit: Pick<AuditSink, 'record'>;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The real-time bus: map topic messages from every node keep the served objects current between loads. */
  bus?: Pick<RealtimeBus, 'subscribe'>;
}) {
  const instances = createInstancesRepo(deps.db);
  const leases = createLeaseRepo(deps.db);
  const recipients = createRecipientsRepo(deps.db, deps.clock);
  const deviceSlots = createDeviceSlotsRepo(deps.db);
  let server: BacnetServer | undefined;

  /**
   * The bound user as a caller, limited to the bound project: looked up on every load, so a user disabled,
   * deleted or given less authority stops BACnet reads and writes as it stops their sign-in.
   */
  async function callerOf(config: BacnetConfig): Promise<AuthContext> {
    const user = await deps.accounts.findByLogin(config.account);
    if (!user || user.deletedAt) throw new AppError(250020);
    if (!user.enabled) throw new AppError(250018);
    const tenantId = tenantOf(user);
    const own = user.parentId !== null && !user.allProjects ? await deps.members.scopeOf({ tenantId, userId: user.id }) : undefined;
    const bound = await deps.members.scopeOfProjects({ tenantId, projectIds: [config.projectId] });
    const scope = own
      ? {
          projectIds: new Set([...bound.projectIds].filter((id) => own.projectIds.has(id))),
          mapIds: new Set([...bound.mapIds].filter((id) => own.mapIds.has(id))),
        }
      : bound;
    return {
      userId: user.id,
      tenantId,
      userAuth: user.userAuth,
      operateAuth: user.operateAuth,
      pushAuth: false,
      lang: isLang(user.lang) ? user.lang : 'en',
      sessionId: 0n,
      scope,
    };
  }

  /** The project's maps (with its sub-projects') as the bound user sees them. */
  async function mapsOf(caller: AuthContext, config: BacnetConfig) {
    const tree = await deps.projects.tree(caller, String(config.projectId));
    const project = tree.projects.find((p) => p.id === String(config.projectId));
    const maps = tree.projects.flatMap((p) => p.builds.flatMap((b) => b.maps.map((m) => ({ id: m.id, name: m.name }))));
    return { projectName: project?.name ?? '', maps };
  }

  /** The project, or with one device per map the one map `mapId`. */
  async function snapshot(
    caller: AuthContext,
    config: BacnetConfig,
    mapId?: string,
  ): Promise<{ projectName: string; snapshot: ProjectSnapshot }> {
    const all = await mapsOf(caller, config);
    const project = { name: all.projectName };
    const maps = mapId === undefined ? all.maps : all.maps.filter((m) => m.id === mapId);
    const markers = (
      await Promise.all(maps.map(async (m) => (await deps.devices.markers(caller, m.id)).map((d) => ({ ...d, mapId: m.id }))))
    ).flat();
    const power = await deps.telemetry.ofDevices(
      caller.tenantId,
      markers.map((d) => BigInt(d.id)),
    );
    const groups = (await Promise.all(maps.map((m) => deps.groups.list(caller, m.id)))).flat();
    // Only the kinds that run by hand are asked for: timed scenes' views compute their next runs.
    const scenes = deps.scenes
      ? (
          await Promise.all(
            (['manual', 'sequence'] as const).map((kind) => deps.scenes!.all(caller, { projectId: String(config.projectId), kind })),
          )
        )
          .flat()
          .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))
          .map((s) => ({ id: s.id, name: s.name, lastRunAt: s.lastRun?.at ?? null }))
      : undefined;
    return {
      projectName: project?.name ?? '',
      snapshot: {
        maps,
        devices: markers.map((d) => ({
          id: d.id,
          name: d.name,
          type: d.type,
          mapId: d.mapId,
          status: d.status,
          display: d.display,
          powerW: power.get(d.id)?.power ?? null,
          energyKwh: energyKwh(power.get(d.id)?.energyWh ?? null),
        })),
        groups: groups.map((g) => ({ id: g.id, name: g.name, mapId: g.mapId, deviceIds: g.deviceIds, display: g.display })),
        ...(scenes ? { scenes: { projectId: String(config.projectId), list: scenes } } : {}),
      },
    };
  }

  /**
   * Runs a call as its API route would: the route layer's authority and object checks first, audited as the
   * bound user's call via BACnet whatever the outcome; a refusal answers as the BACnet error it maps to.
   */
  async function callAsRoute(
    caller: AuthContext,
    config: BacnetConfig,
    call: { spec: EndpointSpec; input: { params?: Record<string, string>; body?: unknown }; from: string },
    run: () => Promise<unknown>,
  ) {
    const { spec, input, from } = call;
    let code = 0;
    try {
      assertMay(caller, spec.access);
      if (spec.objects) await deps.access.requireObjects(caller, spec.access, spec.objects, input);
      await run();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      code = error.code;
      throw bacnetErrorOf(error);
    } finally {
      deps.audit.record({
        ...serverCallDraft(spec, { auth: caller, input, at: deps.clock.now() }),
        via: VIA,
        ip: from.split(':')[0] ?? '',
        project: Promise.resolve(config.projectId),
        code,
      });
    }
  }

  /** The objects of the project's device, or of one map's device: instances are the project's either way. */
  function sourceOf(config: BacnetConfig, mapId?: string): BacnetSource {
    type Device = ProjectSnapshot['devices'][number];
    type Group = ProjectSnapshot['groups'][number];
    /** The last load, patched by the map topics' messages since; its arrays are this source's own copies. */
    let held:
      | {
          tenantId: bigint;
          deviceName: string;
          maps: Set<string>;
          devices: Device[];
          groups: Group[];
          rest: ProjectSnapshot;
          kept: Map<string, number>;
        }
      | undefined;
    let listener: ((loaded: { deviceName: string; objects: BacnetObject[] }) => void) | undefined;
    /** Markers heard while a load runs: applied again on its result, which may have been read before them. */
    let heardDuringLoad: Map<string, DeviceMarker> | undefined;
    /**
     * The last marker of each device whose state is not written yet (no `stored` heard for it since): a report's
     * marker comes before its write, so a load begun in between reads the state before it, and would take back a
     * fault the BMS was just told of. Trusted over the store for UNSTORED_TRUST_MS at most, for a write that failed.
     */
    const unstored = new Map<string, { marker: DeviceMarker; heardAt: number }>();
    let loadsRunning = 0;
    let emitQueued = false;
    let fullQueued = false;
    /** Devices whose stored report's meters are still to be read, in one query per METERS_BATCH_MS. */
    const metersToRead = new Set<string>();
    let metersTimer: NodeJS.Timeout | undefined;

    async function loadAll() {
      const caller = await callerOf(config);
      heardDuringLoad ??= new Map();
      loadsRunning++;
      try {
        const { projectName, snapshot: now } = await snapshot(caller, config, mapId);
        const drafts = describeObjects(now);
        const kept = await instances.ensure(config.projectId, drafts);
        const mapName = mapId === undefined ? '' : (now.maps[0]?.name ?? '');
        held = {
          tenantId: caller.tenantId,
          deviceName: `Lumigrid ${projectName} ${mapName}`.trim(),
          maps: new Set(now.maps.map((m) => m.id)),
          devices: now.devices.map((d) => ({ ...d })),
          groups: now.groups.map((g) => ({ ...g })),
          rest: now,
          kept,
        };
        for (const marker of heardDuringLoad.values()) applyMarker(marker);
        for (const marker of unstoredMarkers()) applyMarker(marker);
        return objectsOf(held)!;
      } finally {
        if (--loadsRunning === 0) heardDuringLoad = undefined;
      }
    }

    /** The held snapshot's objects, or undefined when one of them has no instance yet (a full load allocates it). */
    function objectsOf(state: NonNullable<typeof held>) {
      const drafts = describeObjects({ ...state.rest, devices: state.devices, groups: state.groups });
      if (drafts.some((d) => !state.kept.has(instanceKey(d)))) return undefined;
      return { deviceName: state.deviceName, objects: withInstances(drafts, state.kept) };
    }

    /** The markers newer than the store, those heard too long ago forgotten. */
    function unstoredMarkers(): DeviceMarker[] {
      const since = Date.now() - UNSTORED_TRUST_MS;
      for (const [id, { heardAt }] of unstored) if (heardAt < since) unstored.delete(id);
      return [...unstored.values()].map((u) => u.marker);
    }

    /** Loads everything again soon (a change the messages do not describe: a device new here, one gone). */
    function loadSoon() {
      if (fullQueued || !listener) return;
      fullQueued = true;
      setImmediate(() => {
        fullQueued = false;
        loadAll()
          .then((loaded) => listener?.(loaded))
          .catch((err: unknown) => deps.logger.warn({ err }, 'BACnet: the objects not loaded again after a change'));
      });
    }

    /** The changed devices' objects, their groups' and the totals, told once per turn of the event loop. */
    function emitSoon() {
      if (emitQueued) return;
      emitQueued = true;
      setImmediate(() => {
        emitQueued = false;
        if (!held || !listener) return;
        const loaded = objectsOf(held);
        if (loaded) listener(loaded);
        else loadSoon();
      });
    }

    /** A marker of a device held: its state, and its groups' state from their members' (as the group list computes it). */
    function applyMarker(marker: DeviceMarker): boolean {
      const device = held?.devices.find((d) => d.id === marker.id);
      if (!held || !device) return false;
      device.status = marker.status;
      device.display = marker.display;
      device.name = marker.name;
      for (const group of held.groups) {
        if (!group.deviceIds.includes(marker.id)) continue;
        const members = held.devices.filter((d) => group.deviceIds.includes(d.id)).map((d) => d.display);
        group.display = groupDisplay(members).display;
      }
      return true;
    }

    /** Power and energy of devices whose report is now stored, read for them alone. */
    async function readMeters(ids: readonly string[]) {
      if (!held) return;
      const state = held;
      const power = await deps.telemetry.ofDevices(
        state.tenantId,
        ids.map((id) => BigInt(id)),
      );
      if (held !== state) return;
      for (const device of state.devices) {
        const meter = power.get(device.id);
        if (!ids.includes(device.id) || !meter) continue;
        device.powerW = meter.power ?? null;
        device.energyKwh = energyKwh(meter.energyWh ?? null);
      }
      emitSoon();
    }

    function onMessage(mapOf: string, message: MapTopicMessage) {
      if ('removed' in message) return loadSoon();
      if ('stored' in message) {
        for (const id of message.stored) {
          metersToRead.add(id);
          unstored.delete(id);
        }
        metersTimer ??= setTimeout(() => {
          metersTimer = undefined;
          const ids = [...metersToRead].filter((id) => held?.devices.some((d) => d.id === id));
          metersToRead.clear();
          if (ids.length > 0)
            readMeters(ids).catch((err: unknown) => deps.logger.warn({ err, mapId: mapOf }, 'BACnet: meters not read after a report'));
        }, METERS_BATCH_MS);
        return;
      }
      heardDuringLoad?.set(message.id, message);
      unstored.set(message.id, { marker: message, heardAt: Date.now() });
      if (applyMarker(message)) emitSoon();
      else if (held && !heardDuringLoad) loadSoon();
    }

    return {
      load: loadAll,

      watch(changed) {
        listener = changed;
        const stop = deps.bus?.subscribe((event) => {
          if (event.kind === 'placementsChanged') return loadSoon();
          if (event.kind !== 'message' || !event.destination.startsWith(MAP_TOPIC)) return;
          const mapOf = event.destination.slice(MAP_TOPIC.length);
          if (!held?.maps.has(mapOf)) return;
          try {
            onMessage(mapOf, JSON.parse(event.body) as MapTopicMessage);
          } catch (err) {
            deps.logger.warn({ err }, 'BACnet: a map topic message not understood');
          }
        });
        return () => {
          listener = undefined;
          if (metersTimer) clearTimeout(metersTimer);
          metersTimer = undefined;
          stop?.();
        };
      },

      async command(object: BacnetObject, value: number, from: string) {
        const caller = await callerOf(config).catch((error: unknown) => {
          throw error instanceof AppError ? bacnetErrorOf(error) : error;
        });
        const sceneId = object.command === 'scene' ? object.sceneIds?.[value - 1] : undefined;
        if (sceneId)
          return callAsRoute(caller, config, { spec: sceneEndpoints.execute, input: { params: { id: sceneId }, body: {} }, from }, () =>
            deps.scenes!.execute(caller, sceneId),
          );
        if (object.source === 'group') {
          const body = { id: object.sourceId, action: { op: 'brightness' as const, percent: value } };
          return callAsRoute(caller, config, { spec: groupEndpoints.control, input: { body }, from }, () =>
            deps.groups.control(caller, body),
          );
        }
        const body = {
          id: object.sourceId,
          action: object.command === 'onOff' ? { op: 'onOff' as const, on: value === 1 } : { op: 'brightness' as const, percent: value },
        };
        return callAsRoute(caller, config, { spec: deviceEndpoints.control, input: { body }, from }, () =>
          deps.devices.control(caller, body as Parameters<DevicesService['control']>[1]),
        );
      },
    };
  }

  type Serving = Pick<BacnetServerOptions, 'freshMs' | 'reconcileMs' | 'announceTo'>;

  /** One device on the wire: the project's, or with a map one map's. */
  function serve(config: BacnetConfig, at: { port: number; deviceInstance: number; mapId?: string }, serving: Serving) {
    const key = { projectId: config.projectId, deviceInstance: at.deviceInstance };
    return startBacnetServer({
      port: at.port,
      interface: config.interface,
      deviceInstance: at.deviceInstance,
      readOnly: config.readOnly,
      version: LIMITS.version,
      source: sourceOf(config, at.mapId),
      recipientStore: { load: () => recipients.load(key), save: (list) => recipients.save(key, list) },
      logger: deps.logger,
      ...serving,
    });
  }

  /** With one device per map: the devices of the maps served, by map id. */
  const mapServers = new Map<string, BacnetServer>();
  let mapTimer: NodeJS.Timeout | undefined;
  let syncing: Promise<void> | undefined;

  /**
   * Serves a device for every map of the project and stops those of maps gone; run when the lease is taken and at
   * every lease try after, so a new map gets its device within a try. A device that cannot start (its port taken)
   * is said and tried again at the next run; the others serve meanwhile.
   */
  function syncMapDevices(config: BacnetConfig, serving: Serving): Promise<void> {
    syncing ??= (async () => {
      const { maps } = await mapsOf(await callerOf(config), config);
      const slots = await deviceSlots.ensure(
        config.projectId,
        maps.map((m) => m.id),
      );
      const wanted = new Set(maps.map((m) => m.id));
      for (const [mapId, running] of mapServers)
        if (!wanted.has(mapId)) {
          running.close();
          mapServers.delete(mapId);
        }
      for (const map of maps) {
        if (mapServers.has(map.id)) continue;
        const slot = slots.get(map.id)!;
        const at = { port: config.port + slot, deviceInstance: config.deviceInstance + slot, mapId: map.id };
        if (at.port > MAX_PORT || at.deviceInstance > MAX_DEVICE_INSTANCE) {
          deps.logger.error({ mapId: map.id, slot }, "BACnet: no port or device instance left for this map's device");
          continue;
        }
        try {
          const started = await serve(config, at, serving);
          // The lease may have gone while it started.
          if (!keeper?.isHeld()) {
            started.close();
            continue;
          }
          mapServers.set(map.id, started);
          deps.logger.info(
            { mapId: map.id, map: map.name, port: at.port, deviceInstance: at.deviceInstance },
            "BACnet: a map's device serves",
          );
        } catch (err) {
          deps.logger.error({ err, mapId: map.id, port: at.port }, "BACnet: a map's device could not start");
        }
      }
    })()
      .catch((err: unknown) => deps.logger.warn({ err }, "BACnet: the maps' devices not brought up to date"))
      .finally(() => {
        syncing = undefined;
      });
    return syncing;
  }

  /** This node's name in bacnet_leases. */
  const defaultHolder = `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
  let keeper: LeaseKeeper | undefined;

  return {
    /**
     * Serves the project's device with these settings (BACNET_* at start, or a test's) while this node holds the
     * project's lease; waits for the first try, so a node that takes it listens when this resolves.
     */
    async start(
      config: BacnetConfig,
      options: Pick<BacnetServerOptions, 'freshMs' | 'reconcileMs' | 'announceTo'> & {
        lease?: Partial<LeaseOptions>;
        holder?: string;
      } = {},
    ) {
      if (keeper) throw new Error('the BACnet/IP interface is already started');
      const { lease, holder, ...serving } = options;
      // A binding that does not hold yet (the account or project made later) is said once, in words a person acts on.
      await callerOf(config)
        .then((caller) => deps.projects.tree(caller, String(config.projectId)))
        .catch((err: unknown) =>
          deps.logger.error(
            { err, account: config.account, projectId: String(config.projectId) },
            'BACnet: BACNET_ACCOUNT must be an enabled user who sees the project BACNET_PROJECT; reads and writes fail until it is',
          ),
        );
      keeper = keepLease({
        lease: leases.of(config.projectId),
        what: 'BACnet',
        holder: holder ?? defaultHolder,
        clock: deps.clock,
        logger: deps.logger,
        options: { ...LEASE_DEFAULTS, ...lease },
        onHeld: async () => {
          if (config.devicePer === 'map') {
            await syncMapDevices(config, serving);
            mapTimer = setInterval(() => void syncMapDevices(config, serving), lease?.tryMs ?? LEASE_DEFAULTS.tryMs);
            return;
          }
          server = await serve(config, { port: config.port, deviceInstance: config.deviceInstance }, serving);
        },
        onLost: async () => {
          if (mapTimer) clearInterval(mapTimer);
          mapTimer = undefined;
          // A run still starting devices finishes first, so none it starts is left serving.
          await syncing;
          server?.close();
          server = undefined;
          for (const running of mapServers.values()) running.close();
          mapServers.clear();
        },
      });
      await keeper.settled();
    },
    /** The running interface while this node holds the lease (one device for the project). */
    get server() {
      return server;
    },
    /** With one device per map: the running devices by map id. */
    get mapServers(): ReadonlyMap<string, BacnetServer> {
      return mapServers;
    },
    /** The lease keeper once started (tests try it at once). */
    get lease() {
      return keeper;
    },
    async close() {
      await keeper?.stop();
      keeper = undefined;
    },
  };
}
export type BacnetModule = ReturnType<typeof createBacnetModule>;
