import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import {
  CommandError,
  EMPTY_GATEWAY_CONFIG,
  FIRMWARE_RESULT,
  dueSchedules,
  isTimeZone,
  normaliseMac,
  sendPacketsAtOnce,
  targetAddrs,
  unknownReference,
  type CommandMessage,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type DeviceState,
  type EventMessage,
  type GatewayConfig,
  type GatewayInfo,
  type GatewayParams,
  type JoinedDevice,
  type LightAction,
  type ReplyMessage,
  type Target,
} from '@lumigrid/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceState, groupLightFeatures, setPayloadFor, telemetrySample, type SetPayload, type Z2mState } from './convert.ts';
import { GatewayConnection } from './gateway-connection.ts';
import { isMapped, mapDevice, type MappedDevice, type RefusedDevice } from './mapping.ts';
import { macFromIeee, parseAvailability, type Z2mDevice, type Z2mGroup, type Z2mResponse } from './z2m-formats.ts';

export interface BridgeOptions {
  /** The gateway MAC the bridge connects as; default: from the coordinator's IEEE address (bridge/info). */
  mac?: string;
  /** The gateway's password, as provisioned on the platform. */
  password: string;
  /** The Lumigrid broker. */
  url: string;
  /** Zigbee2MQTT's broker; default the Lumigrid broker (one broker for both). */
  z2mUrl?: string;
  z2mUsername?: string;
  z2mPassword?: string;
  /** Zigbee2MQTT's `mqtt.base_topic` (default zigbee2mqtt). */
  baseTopic?: string;
  /** How often schedules are checked, ms (default 30 s; they fire at their due minute either way). */
  scheduleCheckMs?: number;
  /**
   * Where the configuration, its version and the gateway parameters are kept across restarts (a JSON file);
   * without it they live in memory until the next sync.
   */
  stateFile?: string;
  /** How long a Zigbee2MQTT request (group, OTA) may take before the command fails, ms. */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
}

/** A bridged device: its mapping, the last state Zigbee2MQTT published and its availability. */
interface BridgedDevice {
  mapped: MappedDevice;
  state: Z2mState;
  online: boolean;
  /** What was last reported to the platform, to send changes only. */
  reported?: string;
}

type Handled<N extends CommandName> = { result: CommandResult<N>; after?: () => void };
type CommandHandlers = { [N in CommandName]: (params: CommandParams<N>, command: CommandMessage) => Handled<N> | Promise<Handled<N>> };

/** The Zigbee2MQTT group that carries a Lumigrid group of the configuration. */
export function z2mGroupName(groupId: number): string {
  return `lumigrid_group_${groupId}`;
}

const BATCH = 500;

/**
 * Presents a Zigbee2MQTT installation as one Lumigrid gateway (docs/zigbee2mqtt.md): devices from
 * bridge/devices through the mapping table, commands to `/set` payloads, groups to Zigbee2MQTT groups, states,
 * availability, telemetry and sensor events to the protocol's up messages, and the configuration's schedules,
 * linkage and panel keys run here on the bridge's own clock.
 */
export class Z2mBridge extends EventEmitter {
  readonly base: string;
  readonly devices = new Map<string, BridgedDevice>();
  /** Devices the mapping refused, with why (also in the log). */
  refused: RefusedDevice[] = [];
  config: GatewayConfig = EMPTY_GATEWAY_CONFIG;
  configVersion = 0;
  params: GatewayParams = { timezone: 'UTC', reportIntervalS: 60, sensorMode: 'independent' };
  /** Scenes run here (schedules, panel keys, scene.run), newest last. */
  readonly sceneLog: Array<{ scene: number; at: number; trigger: 'schedule' | 'panel' | 'manual' }> = [];
  private mac: string | undefined;
  private z2m: MqttClient | undefined;
  private gateway: GatewayConnection | undefined;
  private z2mGroups: Z2mGroup[] = [];
  private coordinatorIeee: string | undefined;
  private z2mVersion = '';
  private inventoryKnown = false;
  /** Zigbee2MQTT's own state (bridge/state); while it is offline no device is reachable. */
  private z2mOnline = true;
  private readonly names = new Map<string, string>();
  private readonly pending = new Map<string, (response: Z2mResponse) => void>();
  private scheduler: NodeJS.Timeout | undefined;
  private schedulesCheckedAt = 0;
  private clockOffset = 0;
  private readonly holds = new Map<string, NodeJS.Timeout>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private updating: string | undefined;
  /** Scenes of the configuration stored in the lights of their groups (scene_add): run with scene_recall. */
  private zigbeeScenes = new Set<number>();

