import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { sendPacketsAtOnce } from '@lumigrid/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import {
  ACCESS,
  flatExposes,
  type BinaryExpose,
  type EnumExpose,
  type Expose,
  type NumericExpose,
  type Z2mDevice,
  type Z2mGroup,
} from '../z2m-formats.ts';

/** The recorded bridge/devices entries of the stand-in's catalogue (catalogue.ts, record.ts). */
export function recordedDevices(): Z2mDevice[] {
  return JSON.parse(readFileSync(new URL('./recorded-devices.json', import.meta.url), 'utf8')) as Z2mDevice[];
}

export interface StandInOptions {
  /** The broker Zigbee2MQTT would publish on. */
  url: string;
  /** Zigbee2MQTT's `mqtt.base_topic` (default zigbee2mqtt). */
  baseTopic?: string;
  username?: string;
  password?: string;
  /** The devices it plays (default: the recorded catalogue). */
  devices?: Z2mDevice[];
  /** The coordinator's IEEE address, which bridge/info and bridge/devices carry. */
  coordinatorIeee?: string;
  /** Watts the load behind a metering plug draws while switched on. */
  plugLoadW?: number;
  log?: (line: string) => void;
}

/** One `/set` (or group `/set`) as it arrived, for tests and the benchmark. */
export interface ReceivedSet {
  /** A device's or a group's friendly name. */
  target: string;
  payload: Record<string, unknown>;
  /** performance.now() when it arrived. */
  at: number;
}

interface PlayedDevice {
  info: Z2mDevice;
  state: Record<string, unknown>;
  online: boolean;
  /** Settable features by property. */
  settable: Map<string, Expose>;
}

const MAINS_V = 230;

/** A device's first state: lights off at full brightness, covers closed, sensors quiet. */
function initialState(exposes: readonly Expose[]): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const e of flatExposes(exposes)) {
    if (!e.property || ((e.access ?? 0) & ACCESS.state) === 0) continue;
    if (e.type === 'binary') state[e.property] = (e as BinaryExpose).value_off;
    else if (e.name === 'brightness') state[e.property] = 254;
    else if (e.name === 'color_temp') {
      const { value_min = 153, value_max = 500 } = e as NumericExpose;
      state[e.property] = Math.round((value_min + value_max) / 2);
    } else if (e.name === 'color_xy') state.color = { x: 0.3127, y: 0.329 };
    else if (e.type === 'enum' && e.name === 'state') state[e.property] = 'CLOSE';
    else if (e.name === 'position') state[e.property] = 0;
    else if (e.name === 'illuminance') state[e.property] = 120;
    else if (e.name === 'battery') state[e.property] = 100;
    else if (e.name === 'voltage')
      state[e.property] = (e as NumericExpose).unit === 'V' && exposes.some((x) => x.name === 'power') ? MAINS_V : 3000;
    else if (e.name === 'temperature' || e.name === 'device_temperature') state[e.property] = 21;
    else if (e.name === 'power' || e.name === 'current' || e.name === 'energy') state[e.property] = 0;
  }
  return state;
}

function settableFeatures(exposes: readonly Expose[]): Map<string, Expose> {
  const settable = new Map<string, Expose>();
  for (const e of flatExposes(exposes)) if (e.property && ((e.access ?? 0) & ACCESS.set) !== 0) settable.set(e.property, e);
  return settable;
}

/**
 * Stands in for Zigbee2MQTT on a broker, so the bridge runs end to end without a coordinator: it publishes
 * bridge/state, bridge/info, bridge/devices, bridge/groups, each device's availability and state in
 * Zigbee2MQTT's formats, obeys `/set` within the ranges of each device's definition (as the devices would),
 * answers `/get`, and the bridge requests the bridge uses (groups, OTA, permit join). See README.md.
 */
export class Z2mStandIn extends EventEmitter {
  readonly base: string;
  readonly devices = new Map<string, PlayedDevice>();
  readonly groups = new Map<string, Z2mGroup>();
  /** Every `/set` received, in arrival order. */
  readonly received: ReceivedSet[] = [];
  /** Requests on bridge/request/..., by topic tail, in arrival order. */
  readonly requests: Array<{ request: string; payload: unknown }> = [];
  private client: MqttClient | undefined;
  private readonly coordinatorIeee: string;
  private nextGroupId = 1;
  /** Scenes the members of each group keep, by group ID and scene ID. */
  private readonly sceneStore = new Map<number, Map<number, Record<string, unknown>>>();

