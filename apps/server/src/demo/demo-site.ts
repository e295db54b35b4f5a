import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  OPERATE_AUTH,
  USER_AUTH,
  isLang,
  newSceneFields,
  sceneEndpoints,
  virtualEndpoints,
  type EndpointSpec,
  type Gateway,
  type SceneFields,
  type SceneKind,
} from '@lumigrid/contract';
import { FAULT_CODES } from '@lumigrid/protocol';
import type { DeviceKind } from '@lumigrid/protocol';
import { createFleet, fleetMac, type Fleet, type SimGateway } from '@lumigrid/gateway-sim';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { AuthContext } from '../http/auth.ts';
import { serverCallDraft, type AuditSink } from '../http/audit-entry.ts';
import type { Clock } from '../lib/clock.ts';
import { tenantOf, type AccountsService } from '../modules/accounts/accounts.service.ts';
import { randomPassword, verifyPassword } from '../lib/password.ts';
import type { FirmwareFile } from '../modules/gateways/firmware-catalogue.ts';
import type { GatewayFleet } from '../modules/gateways/gateway-fleet.ts';
import type { GatewaysService } from '../modules/gateways/gateways.service.ts';
import type { MapsService } from '../modules/projects/maps.service.ts';
import type { ProjectsService } from '../modules/projects/projects.service.ts';
import type { DevicesService } from '../modules/devices/devices.service.ts';
import type { GroupsService } from '../modules/groups/groups.service.ts';
import type { ScenesService } from '../modules/scenes/scenes.service.ts';
import type { LibraryService } from '../modules/library/library.service.ts';
import type { ParamTemplatesService } from '../modules/virtual/param-templates.service.ts';
import { applyTemplates, ensureLibrary, ensureTemplates } from './demo-catalogue.ts';
import { DEMO_EMERGENCY, ensureEmergencyHistory, type DemoEmergencyDeps } from './demo-history.ts';
import {
  DEMO_EXTRA_SENSORS,
  GATEWAY_ROOMS,
  GROUPED_KINDS,
  demoGatewayPosition,
  demoName,
  demoOccupancy,
  demoPosition,
} from './demo-layout.ts';
import { FLOOR_PLAN_FILE } from './floor-plan.ts';

/** What the demo account holds. Names are looked up on every start, so a second start finds them and adds nothing. */
export const DEMO_SITE = {
  project: { name: 'Harbour Office Tower', address: '12 Harbour Quay, Wellington 6011', longitude: 174.78, latitude: -41.29 },
  /** The site's clock: schedules run on local time. */
  timezone: 'Pacific/Auckland',
  building: 'Tower A',
  map: 'Level 3',
  /**
   * MAC prefix of the demo gateways: 02 marks a locally administered address, which no manufacturer ships,
   * so a demo gateway can never share a MAC with a real one.
   */
  macPrefix: '02DE30',
  /** The gateways, in fleet order; super gateways come last in a fleet. */
  gateways: ['Level 3 West', 'Level 3 East', 'Level 3 Core', 'Level 3 Super gateway'],
  superGateways: 1,
  /**
   * Energy history the gateways send when they are bound, so the energy pages have months to show at once:
   * hourly samples keep a first start on PGlite (about 6,500 samples a second) within seconds.
   */
  energyHistory: { days: 60, stepMinutes: 60, samplesPerSecond: 8000 },
  /** Occupancy the motion sensors report when bound, so the heatmap shows last week and this one at once. */
  occupancyHistory: { days: 14, eventsPerSecond: 4000 },
  /** How the first room's motion sensor drives its group: full on, a tenth after five minutes without anyone. */
  linkage: { onDetectPercent: 100, onClearPercent: 10, holdS: 300, lux: null },
  /** The chattering fixture's fault comes and goes this often on the start that binds its gateway. */
  chattering: { raises: 5 },
} as const;

/** The first room's group, its gateway and the motion sensor on its ceiling. */
interface RoomGroup {
  gatewayId: string;
  groupId: string;
  sensorId: string | undefined;
}