  constructor(private readonly options: BridgeOptions) {
    super();
    this.base = options.baseTopic ?? 'zigbee2mqtt';
    if (options.mac !== undefined) {
      const mac = normaliseMac(options.mac);
      if (!mac) throw new Error(`gateway MAC ${options.mac} is not twelve hex digits`);
      this.mac = mac;
    }
  }

  /** The gateway MAC the bridge speaks as (known once started). */
  get gatewayMac(): string | undefined {
    return this.mac;
  }

  /** The bridge's clock: the host's, moved by time.set. */
  now(): number {
    return Date.now() + this.clockOffset;
  }

  /** Moves the bridge's clock (time.set, tests and demos); schedules it jumps over do not fire. */
  setClock(time: number): void {
    this.clockOffset = time - Date.now();
    this.schedulesCheckedAt = this.now();
  }

  /**
   * Connects to Zigbee2MQTT, waits for its device list (and its coordinator, when the MAC comes from there),
   * then connects to Lumigrid as the gateway.
   */
  async start(): Promise<void> {
    this.restore();
    const z2m = await mqtt.connectAsync(this.options.z2mUrl ?? this.options.url, {
      clientId: `lumigrid-z2m-bridge-${randomUUID().slice(0, 8)}`,
      username: this.options.z2mUsername,
      password: this.options.z2mPassword,
      protocolVersion: 4,
      reconnectPeriod: 1000,
    });
    sendPacketsAtOnce(z2m);
    this.z2m = z2m;
    z2m.on('message', (topic, payload) => this.onZ2m(topic, payload.toString('utf8')));
    z2m.on('error', (error) => this.log(`Zigbee2MQTT MQTT: ${error.message}`));
    await z2m.subscribeAsync(`${this.base}/#`, { qos: 1 });
    await this.waitFor(() => this.inventoryKnown && (this.mac !== undefined || this.coordinatorIeee !== undefined), 'bridge/devices');
    this.mac ??= macFromIeee(this.coordinatorIeee!);
    if (!this.mac) throw new Error(`cannot make a gateway MAC from the coordinator's IEEE address ${this.coordinatorIeee}`);
    const mac = this.mac;
    this.gateway = new GatewayConnection({
      mac,
      password: this.options.password,
      url: this.options.url,
      info: () => this.info(),
      onOnline: () => this.report([...this.devices.values()], true),
      onCommand: (command) => this.onCommand(command),
      log: (line) => this.log(line),
    });
    await this.gateway.connect();
    this.schedulesCheckedAt = this.now();
    this.scheduler = setInterval(() => this.runSchedules(), this.options.scheduleCheckMs ?? 30_000);
  }

  async stop(): Promise<void> {
    clearInterval(this.scheduler);
    for (const timer of [...this.timers, ...this.holds.values()]) clearTimeout(timer);
    await this.gateway?.close();
    await this.z2m?.endAsync();
  }

  /** What a restart needs: the configuration the platform synced, its version, the parameters and stored scenes. */
  private persist(): void {
    if (!this.options.stateFile) return;
    const state = { configVersion: this.configVersion, config: this.config, params: this.params, zigbeeScenes: [...this.zigbeeScenes] };
    try {
      writeFileSync(`${this.options.stateFile}.tmp`, JSON.stringify(state));
      renameSync(`${this.options.stateFile}.tmp`, this.options.stateFile);
    } catch (error) {
      this.log(`could not keep the configuration in ${this.options.stateFile}: ${(error as Error).message}`);
    }
  }

  private restore(): void {
    const file = this.options.stateFile;
    if (!file || !existsSync(file)) return;
    try {
      const state = JSON.parse(readFileSync(file, 'utf8')) as {
        configVersion: number;
        config: GatewayConfig;
        params: GatewayParams;
        zigbeeScenes?: number[];
      };
      this.configVersion = state.configVersion;
      this.config = state.config;
      this.params = state.params;
      this.zigbeeScenes = new Set(state.zigbeeScenes ?? []);
    } catch (error) {
      // A damaged file costs a sync, not the bridge: the platform sees version 0 and sends the configuration again.
      this.log(`ignored ${file}: ${(error as Error).message}`);
    }
  }