  constructor(private readonly options: StandInOptions) {
    super();
    this.base = options.baseTopic ?? 'zigbee2mqtt';
    this.coordinatorIeee = options.coordinatorIeee ?? '0x00124b0024c2b1a0';
    for (const info of options.devices ?? recordedDevices()) {
      const exposes = info.definition?.exposes ?? [];
      this.devices.set(info.friendly_name, { info, state: initialState(exposes), online: true, settable: settableFeatures(exposes) });
    }
  }

  async start(): Promise<void> {
    const client = await mqtt.connectAsync(this.options.url, {
      clientId: `z2m-stand-in-${Math.random().toString(16).slice(2, 10)}`,
      username: this.options.username,
      password: this.options.password,
      protocolVersion: 4,
      will: { topic: `${this.base}/bridge/state`, payload: Buffer.from(JSON.stringify({ state: 'offline' })), qos: 1, retain: true },
    });
    sendPacketsAtOnce(client);
    this.client = client;
    client.on('message', (topic, payload) => this.onMessage(topic, payload.toString('utf8')));
    client.on('error', (error) => this.log(`MQTT: ${error.message}`));
    await client.subscribeAsync([`${this.base}/+/set`, `${this.base}/+/get`, `${this.base}/bridge/request/#`], { qos: 1 });
    await this.publish('bridge/state', { state: 'online' }, true);
    await this.publish('bridge/info', this.bridgeInfo(), true);
    await this.publishDevices();
    await this.publishGroups();
    for (const [name, device] of this.devices) {
      await this.publish(`${name}/availability`, { state: device.online ? 'online' : 'offline' }, true);
      await this.publish(name, device.state);
    }
  }