/**
 * Firmware newer than what the simulated gateways run, offered to the demo's gateways alone, so a newcomer
 * can watch an update. The simulator never downloads it; `.invalid` names no host anywhere.
 */
export const DEMO_FIRMWARE: FirmwareFile[] = [
  { target: 'gateway', version: '3.3.0', url: 'https://firmware.lumigrid.invalid/demo/gateway-3.3.0.bin', macPrefix: DEMO_SITE.macPrefix },
  { target: 'zigbee', version: '1.5.0', url: 'https://firmware.lumigrid.invalid/demo/zigbee-1.5.0.bin', macPrefix: DEMO_SITE.macPrefix },
];

/** How long a started demo gateway may take to reach the server's presence. */
const ONLINE_WAIT_MS = 10_000;

type Caller = Pick<AuthContext, 'userId' | 'tenantId' | 'userAuth' | 'operateAuth' | 'lang'>;

/** What a finished seeding did, for the log line and tests. */
export interface DemoOutcome {
  account: string;
  /** True when this start created the demo account. */
  createdAccount: boolean;
  gateways: Array<{ mac: string; id: string | undefined; online: boolean }>;
  /** Devices imported on this start (0 on a start that found everything). */
  importedDevices: number;
  /** Devices this start placed on the floor plan (those it found outside any map). */
  placedDevices: number;
  /** Groups this start created (one per room, when it placed that room's lights). */
  createdGroups: number;
  /** Scenes this start created (on the first start that made the room groups). */
  createdScenes: number;
  /** Energy history samples the gateways bound on this start sent (DEMO_SITE.energyHistory). */
  backfilledSamples: number;
  /** Device library types this start added (the demo's parts). */
  libraryTypes: number;
  /** Parameter templates this start built (a functional and an interface one). */
  templates: number;
  /** Devices this start applied both templates to (the tunable-white panels of a first start). */
  templatedDevices: number;
  /** Sensor linkages this start saved (a room's motion sensor driving its group). */
  linkages: number;
  /** Emergency tasks whose sixty days of tests this start wrote into the log book. */
  emergencyTasks: number;
  /** Times the chattering fixture's fault came and went on this start. */
  chatteringRaises: number;
}

export interface DemoSite {
  /** Settles when seeding ended: the outcome, or undefined when the demo could not start (already logged). */
  ready: Promise<DemoOutcome | undefined>;
  /** The simulated gateways once started. */
  fleet(): Fleet | undefined;
  /** Stops the simulated gateways (they say offline); waits for a seeding in progress first. */
  stop(): Promise<void>;
}

export interface DemoDeps {
  config: Pick<Config, 'demoAccount' | 'demoPassword' | 'demoTimeFactor' | 'host'>;
  accounts: Pick<AccountsService, 'findByLogin' | 'createAccount' | 'setPassword'>;
  projects: Pick<ProjectsService, 'tree' | 'addProject' | 'addBuilding'>;
  maps: Pick<MapsService, 'upload' | 'addMap'>;
  gateways: Pick<
    GatewaysService,
    'lookup' | 'bind' | 'importDevices' | 'outmapDevices' | 'setLonLat' | 'setParams' | 'sync' | 'position' | 'setSensorMode'
  >;
  devices: Pick<DevicesService, 'moveIn' | 'rename'>;
  groups: Pick<GroupsService, 'add'>;
  scenes: Pick<ScenesService, 'page' | 'add' | 'saveLinkage'>;
  library: Pick<LibraryService, 'typeList' | 'add'>;
  templates: Pick<ParamTemplatesService, 'list' | 'build' | 'apply'>;
  /** The emergency module, live and on a recorded clock, for the log book's sixty days. */
  emergency: Omit<DemoEmergencyDeps, 'now' | 'timezone'>;
  /** Where the calls the seeding makes for its owner are recorded, as the route layer records users' calls. */
  audit?: Pick<AuditSink, 'record'>;
  clock: Clock;
  /** Provisions the demo gateways' credentials. */
  fleet: Pick<GatewayFleet, 'provision'>;
  /** Port of the embedded broker the demo gateways connect to. */
  brokerPort: number;
  /** Resolves true once the server's gateway link has seen the gateway online (gateway-link presence). */
  waitOnline: (mac: string, ms: number) => Promise<boolean>;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
}