  info(): GatewayInfo {
    return {
      mac: this.mac!,
      ip: '0.0.0.0',
      networkAddress: '0000',
      panId: '0',
      channel: 0,
      versions: { gateway: this.z2mVersion.slice(0, 32), zigbee: '', zigbee2: '', zigbee3: '', wisun: '', plc: '' },
      largeGroupNumber: 0,
      superGateway: false,
      configVersion: this.configVersion,
      model: 'Zigbee2MQTT bridge',
      ...(this.gateway && this.gateway.uplinkDropped > 0 ? { uplinkDropped: this.gateway.uplinkDropped } : {}),
    };
  }

  private log(line: string) {
    this.options.log?.(`[z2m-bridge${this.mac ? ` ${this.mac}` : ''}] ${line}`);
  }

  private waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.off('z2m', check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.off('z2m', check);
        reject(new Error(`no ${what} from Zigbee2MQTT on ${this.base} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('z2m', check);
    });
  }

  // --- Zigbee2MQTT -> Lumigrid -------------------------------------------------------------------

  private onZ2m(topic: string, text: string) {
    if (!topic.startsWith(`${this.base}/`)) return;
    const path = topic.slice(this.base.length + 1);
    try {
      if (path === 'bridge/state') this.onBridgeState(text);
      else if (path === 'bridge/devices') this.onInventory(text ? (JSON.parse(text) as Z2mDevice[]) : []);
      else if (path === 'bridge/groups') this.z2mGroups = text ? (JSON.parse(text) as Z2mGroup[]) : [];
      else if (path === 'bridge/info' && text) {
        const info = JSON.parse(text) as { version?: string; coordinator?: { ieee_address?: string } };
        this.coordinatorIeee = info.coordinator?.ieee_address;
        this.z2mVersion = info.version ? `z2m ${info.version}` : '';
      } else if (path.startsWith('bridge/response/') && text) {
        const response = JSON.parse(text) as Z2mResponse;
        if (response.transaction) this.pending.get(response.transaction)?.(response);
      } else if (path.endsWith('/availability')) this.onAvailability(path.slice(0, -'/availability'.length), text);
      else if (!path.startsWith('bridge/') && !path.endsWith('/set') && !path.endsWith('/get') && text) {
        const addr = this.names.get(path);
        if (addr) this.onState(this.devices.get(addr)!, JSON.parse(text) as Z2mState);
      }
    } catch (error) {
      this.log(`ignored a message on ${topic}: ${(error as Error).message}`);
    }
    this.emit('z2m', path);
  }

  private onInventory(list: Z2mDevice[]) {
    const seen = new Set<string>();
    const refused: RefusedDevice[] = [];
    const joined: MappedDevice[] = [];
    for (const entry of list) {
      const mapped = mapDevice(entry);
      if (!mapped) continue;
      if (!isMapped(mapped)) {
        refused.push(mapped);
        continue;
      }
      seen.add(mapped.addr);
      const known = this.devices.get(mapped.addr);
      if (known) {
        this.names.delete(known.mapped.friendlyName);
        known.mapped = mapped;
      } else {
        this.devices.set(mapped.addr, { mapped, state: {}, online: true });
        joined.push(mapped);
      }
      this.names.set(mapped.friendlyName, mapped.addr);
    }
    for (const [addr, device] of this.devices) {
      if (seen.has(addr)) continue;
      this.devices.delete(addr);
      this.names.delete(device.mapped.friendlyName);
      this.publishEvent({ type: 'join', ts: this.now(), addr, kind: device.mapped.kind, joined: false });
    }
    const newlyRefused = refused.filter((r) => !this.refused.some((old) => old.ieee === r.ieee && old.reason === r.reason));
    for (const r of newlyRefused) this.log(`not offered to Lumigrid: ${r.friendlyName} (${r.model}, ${r.ieee}): ${r.reason}`);
    this.refused = refused;
    const first = !this.inventoryKnown;
    this.inventoryKnown = true;
    for (const mapped of joined) {
      if (!first) this.publishEvent({ type: 'join', ts: this.now(), addr: mapped.addr, kind: mapped.kind, joined: true });
      // Zigbee2MQTT does not retain states by default: ask the devices that answer reads for theirs.
      const readable = mapped.capabilities.light?.state ?? mapped.capabilities.channels?.[0] ?? mapped.capabilities.cover?.position;
      if (readable) void this.z2m?.publishAsync(`${this.base}/${mapped.friendlyName}/get`, JSON.stringify({ [readable]: '' }), { qos: 1 });
    }
  }

  /** A device is reachable while Zigbee2MQTT runs and says the device is available. */
  private reachable(device: BridgedDevice | undefined): device is BridgedDevice {
    return device !== undefined && device.online && this.z2mOnline;
  }

  /** Zigbee2MQTT stopped (its last will on bridge/state) or came back: every device goes with it. */
  private onBridgeState(text: string) {
    const online = parseAvailability(text);
    if (online === undefined || online === this.z2mOnline) return;
    this.z2mOnline = online;
    this.log(`Zigbee2MQTT is ${online ? 'online' : 'offline'}`);
    this.report([...this.devices.values()], false);
  }

  private onAvailability(name: string, text: string) {
    const addr = this.names.get(name);
    const online = parseAvailability(text);
    if (!addr || online === undefined) return;
    const device = this.devices.get(addr)!;
    if (device.online === online) return;
    device.online = online;
    this.report([device], false);
  }

  private onState(device: BridgedDevice, state: Z2mState) {
    const before = device.state;
    device.state = { ...before, ...state };
    delete device.state.action;
    const c = device.mapped.capabilities;
    const addr = device.mapped.addr;
    this.report([device], false);
    const sample = telemetrySample(device.mapped, state);
    if (sample && (c.power || c.energy)) this.gateway?.publish('telemetry', { ts: this.now(), samples: [sample] });
    if (c.occupancy && typeof state[c.occupancy] === 'boolean' && state[c.occupancy] !== before[c.occupancy]) {
      const occupied = state[c.occupancy] as boolean;
      this.publishEvent({ type: 'sensor', ts: this.now(), addr, sensor: 'motion', value: occupied ? 1 : 0 });
      this.followOccupancy(device, occupied);
    }
    const lux = c.illuminance ? state[c.illuminance] : undefined;
    if (device.mapped.kind === 'sensor-daylight' && typeof lux === 'number' && lux !== before[c.illuminance!]) {
      this.publishEvent({ type: 'sensor', ts: this.now(), addr, sensor: 'daylight', value: lux });
      this.followDaylight(device, lux);
    }
    if (c.actions && typeof state.action === 'string' && state.action !== '') {
      const key = c.actions.indexOf(state.action) + 1;
      const binding = key > 0 ? this.config.panelKeys?.find((k) => k.panel === addr && k.key === key) : undefined;
      if (binding) this.runScene(binding.scene, 'panel');
    }
  }

  /** Reports devices whose platform state changed (all of them in a full report). */
  private report(devices: BridgedDevice[], full: boolean) {
    const states: DeviceState[] = [];
    for (const device of devices) {
      const state = deviceState(device.mapped, device.state, this.reachable(device));
      const text = JSON.stringify(state);
      if (!full && text === device.reported) continue;
      device.reported = text;
      states.push(state);
    }
    for (let i = 0; i < states.length; i += BATCH)
      this.gateway?.publish('report', { ts: this.now(), full, devices: states.slice(i, i + BATCH) });
  }

  private publishEvent(event: EventMessage) {
    this.gateway?.publish('event', event);
  }

  // --- Lumigrid -> Zigbee2MQTT -------------------------------------------------------------------

  private async setDevice(device: BridgedDevice, payload: SetPayload): Promise<void> {
    await this.z2m?.publishAsync(`${this.base}/${device.mapped.friendlyName}/set`, JSON.stringify(payload), { qos: 1 });
  }

  /** Sends an action to a device: the /set payload its definition takes; throws CommandError when it cannot. */
  private async control(addr: string, action: LightAction): Promise<void> {
    const device = this.devices.get(addr);
    if (!device) throw new CommandError('not_found', `no device ${addr}`);
    if (!this.reachable(device)) throw new CommandError('failed', `device ${addr} is offline`);
    const payload = setPayloadFor(device.mapped.capabilities, action);
    if (!payload) throw new CommandError('unsupported', `${device.mapped.kind} ${addr} has nothing ${JSON.stringify(action)} sets`);
    await this.setDevice(device, payload);
  }

  /** A group of the configuration: to its Zigbee2MQTT group in one command when that exists, else device by device. */
  private async controlGroup(groupId: number, action: LightAction): Promise<number> {
    const group = this.config.groups.find((g) => g.id === groupId);
    if (!group) throw new CommandError('not_found', `no group ${groupId}`);
    const members = group.devices.flatMap((addr) => {
      const device = this.devices.get(addr);
      return device ? [device] : [];
    });
    const name = z2mGroupName(groupId);
    if (this.z2mGroups.some((g) => g.friendly_name === name)) {
      const payload = setPayloadFor({ light: groupLightFeatures(members.map((m) => m.mapped.capabilities)), ota: false }, action);
      if (payload) await this.z2m?.publishAsync(`${this.base}/${name}/set`, JSON.stringify(payload), { qos: 1 });
      return members.filter((m) => this.reachable(m)).length;
    }
    let reached = 0;
    for (const member of members) {
      const payload = this.reachable(member) ? setPayloadFor(member.mapped.capabilities, action) : undefined;
      if (!payload) continue;
      await this.setDevice(member, payload);
      reached++;
    }
    return reached;
  }

  private async applyTarget(target: Target, action: LightAction): Promise<void> {
    if ('group' in target) await this.controlGroup(target.group, action).catch(() => undefined);
    else await this.control(target.device, action).catch(() => undefined);
  }

  /** Sends a request on bridge/request/... and waits for its answer (matched by transaction). */
  private request<T = Record<string, unknown>>(path: string, payload: Record<string, unknown>): Promise<T> {
    const transaction = randomUUID();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new CommandError('failed', `Zigbee2MQTT did not answer ${path}`));
      }, this.options.requestTimeoutMs ?? 20_000);
      this.pending.set(transaction, (response) => {
        clearTimeout(timer);
        this.pending.delete(transaction);
        if (response.status === 'ok') resolve(response.data as T);
        else reject(new CommandError('failed', `Zigbee2MQTT refused ${path}: ${response.error ?? 'error'}`));
      });
      this.z2m
        ?.publishAsync(`${this.base}/bridge/request/${path}`, JSON.stringify({ ...payload, transaction }), { qos: 1 })
        .catch((error: Error) => reject(new CommandError('failed', error.message)));
    });
  }

  /** Makes Zigbee2MQTT's groups match the configuration's: one per Lumigrid group, members by IEEE address. */
  private async syncGroups(config: GatewayConfig): Promise<void> {
    const wanted = new Map(config.groups.map((g) => [z2mGroupName(g.id), g]));
    for (const group of this.z2mGroups) {
      if (group.friendly_name.startsWith('lumigrid_group_') && !wanted.has(group.friendly_name))
        await this.request('group/remove', { id: group.friendly_name });
    }
    for (const [name, group] of wanted) {
      if (!this.z2mGroups.some((g) => g.friendly_name === name)) await this.request('group/add', { friendly_name: name });
      const current = new Set(this.z2mGroups.find((g) => g.friendly_name === name)?.members.map((m) => m.ieee_address) ?? []);
      const members = group.devices.flatMap((addr) => {
        const device = this.devices.get(addr);
        // Only what Zigbee groups carry: lights, switches and covers; sensors and panels stay out.
        const c = device?.mapped.capabilities;
        return device && (c?.light || c?.channels || c?.cover) ? [device.mapped] : [];
      });
      for (const member of members) {
        if (!current.has(member.ieee)) await this.request('group/members/add', { group: name, device: member.ieee });
        current.delete(member.ieee);
      }
      for (const ieee of current) await this.request('group/members/remove', { group: name, device: ieee });
    }
  }

  // --- the configuration run on the bridge -------------------------------------------------------

  /**
   * The lights of a Zigbee2MQTT group of the configuration, or undefined when the group holds anything else
   * that Zigbee groups carry (a switch, a cover): only lights keep a scene's brightness and colour.
   */
  private groupLights(config: GatewayConfig, groupId: number): MappedDevice[] | undefined {
    const members = (config.groups.find((g) => g.id === groupId)?.devices ?? []).flatMap((addr) => {
      const c = this.devices.get(addr)?.mapped.capabilities;
      return c && (c.light || c.channels || c.cover) ? [this.devices.get(addr)!.mapped] : [];
    });
    return members.length > 0 && members.every((m) => m.capabilities.light) ? members : undefined;
  }

  /**
   * Stores the scenes Zigbee can hold in the lights themselves (`scene_add` on the scene's groups), so a run is
   * one `scene_recall` per group: a scene (id 1-255, Zigbee's scene numbers) of steps without delays, each on a
   * different group of lights only, setting on/off, brightness and colour temperature or colour. Every other
   * scene runs as per-group and per-device commands. Answers the scenes stored.
   */
  private async storeScenes(config: GatewayConfig): Promise<Set<number>> {
    const stored = new Set<number>();
    for (const scene of config.scenes) {
      if (scene.id > 255 || scene.steps.length === 0) continue;
      const groups = scene.steps.map((step) => ('group' in step.target ? step.target.group : undefined));
      if (groups.some((g) => g === undefined) || new Set(groups).size !== groups.length) continue;
      const adds: Array<{ group: number; payload: SetPayload }> = [];
      for (const step of scene.steps) {
        const group = (step.target as { group: number }).group;
        const lights = this.groupLights(config, group);
        const action = step.action;
        if (!lights || step.delayS || action.channel !== undefined || action.stop || (action.cct !== undefined && action.rgb !== undefined))
          break;
        const payload = setPayloadFor({ light: groupLightFeatures(lights.map((l) => l.capabilities)), ota: false }, action);
        if (!payload) break;
        const { transition, ...attributes } = payload;
        adds.push({
          group,
          payload: { scene_add: { ID: scene.id, name: scene.name.slice(0, 16), transition: transition ?? 0, ...attributes } },
        });
      }
      if (adds.length !== scene.steps.length) continue;
      for (const { group, payload } of adds)
        await this.z2m?.publishAsync(`${this.base}/${z2mGroupName(group)}/set`, JSON.stringify(payload), { qos: 1 });
      stored.add(scene.id);
    }
    return stored;
  }

  /** Runs a scene: steps without delay now, the others after their delays; answers what it addressed. */
  runScene(id: number, trigger: 'schedule' | 'panel' | 'manual', at = this.now(), schedule?: number) {
    const scene = this.config.scenes.find((s) => s.id === id);
    if (!scene) return undefined;
    this.sceneLog.push({ scene: id, at, trigger });
    if (this.sceneLog.length > 100) this.sceneLog.shift();
    const distinct = new Map<string, Target>();
    for (const step of scene.steps) distinct.set(JSON.stringify(step.target), step.target);
    let failed = 0;
    for (const target of distinct.values()) {
      if (!targetAddrs(target, this.config).some((addr) => this.reachable(this.devices.get(addr)))) failed++;
    }
    if (this.zigbeeScenes.has(id)) {
      for (const step of scene.steps) {
        const group = 'group' in step.target ? step.target.group : 0;
        void this.z2m?.publishAsync(`${this.base}/${z2mGroupName(group)}/set`, JSON.stringify({ scene_recall: id }), { qos: 1 });
      }
      const outcome = { targets: distinct.size, failed };
      this.publishEvent({ type: 'scene', ts: at, scene: id, trigger, ...(schedule !== undefined ? { schedule } : {}), ...outcome });
      return outcome;
    }
    let delayS = 0;
    for (const step of scene.steps) {
      delayS += step.delayS ?? 0;
      if (delayS === 0) void this.applyTarget(step.target, step.action);
      else this.later(delayS * 1000, () => void this.applyTarget(step.target, step.action));
    }
    const outcome = { targets: distinct.size, failed };
    this.publishEvent({ type: 'scene', ts: at, scene: id, trigger, ...(schedule !== undefined ? { schedule } : {}), ...outcome });
    return outcome;
  }

  private later(ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private runSchedules() {
    const now = this.now();
    const due = dueSchedules(this.config, this.params, this.schedulesCheckedAt, now);
    this.schedulesCheckedAt = now;
    for (const { schedule, at } of due) this.runScene(schedule.scene, 'schedule', at, schedule.id);
  }

  /** Checks schedules now rather than at the next interval (tests, and after the clock moved). */
  checkSchedules(): void {
    this.runSchedules();
  }

  private linkagesOf(addr: string): GatewayConfig['linkages'] {
    return this.params.sensorMode === 'linkage' ? this.config.linkages.filter((l) => l.sensor === addr) : [];
  }

  /**
   * Occupancy drives the sensor's linkage: detection applies onDetect (not above the daylight threshold); the
   * sensor's own clear starts the hold time, after which onClear applies unless it saw someone again.
   */
  private followOccupancy(sensor: BridgedDevice, occupied: boolean) {
    const addr = sensor.mapped.addr;
    clearTimeout(this.holds.get(addr));
    this.holds.delete(addr);
    for (const link of this.linkagesOf(addr)) {
      if (occupied) {
        const lux = sensor.mapped.capabilities.illuminance ? sensor.state[sensor.mapped.capabilities.illuminance] : undefined;
        if (link.luxAbove !== undefined && typeof lux === 'number' && lux > link.luxAbove) continue;
        for (const target of link.targets) void this.applyTarget(target, link.onDetect);
      } else {
        this.holds.set(
          addr,
          this.later(link.holdS * 1000, () => {
            for (const target of link.targets) void this.applyTarget(target, link.onClear);
          }),
        );
      }
    }
  }

  private followDaylight(sensor: BridgedDevice, lux: number) {
    for (const link of this.linkagesOf(sensor.mapped.addr)) {
      if (link.luxAbove === undefined) continue;
      for (const target of link.targets) void this.applyTarget(target, lux < link.luxAbove ? link.onDetect : link.onClear);
    }
  }

  // --- commands --------------------------------------------------------------------------------

  private async onCommand(command: CommandMessage): Promise<ReplyMessage> {
    try {
      const handler = this.handlers[command.name] as (
        params: unknown,
        command: CommandMessage,
      ) => Promise<Handled<CommandName>> | Handled<CommandName>;
      const done = await handler(command.params, command);
      if (done.after) setImmediate(done.after);
      return { id: command.id, ok: true, result: done.result, ts: this.now() };
    } catch (error) {
      const code = error instanceof CommandError ? error.code : 'failed';
      return { id: command.id, ok: false, error: { code, message: (error as Error).message.slice(0, 500) }, ts: this.now() };
    }
  }

  private joined(): JoinedDevice[] {
    return [...this.devices.values()].map(({ mapped }) => ({
      addr: mapped.addr,
      kind: mapped.kind,
      networkAddress: mapped.networkAddress,
      model: mapped.model,
      firmware: mapped.firmware,
      joinedAt: 0,
    }));
  }

  private unsupported(what: string): never {
    throw new CommandError('unsupported', `${what} is not available through Zigbee2MQTT`);
  }

  private readonly handlers: CommandHandlers = {
    'gateway.info': () => ({ result: this.info() }),
    'gateway.identify': () => ({ result: {} }),
    'gateway.restart': () => this.unsupported('restarting the gateway'),
    'time.get': () => ({ result: { time: this.now(), ...(this.params.timezone ? { timezone: this.params.timezone } : {}) } }),
    'time.set': (params) => {
      if (params.timezone !== undefined && !isTimeZone(params.timezone))
        throw new CommandError('bad_request', `unknown time zone ${params.timezone}`);
      this.setClock(params.time);
      if (params.timezone) {
        this.params = { ...this.params, timezone: params.timezone };
        this.persist();
      }
      return { result: { time: this.now() } };
    },
    'params.get': () => ({ result: { params: this.params } }),
    'params.set': (params) => {
      const { timezone } = params.params;
      if (timezone !== undefined && !isTimeZone(timezone)) throw new CommandError('bad_request', `unknown time zone ${timezone}`);
      this.params = { ...this.params, ...params.params };
      this.persist();
      return { result: { params: this.params }, after: () => this.gateway?.publishOnline() };
    },
    'devices.list': () => ({ result: { devices: this.joined() } }),
    'devices.permitJoin': async (params) => {
      await this.request('permit_join', { time: params.durationS });
      return { result: {} };
    },
    'devices.report': () => ({ result: { count: this.devices.size }, after: () => this.report([...this.devices.values()], true) }),
    'panel.lockAccounts': () => this.unsupported('panel lock accounts'),
    'device.control': async (params) => {
      await this.control(params.addr, params.action);
      return { result: {} };
    },
    'device.identify': async (params) => {
      const device = this.devices.get(params.addr);
      if (!device) throw new CommandError('not_found', `no device ${params.addr}`);
      await this.setDevice(device, { identify: 'identify' });
      return { result: {} };
    },
    'device.params.get': () => this.unsupported('device parameters'),
    'device.params.set': () => this.unsupported('device parameters'),
    'device.sensor': () => this.unsupported('switching a sensor'),
    'device.remove': async (params) => {
      const device = this.devices.get(params.addr);
      if (!device) throw new CommandError('not_found', `no device ${params.addr}`);
      await this.request('device/remove', { id: device.mapped.ieee });
      return { result: {} };
    },
    'device.setKind': () => this.unsupported('changing a kind (it comes from the device definition)'),
    'devices.broadcast': async (params) => {
      let count = 0;
      for (const device of this.devices.values()) {
        const payload = this.reachable(device) ? setPayloadFor(device.mapped.capabilities, params.action) : undefined;
        if (!payload) continue;
        await this.setDevice(device, payload);
        count++;
      }
      return { result: { count } };
    },
    'devices.control': (params) => {
      const queued: BridgedDevice[] = [];
      const skipped: string[] = [];
      for (const addr of params.addrs) {
        const device = this.devices.get(addr);
        if (this.reachable(device) && setPayloadFor(device.mapped.capabilities, params.action)) queued.push(device);
        else skipped.push(addr);
      }
      return {
        result: { queued: queued.length, skipped },
        after: () => void Promise.all(queued.map((d) => this.setDevice(d, setPayloadFor(d.mapped.capabilities, params.action)!))),
      };
    },
    'devices.auto': () => ({ result: { released: [] } }),
    'group.control': async (params) => {
      await this.controlGroup(params.group, params.action);
      return { result: {} };
    },
    'scene.run': (params) => {
      const outcome = this.runScene(params.scene, 'manual');
      if (!outcome) throw new CommandError('not_found', `no scene ${params.scene}`);
      return { result: outcome };
    },
    'firmware.update': (params, command) => {
      if (params.target !== 'zigbee') this.unsupported(`updating ${params.target} firmware`);
      if (this.updating) throw new CommandError('busy', 'an update is already running');
      this.updating = command.id;
      return { result: { accepted: true }, after: () => void this.updateDevices(command.id, params.version) };
    },
    'emergency.start': () => this.unsupported('emergency tests'),
    'emergency.stop': () => this.unsupported('emergency tests'),
    'emergency.status': () => this.unsupported('emergency tests'),
    'bridges.list': () => ({ result: { bridges: [] } }),
    'sensors.mode': (params) => {
      this.params = { ...this.params, sensorMode: params.mode };
      this.persist();
      const sensors = [...this.devices.values()].filter(
        (d) => this.reachable(d) && (d.mapped.kind === 'sensor-motion' || d.mapped.kind === 'sensor-daylight'),
      );
      return { result: { mode: params.mode, count: sensors.length } };
    },
    'sensors.microwave': () => this.unsupported('microwave sensor parameters'),
    'config.apply': async (params) => {
      const unknown = unknownReference(params.config, this.devices);
      if (unknown) throw new CommandError('not_found', unknown);
      await this.syncGroups(params.config);
      this.zigbeeScenes = await this.storeScenes(params.config);
      this.config = params.config;
      this.configVersion = params.version;
      this.persist();
      return { result: { version: this.configVersion }, after: () => this.gateway?.publishOnline() };
    },
  };

  /**
   * The platform's firmware flow for target `zigbee`: every device whose definition supports OTA is updated in
   * turn through bridge/request/device/ota_update/update, reported as firmware progress of the one update.
   */
  private async updateDevices(id: string, version: string) {
    const targets = [...this.devices.values()].filter((d) => d.mapped.capabilities.ota && this.reachable(d));
    const event = (stage: 'installing' | 'done', progress: number, extra: { result?: 1 | 2; version?: string; message?: string } = {}) =>
      this.publishEvent({ type: 'firmware', ts: this.now(), update: id, target: 'zigbee', stage, progress, ...extra });
    const failures: string[] = [];
    try {
      for (const [i, device] of targets.entries()) {
        event('installing', Math.floor((i / targets.length) * 100));
        await this.request('device/ota_update/update', { id: device.mapped.ieee }).catch((error: Error) =>
          failures.push(`${device.mapped.friendlyName}: ${error.message}`),
        );
      }
      if (failures.length) event('done', 100, { result: FIRMWARE_RESULT.failure, message: failures.join('; ').slice(0, 512) });
      else event('done', 100, { result: FIRMWARE_RESULT.success, version: version.slice(0, 32) });
    } finally {
      this.updating = undefined;
    }
  }
}