  /** Says offline on bridge/state, clears its retained topics and disconnects. */
  async stop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    await this.publish('bridge/state', { state: 'offline' }, true);
    for (const topic of ['bridge/info', 'bridge/devices', 'bridge/groups', ...[...this.devices.keys()].map((n) => `${n}/availability`)])
      await client.publishAsync(`${this.base}/${topic}`, '', { qos: 1, retain: true });
    this.client = undefined;
    await client.endAsync();
  }

  /** Zigbee2MQTT itself stops (as its last will says) or comes back: bridge/state, retained. */
  async setBridgeOnline(online: boolean): Promise<void> {
    await this.publish('bridge/state', { state: online ? 'online' : 'offline' }, true);
  }

  /** A device drops off the network or comes back: Zigbee2MQTT's availability feature publishes it retained. */
  async setAvailable(friendlyName: string, online: boolean): Promise<void> {
    const device = this.require(friendlyName);
    device.online = online;
    await this.publish(`${friendlyName}/availability`, { state: online ? 'online' : 'offline' }, true);
  }

  /** A sensor measures something (occupancy, illuminance, temperature): its whole state goes out, as Zigbee2MQTT sends it. */
  async report(friendlyName: string, change: Record<string, unknown>): Promise<void> {
    const device = this.require(friendlyName);
    Object.assign(device.state, change);
    await this.publish(friendlyName, device.state);
  }

  /** A button is pressed: the state carries the action once. */
  async press(friendlyName: string, action: string): Promise<void> {
    const device = this.require(friendlyName);
    await this.publish(friendlyName, { ...device.state, action });
  }

  /** The state a device holds now. */
  stateOf(friendlyName: string): Record<string, unknown> {
    return { ...this.require(friendlyName).state };
  }

  private require(friendlyName: string): PlayedDevice {
    const device = this.devices.get(friendlyName);
    if (!device) throw new Error(`the stand-in has no device ${friendlyName}`);
    return device;
  }

  private log(line: string) {
    this.options.log?.(`[z2m stand-in] ${line}`);
  }

  private async publish(topic: string, payload: unknown, retain = false): Promise<void> {
    await this.client?.publishAsync(`${this.base}/${topic}`, JSON.stringify(payload), { qos: 1, retain });
  }

  private bridgeInfo() {
    return {
      version: '2.6.0',
      commit: 'stand-in',
      coordinator: { ieee_address: this.coordinatorIeee, type: 'zStack3x0', meta: { revision: 20240710 } },
      network: { channel: 15, pan_id: 6754, extended_pan_id: '0xdddddddddddddddd' },
      log_level: 'info',
      permit_join: false,
      restart_required: false,
      config: { mqtt: { base_topic: this.base }, availability: { enabled: true } },
    };
  }

  private async publishDevices(): Promise<void> {
    const coordinator = {
      ieee_address: this.coordinatorIeee,
      type: 'Coordinator',
      network_address: 0,
      supported: true,
      friendly_name: 'Coordinator',
      disabled: false,
      definition: null,
      interview_completed: true,
      interview_state: 'SUCCESSFUL',
      endpoints: {},
    };
    await this.publish('bridge/devices', [coordinator, ...[...this.devices.values()].map((d) => ({ ...d.info, endpoints: {} }))], true);
  }

  private async publishGroups(): Promise<void> {
    await this.publish('bridge/groups', [...this.groups.values()], true);
  }

  private onMessage(topic: string, text: string) {
    if (!topic.startsWith(`${this.base}/`)) return;
    const path = topic.slice(this.base.length + 1);
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      payload = text;
    }
    if (path.startsWith('bridge/request/')) return void this.onRequest(path.slice('bridge/request/'.length), payload);
    const [name, verb] = [path.slice(0, path.lastIndexOf('/')), path.slice(path.lastIndexOf('/') + 1)];
    if (typeof payload !== 'object' || payload === null) return this.log(`ignored a ${verb} to ${name} that is not a JSON object`);
    const body = payload as Record<string, unknown>;
    if (verb === 'get') {
      const device = this.devices.get(name);
      if (device?.online) void this.publish(name, device.state);
      return;
    }
    this.received.push({ target: name, payload: body, at: performance.now() });
    this.emit('set', this.received.at(-1));
    const group = this.groups.get(name);
    const targets = group
      ? group.members.flatMap((m) => [...this.devices.values()].filter((d) => d.info.ieee_address === m.ieee_address))
      : [this.devices.get(name)].filter((d) => d !== undefined);
    if (targets.length === 0) return this.log(`entity '${name}' is unknown`);
    if (group && (body.scene_add !== undefined || body.scene_recall !== undefined)) return void this.groupScene(group, body);
    for (const device of targets) if (device.online) void this.apply(device, body);
  }

  /**
   * A group scene as the lights keep it: scene_add stores the attributes (state, brightness, color_temp or
   * color) under the scene ID in every member, scene_recall applies them; Zigbee2MQTT lists the group's scenes.
   */
  private async groupScene(group: Z2mGroup, body: Record<string, unknown>): Promise<void> {
    const scenes = this.sceneStore.get(group.id) ?? new Map<number, Record<string, unknown>>();
    this.sceneStore.set(group.id, scenes);
    if (typeof body.scene_add === 'object' && body.scene_add !== null) {
      const { ID, name, transition: _transition, group_id: _groupId, ...attributes } = body.scene_add as Record<string, unknown>;
      if (typeof ID !== 'number' || (attributes.color_temp !== undefined && attributes.color !== undefined))
        return this.log(`${group.friendly_name}: scene_add refused`);
      scenes.set(ID, attributes);
      group.scenes = [...group.scenes.filter((sc) => sc.id !== ID), { id: ID, name: typeof name === 'string' ? name : `Scene ${ID}` }];
      await this.publishGroups();
      return;
    }
    const attributes = typeof body.scene_recall === 'number' ? scenes.get(body.scene_recall) : undefined;
    if (!attributes) return this.log(`${group.friendly_name}: unknown scene ${String(body.scene_recall)} recalled`);
    for (const member of group.members) {
      const device = [...this.devices.values()].find((d) => d.info.ieee_address === member.ieee_address);
      if (device?.online) await this.apply(device, attributes);
    }
  }

  /** Carries out a /set as the device would: each known, settable feature within its range; the rest is ignored. */
  private async apply(device: PlayedDevice, payload: Record<string, unknown>): Promise<void> {
    const state = device.state;
    for (const [key, value] of Object.entries(payload)) {
      const feature = device.settable.get(key);
      if (key === 'transition') continue;
      if (!feature) {
        this.log(`${device.info.friendly_name}: no converter available for '${key}'`);
        continue;
      }
      if (feature.type === 'binary') {
        const f = feature as BinaryExpose & { value_toggle?: unknown };
        if (value === f.value_toggle) state[key] = state[key] === f.value_on ? f.value_off : f.value_on;
        else if (value === f.value_on || value === f.value_off) state[key] = value;
      } else if (feature.type === 'numeric' && typeof value === 'number') {
        const { value_min = -Infinity, value_max = Infinity } = feature as NumericExpose;
        state[key] = Math.min(value_max, Math.max(value_min, Math.round(value)));
        if (feature.name === 'brightness') state[key.replace('brightness', 'state')] = (state[key] as number) > 0 ? 'ON' : 'OFF';
        if (feature.name === 'position') state[key.replace('position', 'state')] = (state[key] as number) > 0 ? 'OPEN' : 'CLOSE';
      } else if (feature.type === 'enum' && (feature as EnumExpose).values.includes(value as string)) {
        if (feature.name === 'state' && device.info.definition?.exposes.some((e) => e.type === 'cover')) {
          if (value !== 'STOP') {
            state[key] = value;
            state.position = value === 'OPEN' ? 100 : 0;
          }
        } else state[key] = value;
      } else if (feature.type === 'composite' && key === 'color' && typeof value === 'object' && value !== null) {
        const color = value as { x?: number; y?: number; hue?: number; saturation?: number };
        if (typeof color.x === 'number' && typeof color.y === 'number') state.color = { x: color.x, y: color.y };
        else if (typeof color.hue === 'number' && typeof color.saturation === 'number')
          state.color = { hue: color.hue, saturation: color.saturation };
      }
    }
    if ('power' in state) {
      const on = state.state === 'ON';
      state.power = on ? (this.options.plugLoadW ?? 60) : 0;
      if ('current' in state) state.current = Math.round(((state.power as number) / MAINS_V) * 1000) / 1000;
    }
    await this.publish(device.info.friendly_name, state);
  }

  private async onRequest(request: string, payload: unknown): Promise<void> {
    this.requests.push({ request, payload });
    const body = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
    const respond = (data: Record<string, unknown>, error?: string) =>
      this.publish(`bridge/response/${request}`, {
        data: error ? {} : data,
        status: error ? 'error' : 'ok',
        ...(error ? { error } : {}),
        ...(body.transaction !== undefined ? { transaction: body.transaction } : {}),
      });
    const groupOf = (key: unknown) =>
      [...this.groups.values()].find((g) => g.friendly_name === key || g.id === key || String(g.id) === String(key));
    const deviceOf = (key: unknown) => [...this.devices.values()].find((d) => d.info.friendly_name === key || d.info.ieee_address === key);
    switch (request) {
      case 'group/add': {
        const name = typeof payload === 'string' ? payload : body.friendly_name;
        if (typeof name !== 'string' || name === '') return respond({}, 'Invalid payload');
        if (this.groups.has(name)) return respond({}, `friendly_name '${name}' is already in use`);
        const id = typeof body.id === 'number' ? body.id : this.nextGroupId++;
        this.groups.set(name, { id, friendly_name: name, members: [], scenes: [] });
        await this.publishGroups();
        return respond({ friendly_name: name, id });
      }
      case 'group/remove': {
        const group = groupOf(typeof payload === 'string' ? payload : body.id);
        if (!group) return respond({}, `Group '${String(body.id)}' does not exist`);
        this.groups.delete(group.friendly_name);
        await this.publishGroups();
        return respond({ id: body.id });
      }
      case 'group/members/add':
      case 'group/members/remove': {
        const group = groupOf(body.group);
        const device = deviceOf(body.device);
        if (!group) return respond({}, `Group '${String(body.group)}' does not exist`);
        if (!device) return respond({}, `Device '${String(body.device)}' does not exist`);
        group.members = group.members.filter((m) => m.ieee_address !== device.info.ieee_address);
        if (request.endsWith('add')) group.members.push({ ieee_address: device.info.ieee_address, endpoint: 1 });
        await this.publishGroups();
        return respond({ device: body.device, group: body.group, endpoint: body.endpoint ?? 'default' });
      }
      case 'permit_join':
        return respond({ time: body.time ?? body.value });
      case 'device/ota_update/update': {
        const device = deviceOf(body.id);
        if (!device) return respond({}, `Device '${String(body.id)}' does not exist`);
        if (!device.info.definition?.supports_ota) return respond({}, `Device '${device.info.friendly_name}' does not support OTA updates`);
        const from = device.info.software_build_id ?? '1.0.0';
        for (const progress of [0, 50, 100])
          await this.publish(device.info.friendly_name, { ...device.state, update: { state: 'updating', progress } });
        const to = `${from}-updated`;
        device.info = { ...device.info, software_build_id: to };
        await this.publish(device.info.friendly_name, { ...device.state, update: { state: 'idle' } });
        await this.publishDevices();
        return respond({ id: body.id, from: { software_build_id: from }, to: { software_build_id: to } });
      }
      default:
        return respond({}, `Request '${request}' is not played by the stand-in`);
    }
  }
}