/** The address the in-process gateways dial: the broker listens on HOST, and on every address for 0.0.0.0 or ::. */
function brokerUrl(host: string, port: number): string {
  const local = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `mqtt://${local.includes(':') ? `[${local}]` : local}:${port}`;
}

/**
 * Starts the simulated demo site in the background: the demo account, its project, building and
 * map with a floor plan, gateways provisioned and bound through the same services as the HTTP routes, a
 * simulated fleet connected to the embedded broker, and the gateways' devices imported. Every step finds
 * what an earlier start made before making anything. A failure is logged in one line and never reaches
 * the caller: the platform runs on without its demo.
 */
export function startDemoSite(deps: DemoDeps): DemoSite {
  const { config, accounts, projects, maps, gateways, devices, groups, scenes, logger } = deps;

  /** Records a call the seeding made for the demo's owner in the audit trail, as the route layer records a user's. */
  function audited(spec: EndpointSpec, caller: Caller, input: { params?: unknown; body?: unknown }, answerId?: string) {
    deps.audit?.record(serverCallDraft(spec, { auth: caller, input, at: deps.clock.now(), ...(answerId ? { answerId } : {}) }));
  }
  let fleet: Fleet | undefined;
  let occupancy: Promise<number> = Promise.resolve(0);
  let stopping = false;

  function check() {
    if (stopping) throw new Error('the server is shutting down');
  }

  /** The demo account (an owner), created on the first start; DEMO_PASSWORD, when set, is its password. */
  async function ensureAccount(): Promise<{ caller: Caller; created: boolean }> {
    const login = config.demoAccount;
    let row = await accounts.findByLogin(login);
    let created = false;
    if (!row) {
      const password = config.demoPassword ?? randomPassword();
      row = await accounts.createAccount({
        account: login,
        ...(login.includes('@') ? { mail: login } : {}),
        name: 'Demo',
        company: 'Harbour Facilities',
        password,
        lang: 'en',
      });
      created = true;
      if (config.demoPassword) logger.info({ account: login }, 'demo account created with DEMO_PASSWORD');
      // Printed once, like the administrator's; only its hash is stored.
      else logger.warn(`demo account created: account "${login}", password "${password}" (shown only this once)`);
    } else if (row.userAuth !== USER_AUTH.account || row.deletedAt) {
      throw new Error(`"${login}" exists and is not an active account owner; set DEMO_ACCOUNT to another name`);
    } else if (config.demoPassword && !(await verifyPassword(row.passwordHash, config.demoPassword))) {
      // The operator's setting wins, so a lost demo password is recovered by setting DEMO_PASSWORD.
      await accounts.setPassword(row.id, config.demoPassword);
      logger.info({ account: login }, 'demo account password set from DEMO_PASSWORD');
    }
    return {
      caller: {
        userId: row.id,
        tenantId: tenantOf(row),
        userAuth: USER_AUTH.account,
        operateAuth: OPERATE_AUTH.owner,
        lang: isLang(row.lang) ? row.lang : 'en',
      },
      created,
    };
  }

  /** The project, building and map of the site, each found by name or created. */
  async function ensurePlace(caller: Caller): Promise<{ projectId: string; mapId: string }> {
    const projectId = await ensureProject(caller);
    return { projectId, mapId: await ensureMap(caller, projectId) };
  }

  async function ensureProject(caller: Caller): Promise<string> {
    const tree = await projects.tree(caller, '0');
    const project = tree.projects.find((p) => p.name === DEMO_SITE.project.name && !p.isDefault);
    return project?.id ?? (await projects.addProject(caller, { ...DEMO_SITE.project })).id;
  }

  async function ensureMap(caller: Caller, projectId: string): Promise<string> {
    const tree = await projects.tree(caller, '0');
    const project = tree.projects.find((p) => p.id === projectId);
    const building = project?.builds.find((b) => b.name === DEMO_SITE.building);
    const buildId = building?.id ?? (await projects.addBuilding(caller, { projectId, name: DEMO_SITE.building })).id;
    const map = building?.maps.find((m) => m.name === DEMO_SITE.map);
    if (map?.image) return map.id;
    // The floor plan goes through the upload checks, as a user's would.
    const upload = await maps.upload(caller, { data: await readFile(FLOOR_PLAN_FILE), ...(map ? { mapId: map.id } : {}) });
    if (map) return map.id;
    return (await maps.addMap(caller, { buildId, name: DEMO_SITE.map, image: upload.image })).id;
  }

  /** Binds a demo gateway from the pool to the map (`bound`), or finds it already bound to the demo account. */
  async function ensureBound(caller: Caller, mac: string, name: string, mapId: string): Promise<{ gateway?: Gateway; bound: boolean }> {
    const found = await gateways.lookup(caller, mac);
    if (found.state === 'yours') return { gateway: found.gateway ?? undefined, bound: false };
    if (found.state === 'unavailable') {
      // Provisioned by the demo, so someone bound it while it was in the pool; it keeps running for them.
      logger.warn({ mac }, 'demo gateway is bound to another account; left there');
      return { bound: false };
    }
    return { gateway: await gateways.bind(caller, { mac, mapId, name }), bound: true };
  }

  /**
   * Gateways bound on this start send their energy history, all at once, before any live telemetry (the fleet
   * holds it until then): a later start would find newer readings and the history would count nowhere.
   */
  async function backfill(sims: SimGateway[]): Promise<number> {
    const { days, stepMinutes, samplesPerSecond } = DEMO_SITE.energyHistory;
    const started = Date.now();
    const outcomes = await Promise.allSettled(
      sims.map((sim) => sim.backfillEnergy({ days, stepMinutes, samplesPerSecond: samplesPerSecond / sims.length })),
    );
    let samples = 0;
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') samples += outcome.value.samples;
      else logger.warn({ mac: sims[i]!.mac }, `demo energy history not sent: ${(outcome.reason as Error).message}`);
    }
    if (samples > 0) logger.info(`demo energy history: ${samples} samples over ${days} days sent in ${Date.now() - started} ms`);
    return samples;
  }

  /** Two weeks of the motion sensors' working days, for the heatmap; a failure is logged, never thrown. */
  async function backfillOccupancy(sims: SimGateway[]): Promise<number> {
    const { days, eventsPerSecond } = DEMO_SITE.occupancyHistory;
    const outcomes = await Promise.allSettled(
      sims.map((sim) => sim.backfillOccupancy({ days, eventsPerSecond: eventsPerSecond / Math.max(1, sims.length) })),
    );
    let events = 0;
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') events += outcome.value.events.length;
      else if (!stopping) logger.warn({ mac: sims[i]!.mac }, `demo occupancy history not sent: ${(outcome.reason as Error).message}`);
    }
    if (events > 0) logger.info(`demo occupancy history: ${events} motion events over ${days} days sent`);
    return events;
  }

  /** The n-th device of its kind on the simulated gateway (address order): which of its kind's spots it takes. */
  const ordinalOf = (sim: SimGateway, addr: string, kind: string) =>
    [...sim.devices.values()]
      .filter((d) => d.state.kind === kind)
      .map((d) => d.state.addr)
      .sort()
      .indexOf(addr);

  /**
   * Places the gateway's devices that are on no map where they belong on the floor plan, names them after
   * their room, and groups the lights of its room when it placed them (a group a user deleted later is not
   * made again; a device a user renamed or placed keeps what the user chose).
   */
  async function furnish(caller: Caller, mapId: string, gatewayId: string, gatewayIndex: number, sim: SimGateway) {
    const outside = await gateways.outmapDevices(caller, mapId, gatewayId);
    const placements = outside.flatMap((d) => {
      const at = demoPosition(d.kind, gatewayIndex, Math.max(0, ordinalOf(sim, d.addr, d.kind)));
      return at ? [{ id: d.id, ...at }] : [];
    });
    if (placements.length > 0) await devices.moveIn(caller, { mapId, devices: placements });
    for (const device of outside) {
      const name = demoName(device.kind, gatewayIndex, Math.max(0, ordinalOf(sim, device.addr, device.kind)));
      if (name) await devices.rename(caller, { id: device.id, name });
    }
    const lights = outside.filter((d) => GROUPED_KINDS.includes(d.kind as DeviceKind)).map((d) => d.id);
    if (lights.length === 0) return { placed: placements.length, groups: [], outside };
    const name = `${GATEWAY_ROOMS[gatewayIndex % GATEWAY_ROOMS.length]!.main} lights`;
    const group = await groups.add(caller, { mapId, gatewayId, name, deviceIds: lights });
    // The main room's motion sensor (the first of its kind) is the one that may drive the room's group.
    const sensor = outside.find((d) => d.kind === 'sensor-motion' && ordinalOf(sim, d.addr, d.kind) === 0);
    return {
      placed: placements.length,
      groups: [group.id],
      outside,
      roomSensor: sensor && placements.some((p) => p.id === sensor.id) ? sensor.id : undefined,
    };
  }

  /**
   * The demo's scenes over the room groups: lights on before sunset and off after sunrise, a weekday cleaning
   * schedule, and a manual "all on". Made once, on the start that made the groups; a scene a user deleted
   * stays deleted.
   */
  async function ensureScenes(caller: Caller, projectId: string, groupIds: string[]): Promise<number> {
    if (groupIds.length === 0) return 0;
    const { total } = await scenes.page(caller, { projectId, pageSize: 1 });
    if (total > 0) return 0;
    const members = (percent: number) => groupIds.map((id) => ({ type: 'group' as const, id, action: { on: true, percent } }));
    const scene = (kind: SceneKind, name: string, percent: number, over: Partial<SceneFields> = {}): SceneFields => ({
      ...newSceneFields(projectId, kind, name),
      fadeS: 2,
      steps: [{ holdS: 0, members: members(percent) }],
      ...over,
    });
    const made = [
      scene('sun', 'Evening lights', 80, {
        days: [0, 1, 2, 3, 4, 5, 6],
        triggers: [
          { at: 'sunset', offsetMin: -15, then: 'start' },
          { at: 'sunrise', offsetMin: 10, then: 'end' },
        ],
      }),
      scene('groupSchedule', 'Cleaning round', 60, {
        days: [1, 2, 3, 4, 5],
        skipHolidays: true,
        triggers: [
          { at: '19:00', offsetMin: 0, then: 'start' },
          { at: '21:00', offsetMin: 0, then: 'end' },
        ],
      }),
      scene('manual', 'All on', 100),
    ];
    for (const scene of made) audited(sceneEndpoints.add, caller, { body: scene }, (await scenes.add(caller, scene)).scene.id);
    return made.length;
  }

  /** A motion sensor of the first room drives that room's group (the gateway's sensors then follow the linkage). */
  async function ensureLinkage(caller: Caller, room: RoomGroup | undefined): Promise<number> {
    if (!room?.sensorId) return 0;
    const body = { ...DEMO_SITE.linkage, sensorId: room.sensorId, groupId: room.groupId };
    const saved = await scenes.saveLinkage(caller, body);
    audited(sceneEndpoints.saveLinkage, caller, { body }, saved.sensorId);
    await gateways.setSensorMode(caller, room.gatewayId, 'linkage');
    return 1;
  }

  /**
   * A fixture that chatters: its driver loses power and comes back again and again, as a loose connection does. The
   * gateway reports every raise and clear; the fault list keeps each, the alarm engine makes them one chattering alarm.
   */
  function chatter(sim: SimGateway): number {
    const fixture = [...sim.devices.values()].map((d) => d.state).find((d) => d.kind === 'light-rgb');
    if (!fixture) return 0;
    for (let i = 0; i < DEMO_SITE.chattering.raises; i++) {
      sim.raiseFault(fixture.addr, FAULT_CODES.power);
      sim.clearFault(fixture.addr);
    }
    return DEMO_SITE.chattering.raises;
  }

  /** Each step on its own: a part of the showcase that fails is logged and the rest of the demo stands. */
  async function part(what: string, work: () => Promise<number>): Promise<number> {
    try {
      return await work();
    } catch (error) {
      if (!stopping) logger.warn(`demo ${what} not made: ${(error as Error).message}`);
      return 0;
    }
  }

  async function seed(): Promise<DemoOutcome> {
    const { caller, created } = await ensureAccount();
    check();
    const { mapId, projectId } = await ensurePlace(caller);
    check();
    // The library before the devices: their lights are measured against their type's power from the first reading.
    const libraryTypes = await part('device library', () => ensureLibrary(deps.library, caller));
    const templates = await part('parameter templates', async () => (await ensureTemplates(deps.templates, caller)).length);
    check();
    const passwords = new Map<string, string>();
    const macs = DEMO_SITE.gateways.map((_, i) => fleetMac(DEMO_SITE.macPrefix, i + 1));
    // A new password on every start: it lives only in this process and the gateways table holds its hash.
    for (const mac of macs) passwords.set(mac, (await deps.fleet.provision(mac, randomBytes(24).toString('base64url'))).password);
    check();
    fleet = createFleet({
      url: brokerUrl(config.host, deps.brokerPort),
      count: DEMO_SITE.gateways.length,
      superGateways: DEMO_SITE.superGateways,
      macPrefix: DEMO_SITE.macPrefix,
      password: (mac) => passwords.get(mac)!,
      timeFactor: config.demoTimeFactor,
      // A 3-hour duration test of the emergency lights takes 3 minutes and a function test half a second.
      emergencyTimeFactor: 60,
      // The background's own faults come and go, so a demo left running for days is not all red; faults raised by
      // hand and the failures emergency tests find still stay until cleared or retested.
      faultClearRate: 0.2,
      holdTelemetry: true,
      extraDevices: DEMO_EXTRA_SENSORS,
      log: (line) => logger.debug(line),
    });
    // Each motion sensor follows the working day of its room (main room, second room, corridor).
    for (const [i, sim] of fleet.gateways.entries()) {
      for (const { state } of sim.devices.values()) {
        if (state.kind === 'sensor-motion') sim.occupancyProfiles.set(state.addr, demoOccupancy(i, ordinalOf(sim, state.addr, state.kind)));
      }
    }
    const failed = await fleet.start();
    for (const f of failed) logger.warn({ mac: f.mac }, `demo gateway could not connect: ${f.error.message}`);
    if (failed.length === fleet.gateways.length) throw new Error('no demo gateway could connect to the embedded broker');

    let importedDevices = 0;
    let placedDevices = 0;
    let createdGroups = 0;
    const newGroups: string[] = [];
    let firstRoom: RoomGroup | undefined;
    /** Devices this start placed, for the templates. */
    const newDevices: Array<{ id: string; kind: string }> = [];
    const out: DemoOutcome['gateways'] = [];
    const newlyBound: SimGateway[] = [];
    for (const [i, sim] of fleet.gateways.entries()) {
      check();
      const { gateway, bound } = await ensureBound(caller, sim.mac, DEMO_SITE.gateways[i]!, mapId);
      if (gateway && gateway.x === null) await gateways.position(caller, { id: gateway.id, ...demoGatewayPosition(i) });
      // The simulator is online once it published its state; the server hears it a moment later.
      if (!gateway || !sim.online || !(await deps.waitOnline(sim.mac, ONLINE_WAIT_MS))) {
        out.push({ mac: sim.mac, id: gateway?.id, online: sim.online });
        continue;
      }
      try {
        // Devices that joined since the last start are added; known ones are left as they are.
        importedDevices += (await gateways.importDevices(caller, gateway.id)).imported;
        const furnished = await furnish(caller, mapId, gateway.id, i, sim);
        placedDevices += furnished.placed;
        createdGroups += furnished.groups.length;
        newGroups.push(...furnished.groups);
        newDevices.push(...furnished.outside);
        if (i === 0 && furnished.groups[0])
          firstRoom = { gatewayId: gateway.id, groupId: furnished.groups[0], sensorId: furnished.roomSensor };
        if (gateway.longitude === null) {
          await gateways.setLonLat(caller, {
            id: gateway.id,
            longitude: DEMO_SITE.project.longitude,
            latitude: DEMO_SITE.project.latitude,
          });
          await gateways.setParams(caller, { id: gateway.id, timezone: DEMO_SITE.timezone });
        }
        // New groups raise the configuration version the gateway was read with.
        if (furnished.groups.length > 0 || gateway.syncedVersion !== gateway.configVersion) await gateways.sync(caller, gateway.id);
        if (bound) newlyBound.push(sim);
      } catch (error) {
        // One gateway that does not answer leaves the rest of the site running.
        logger.warn({ mac: sim.mac }, `demo gateway not set up: ${(error as Error).message}`);
      }
      out.push({ mac: sim.mac, id: gateway.id, online: sim.online });
    }
    // The floor plan is whole from here on: what a first visit sees, and what a watcher of the log waits for.
    logger.info(`demo floor plan furnished: ${placedDevices} devices placed and ${createdGroups} groups made on ${out.length} gateways`);
    check();
    // Adding a scene syncs the online gateways it touches, so they run it from here on.
    const createdScenes = await ensureScenes(caller, projectId, newGroups).catch((error: Error) => {
      logger.warn(`demo scenes not made: ${error.message}`);
      return 0;
    });
    check();
    const linkages = await part('sensor linkage', () => ensureLinkage(caller, firstRoom));
    check();
    const templatedDevices = await part('parameter templates applied', () =>
      applyTemplates(deps.templates, caller, newDevices, (body) => audited(virtualEndpoints.applyTemplate, caller, { body })),
    );
    check();
    const emergencyTasks = await part('emergency log book', async () => {
      const started = Date.now();
      const history = await ensureEmergencyHistory(
        { ...deps.emergency, now: () => deps.clock.now(), timezone: DEMO_SITE.timezone },
        caller,
        projectId,
      );
      if (history.tasks > 0)
        logger.info(
          `demo emergency log book: ${history.tasks} tasks over ${DEMO_EMERGENCY.days} days (${history.failures} failure, repaired) written in ${Date.now() - started} ms`,
        );
      return history.tasks;
    });
    check();
    const firstBound = newlyBound.find((sim) => sim.mac === fleet!.gateways[0]?.mac);
    const chatteringRaises = firstBound ? chatter(firstBound) : 0;
    // The occupancy history goes on in the background: the site is ready without it, and the heatmap fills.
    occupancy = backfillOccupancy(newlyBound);
    const backfilledSamples = await backfill(newlyBound);
    return {
      account: config.demoAccount,
      createdAccount: created,
      gateways: out,
      importedDevices,
      placedDevices,
      createdGroups,
      createdScenes,
      backfilledSamples,
      libraryTypes,
      templates,
      templatedDevices,
      linkages,
      emergencyTasks,
      chatteringRaises,
    };
  }

  /** Live telemetry waited for the energy history; a seeding that stopped early must not keep it waiting. */
  async function seedThenRelease(): Promise<DemoOutcome> {
    try {
      return await seed();
    } finally {
      for (const sim of fleet?.gateways ?? []) sim.releaseTelemetry();
    }
  }

  const ready = seedThenRelease().then(
    (outcome) => {
      const online = outcome.gateways.filter((g) => g.online).length;
      logger.info(
        `demo site running: sign in as "${outcome.account}"; ${online} of ${outcome.gateways.length} simulated gateways online; on this start ${outcome.importedDevices} devices imported, ${outcome.placedDevices} placed on the floor plan, ${outcome.createdGroups} groups and ${outcome.createdScenes} scenes made`,
      );
      return outcome;
    },
    (error: Error) => {
      if (!stopping) logger.error(`demo site not started (the platform runs without it): ${error.message}`);
      return undefined;
    },
  );

  return {
    ready,
    fleet: () => fleet,
    async stop() {
      stopping = true;
      await ready;
      // Stopping the gateways ends an occupancy history still being sent.
      await fleet?.stop();
      await occupancy;
    },
  };
}
