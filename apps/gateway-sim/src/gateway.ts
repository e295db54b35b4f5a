import { EventEmitter } from 'node:events';
import {
  brokerNodes,
  DALI_LIMITS,
  FAULT_CODES,
  FIRMWARE_RESULT,
  RATED_POWER_W,
  EMPTY_GATEWAY_CONFIG,
  FIRMWARE_TARGETS,
  decodeDown,
  downTopic,
  dueSchedules,
  encodeUp,
  gatewaySessionOptions,
  isTimeZone,
  upTopic,
  type Bridge,
  type CommandMessage,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type DeviceKind,
  type EventMessage,
  type GatewayConfig,
  type GatewayInfo,
  type GatewayParams,
  type GatewayVersions,
  type LightAction,
  type MicrowaveParams,
  type ReplyMessage,
  sendPacketsAtOnce,
  type Target,
  type TelemetrySample,
  type UpChannel,
  type UpMessages,
  UplinkStore,
  type StoredUplink,
  CommandError,
  daliOverflow,
  targetAddrs,
  unknownReference,
  OnlineHandshake,
  reconnectDelay,
  subscribeUntilGranted,
  type ReconnectBackoff,
  type TimerSchedule,
} from '@lumigrid/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { SimClock } from './clock.ts';
import { SIMULATED_KINDS, applyAction, createDevice, deviceAddr, faultCodesOf, joinedDevice, type SimDevice } from './devices.ts';
import {
  BACKFILL_SAMPLES_PER_SECOND,
  DEFAULT_COUNTER_RESET_RATE,
  STANDBY_POWER_W,
  advanceCounter,
  backfillTimes,
  isMetered,
  localTimeOf,
  meterSample,
  officeUsage,
  powerW,
  type BackfilledDay,
  type EnergyBackfill,
  type EnergyBackfillOptions,
} from './energy.ts';
import { DEFAULT_RADIO_LIMITS, RadioLimiter, type RadioLimits } from './radio.ts';
import { clearManual, expireOverrides, setManual } from './override.ts';
import { SceneRunner, type OverrideRule, type SceneTrigger } from './scenes.ts';
import { EmergencyTests, type EmergencyFailureRates, type SimEmergencyLight } from './emergency.ts';

import { changeKind, readParams, writeParams } from './device-params.ts';
import {
  occupancyChanceOver,
  planOccupancy,
  sendOccupancy,
  type OccupancyBackfill,
  type OccupancyBackfillOptions,
  type OccupancyProfile,
} from './occupancy.ts';

/** What a command handler answers: the reply's result, and what to do once the reply is out. */
type Handled<N extends CommandName> = { result: CommandResult<N>; after?: () => void };
type CommandHandlers = {
  [N in CommandName]: (params: CommandParams<N>, command: CommandMessage) => Handled<N> | Promise<Handled<N>>;
};

export interface SimGatewayOptions {
  mac: string;
  password: string;
  /**
   * Broker URL, e.g. mqtt://127.0.0.1:1883, or the MQTT listeners of a clustered broker's nodes comma-separated:
   * each reconnect tries the next one, so a node that dies costs a reconnect.
   */
  url: string;
  /** A super gateway holds bridges (Zigbee and Wi-SUN) with devices behind them. */
  superGateway?: boolean;
  /** Simulated time runs this many times faster than the wall clock (default 1). */
  timeFactor?: number;
  /**
   * Emergency tests and battery charging run this many times faster again (default 1), so a 3-hour life test
   * passes in seconds in tests and demos; their events carry the simulated duration (durationS).
   */
  emergencyTimeFactor?: number;
  /** Chance per emergency test of each failure (battery, lamp, circuit, communication); default none. */
  emergencyFailureRates?: EmergencyFailureRates;
  radio?: RadioLimits;
  /** Simulated duration of a firmware update; default 10-20 minutes (spec section 9). */
  firmwareMs?: { min: number; max: number };
  /** Simulated downtime of a restart; default 60-120 s (spec: reconnect 1-2 minutes). */
  restartMs?: { min: number; max: number };
  /** Devices of each family (default 1). */
  devicesPerKind?: number;
  /** Devices added after those of every kind (a demo's extra motion sensors); behind the bridges on a super gateway. */
  extraDevices?: readonly DeviceKind[];
  /** Simulated seconds between telemetry and sensor activity; 0 switches the background activity off. */
  activityIntervalS?: number;
  /** Chance per device and activity interval that a fault appears (default 0.002; 0 for none). */
  faultRate?: number;
  /**
   * Flapping faults: the chance per activity interval that a fault the background activity raised clears by itself
   * (default 0: faults stay until cleared by hand, as in the field). A fault raised by hand or found by an emergency
   * test never clears by itself; an emergency light's failure clears when a test passes.
   */
  faultClearRate?: number;
  /** Energy counter resets per device and simulated day (default 0.01; 0 for none). */
  counterResetRate?: number;
  /**
   * Live telemetry waits for releaseTelemetry(): a site that backfills its energy history first sends no live
   * reading newer than that history (the server drops samples older than a device's last reading).
   */
  holdTelemetry?: boolean;
  ip?: string;
  /** MQTT keep-alive in seconds (default 60): a broker gone without closing the socket is noticed after 1.5 of them. */
  keepaliveS?: number;
  /** Up messages kept while the broker or the cloud is away (default 1000); past it the oldest are dropped. */
  uplinkLimit?: number;
  /** Waits between attempts to reach the broker (reconnectDelay): jittered exponential, 0.5-1 s first, at most 30 s. */
  reconnect?: ReconnectBackoff;
  /**
   * Waits for the cloud's down/ack before the online state goes again (OnlineHandshake): jittered exponential,
   * 5-10 s first, at most 2 minutes, for as long as the connection lasts unanswered.
   */
  onlineRepeat?: ReconnectBackoff;
  /** Runs the handshake's waits (a refused subscription, an unanswered online state); tests pass manualSchedule's. */
  schedule?: TimerSchedule;
  log?: (line: string) => void;
  random?: () => number;
}

/** Ways to make the gateway misbehave on purpose (spec: timeouts, update failure, offline). */
export interface SimFaults {
  /** Commands carried out but never answered, so the cloud times out; true for every command. */
  noReply: boolean | ReadonlySet<CommandName>;
  /** Commands lost on the way in: neither carried out nor answered (a gateway that never applies a config). */
  lost: ReadonlySet<CommandName>;
  /** Firmware updates fail while installing (result 2). */
  failUpdates: boolean;
  /** Firmware updates go silent halfway, so the cloud decides timeout. */
  hangUpdates: boolean;
  /** Emergency lights (addresses) whose tests fail with a battery fault. */
  failEmergency: Set<string>;
  /** Devices (addresses) that drop off and come back at every activity interval. */
  flapping: Set<string>;
  /** The cloud's next answers to the online state lost on the way in (a server node that died before answering). */
  lostOnlineAnswers: number;
  /**
   * Commands that reach the gateway after their expiry, the next so many of each name (a broker holding messages
   * in a connect storm): answered 'expired' and not run.
   */
  arrivesLate: Map<CommandName, number>;
}

const SEEN_IDS = 1000;
const BATCH = 500;
/** Backfill messages awaiting the broker's PUBACK at once. */
const BACKFILL_WINDOW = 16;
const HOUR_MS = 3_600_000;
const UPLINK_LIMIT = 1000;

/** One simulated gateway with its devices, speaking packages/protocol over its own MQTT connection. */
export class SimGateway extends EventEmitter {
  readonly mac: string;
  readonly clock: SimClock;
  readonly devices = new Map<string, SimDevice>();
  readonly faults: SimFaults = {
    noReply: false,
    lost: new Set(),
    failUpdates: false,
    hangUpdates: false,
    failEmergency: new Set(),
    flapping: new Set(),
    lostOnlineAnswers: 0,
    arrivesLate: new Map(),
  };
  config: GatewayConfig = EMPTY_GATEWAY_CONFIG;
  configVersion = 0;
  params: GatewayParams = { timezone: 'UTC', reportIntervalS: 60, sensorMode: 'independent' };
  /** What set_mawa_params last wrote to the microwave motion sensors (sensors.microwave). */
  microwave: MicrowaveParams = { holdS: 60, luxAbove: 500, level: 254, standbyLevel: 0 };
  versions: GatewayVersions = { gateway: '3.2.1', zigbee: '1.4.0', zigbee2: '1.4.0', zigbee3: '3.0.2', wisun: '2.1.0', plc: '1.0.7' };
  /** How often each command id was carried out; a repeated id must stay at 1. */
  readonly executions = new Map<string, number>();
  /** Chance per emergency test of each failure; may be changed while running. */
  emergencyFailureRates: EmergencyFailureRates;
  identifyUntil = 0;
  private client: MqttClient | undefined;
  private readonly replies = new Map<string, ReplyMessage | undefined>();
  private readonly radio: RadioLimiter;
  private readonly random: () => number;
  private updating: string | undefined;
  private nextIndex = 0;
  /** Counts the calls that open or close the network: a pairing belongs to the opening that scheduled it. */
  private joinWindows = 0;
  private stopped = true;
  private activity: NodeJS.Timeout | undefined;
  /** Devices whose present fault the background activity raised: the only ones flapping may clear. */
  private readonly backgroundFaults = new Set<string>();
  /** Telemetry every reportIntervalS (sim time) while background life runs. */
  private telemetryTimer: NodeJS.Timeout | undefined;
  private telemetryHeld: boolean;
  private backfilling = false;
  private scheduler: NodeJS.Timeout | undefined;
  private readonly emergency: EmergencyTests;
  private readonly scenes: SceneRunner;
  private schedulesCheckedAt = 0;
  /** Motion sensors' hold timers: each clears its sensor the hold time after the last detection. */
  private readonly motionHolds = new Map<string, NodeJS.Timeout>();
  private draining: Promise<void> = Promise.resolve();
  /** Scenes run (schedules, panel keys, scene.run), newest last (for demos and tests). */
  readonly sceneLog: SceneRunner['log'];
  /**
   * How each motion sensor's room is used (occupancy.ts): a sensor named here follows its working day, live and
   * in backfillOccupancy; the others see motion at random.
   */
  readonly occupancyProfiles = new Map<string, OccupancyProfile>();
  /** Up messages not yet taken by the broker while the cloud listens (store-and-forward). */
  private readonly uplink: UplinkStore;
  /** Counts connections, so a message handed to a connection that dropped is sent again on the next one. */
  private generation = 0;
  /** From the cloud's answer to this connection's online state until the connection drops, up messages go out. */
  private readonly handshake: OnlineHandshake;
  /** Failed attempts to reach the broker since the last connection; sets the next wait (reconnectDelay). */
  private reconnectAttempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SimGatewayOptions) {
    super();
    this.mac = options.mac;
    this.clock = new SimClock(options.timeFactor ?? 1);
    this.radio = new RadioLimiter(options.radio ?? DEFAULT_RADIO_LIMITS);
    this.random = options.random ?? Math.random;
    this.telemetryHeld = options.holdTelemetry ?? false;
    this.uplink = new UplinkStore(options.uplinkLimit ?? UPLINK_LIMIT);
    this.handshake = new OnlineHandshake({ backoff: options.onlineRepeat, schedule: options.schedule, log: (line) => this.log(line) });
    this.populate(options.devicesPerKind ?? 1);
    this.emergencyFailureRates = { ...options.emergencyFailureRates };
    const emergencyTimeFactor = options.emergencyTimeFactor ?? 1;
    if (!(emergencyTimeFactor > 0)) throw new Error('emergency time factor must be above 0');
    this.emergency = new EmergencyTests({
      clock: this.clock,
      timeFactor: emergencyTimeFactor,
      devices: this.devices,
      faults: this.faults,
      failureRates: () => this.emergencyFailureRates,
      random: () => this.random(),
      // Test results reach the log book even when they happen while the cloud is away (store-and-forward).
      publishEvent: (event) => this.publish('event', event),
      publishReport: (devices) => this.publishReport(devices, false),
      faultFound: (addr) => this.backgroundFaults.delete(addr),
    });
    this.scenes = new SceneRunner({
      clock: this.clock,
      devices: this.devices,
      config: () => this.config,
      applyTo: (target, action, rule) => this.applyTo(target, action, rule),
      publishReport: (devices) => this.publishReport(devices, false),
      publishEvent: (event) => this.publish('event', event),
    });
    this.sceneLog = this.scenes.log;
    // A clock that jumps does not fire the schedules it jumped over.
    this.clock.onSet(() => (this.schedulesCheckedAt = this.clock.now()));
  }

  get superGateway(): boolean {
    return this.options.superGateway ?? false;
  }

  get online(): boolean {
    return this.client?.connected ?? false;
  }

  /** Up messages dropped because the store-and-forward queue was full, since the gateway was made. */
  get uplinkDropped(): number {
    return this.uplink.dropped;
  }

  /** Up messages waiting for the broker and the cloud (store-and-forward). */
  get uplinkWaiting(): number {
    return this.uplink.size;
  }

  /** The fields of spec section 3 as the gateway reports them. */
  info(): GatewayInfo {
    return {
      mac: this.mac,
      ip: this.options.ip ?? `10.20.${parseInt(this.mac.slice(8, 10), 16)}.${parseInt(this.mac.slice(10), 16) || 1}`,
      networkAddress: '0000',
      panId: this.mac.slice(8).toUpperCase(),
      channel: this.params.channel ?? 15,
      versions: { ...this.versions },
      largeGroupNumber: this.params.largeGroupNumber ?? 65000,
      superGateway: this.superGateway,
      configVersion: this.configVersion,
      model: this.superGateway ? 'LG-SGW-100' : 'LG-GW-200',
      ...(this.uplink.dropped > 0 ? { uplinkDropped: this.uplink.dropped } : {}),
    };
  }

  /** Connects and resolves once the gateway is online; rejects when the broker refuses its credentials. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
    const every = this.options.activityIntervalS ?? 60;
    if (every > 0 && !this.activity) this.activity = this.clock.every(every * 1000, () => this.tick());
    if (every > 0 && !this.telemetryTimer) this.scheduleTelemetry();
    if (!this.scheduler) {
      // Schedules run on the gateway's own clock, connected or not (ARCHITECTURE.md section 1).
      this.schedulesCheckedAt = this.clock.now();
      this.scheduler = this.clock.every(30_000, () => this.runSchedules());
    }
  }

  /**
   * Runs a scene of the configuration now, each step after its delay, and reports it as a scene event
   * (trigger `manual` unless told otherwise); answers false for an unknown scene.
   */
  runScene(id: number, trigger: SceneTrigger = 'manual'): boolean {
    return this.scenes.run(id, trigger) !== undefined;
  }

  /** A person presses a key of a scene panel: runs the scene bound to it; false when no scene is bound or the panel is offline. */
  pressPanelKey(panelAddr: string, key: number): boolean {
    const binding = this.config.panelKeys?.find((k) => k.panel === panelAddr && k.key === key);
    if (!binding || !this.devices.get(panelAddr)?.state.online) return false;
    return this.runScene(binding.scene, 'panel');
  }

  private runSchedules() {
    const now = this.clock.now();
    const due = dueSchedules(this.config, this.params, this.schedulesCheckedAt, now);
    this.schedulesCheckedAt = now;
    this.releaseExpiredOverrides();
    for (const { schedule, at } of due) this.scenes.run(schedule.scene, 'schedule', { at, schedule: schedule.id });
  }

  private releaseExpiredOverrides() {
    const released = expireOverrides(this.devices.values(), this.clock.now());
    if (released.length) this.publishReport(released, false);
  }

  /** A planned shutdown: says offline (shutdown) and disconnects cleanly. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.stop();
    this.activity = undefined;
    this.telemetryTimer = undefined;
    this.scheduler = undefined;
    await this.disconnect('shutdown');
  }

  /** Fault: drops the connection without a goodbye, so the broker publishes the last will. */
  async goOffline(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    clearTimeout(this.reconnectTimer);
    this.cloudGone();
    if (client) await client.endAsync(true);
    this.emit('offline');
  }

  /** Comes back after goOffline(). */
  async goOnline(): Promise<void> {
    await this.connect();
  }

  /**
   * A device joins the network now (as if an installer paired it); answers its address. A DALI device joins
   * the given bridge's bus, or the gateway's DALI bridge.
   */
  simulateJoin(kind: DeviceKind, bridgeAddr?: string): string {
    const device = this.addDevice(kind, kind === 'dali' ? (bridgeAddr ?? this.daliBridge().state.addr) : bridgeAddr);
    const bridge = device.bridge;
    this.publish('event', {
      type: 'join',
      ts: this.clock.now(),
      addr: device.state.addr,
      kind,
      joined: true,
      ...(bridge ? { bridge } : {}),
    });
    this.publishReport([device], false);
    return device.state.addr;
  }

  /**
   * Fault on a device (codes of spec section 4); code 2 (offline) also takes it off the network. It stays until
   * clearFault (or, on an emergency light, a test that passes).
   */
  raiseFault(addr: string, code: number) {
    const device = this.devices.get(addr);
    if (!device || code < 1 || code > 9) throw new Error(`no device ${addr} or no fault code ${code}`);
    this.backgroundFaults.delete(addr);
    device.state.fault = code;
    if (code === 2) device.state.online = false;
    this.publish('event', { type: 'fault', ts: this.clock.now(), addr, code, raised: true });
    this.publishReport([device], false);
  }

  clearFault(addr: string) {
    const device = this.devices.get(addr);
    this.backgroundFaults.delete(addr);
    if (!device || device.state.fault === 0) return;
    const code = device.state.fault;
    device.state.fault = 0;
    device.state.online = true;
    this.publish('event', { type: 'fault', ts: this.clock.now(), addr, code, raised: false });
    this.publishReport([device], false);
  }

  /** Reports every device's current state now, as after `devices.report` (load tests, benchmarks, demos). */
  reportAll(): void {
    this.publishReport([...this.devices.values()], true);
  }

  /** Number of times a command id was carried out. */
  executedCount(id: string): number {
    return this.executions.get(id) ?? 0;
  }

  /**
   * An emergency light's battery and failures, to set for tests and demos (`set({ batteryAgeYears, charge,
   * batteryCells, lightType, failure })`) and read (`status()`); see emergency.ts. Throws for an address that
   * is not an emergency light of this gateway.
   */
  emergencyLight(addr: string): SimEmergencyLight {
    return this.emergency.light(addr);
  }

  // --- connection ------------------------------------------------------------------------------

  private connect(): Promise<void> {
    const { url, servers } = brokerNodes(this.options.url);
    const client = mqtt.connect(url, {
      ...gatewaySessionOptions(this.mac, this.options.password, this.options.keepaliveS),
      servers,
      // mqtt.js retries at a fixed period; the gateway backs off with jitter itself (the 'close' handler below).
      reconnectPeriod: 0,
    });
    this.client = client;
    this.cloudGone();
    sendPacketsAtOnce(client);
    client.on('close', () => {
      // An old connection closing late must not silence the one that replaced it.
      if (this.client !== client) return;
      // Heard by fault runs and operators: the connection went without the gateway choosing it.
      if (!this.stopped) this.emit('connection-lost');
      this.cloudGone();
      // What still waits for a PUBACK stays in the uplink store and goes again once the cloud listens on the
      // next connection; mqtt.js must not send it on its own before that.
      for (const id of Object.keys(client.outgoing)) client.removeOutgoingMessage(Number(id));
      this.scheduleReconnect(client);
    });
    client.on('message', (topic, payload) => void this.onDown(topic, payload));
    // Always listened to: an 'error' without a listener would throw out of mqtt.js.
    client.on('error', (error) => this.log(`MQTT: ${error.message}`));
    client.on('connect', () => {
      this.reconnectAttempts = 0;
      this.generation++;
      const generation = this.generation;
      // The online state waits until every down topic is granted (subscribeUntilGranted says why).
      const topics = [downTopic(this.mac, 'cmd'), downTopic(this.mac, 'config'), downTopic(this.mac, 'ack')];
      subscribeUntilGranted(
        client,
        topics,
        () => {
          this.publish('state', { state: 'online', info: this.info(), ts: this.clock.now() }, true);
          this.publishReport([...this.devices.values()], true);
          this.emit('online');
        },
        {
          schedule: this.options.schedule,
          log: (line) => this.log(line),
          current: () => this.client === client && this.generation === generation && client.connected,
        },
      );
    });
    return new Promise((resolve, reject) => {
      const onOnline = () => {
        client.off('error', onError);
        resolve();
      };
      const onError = (error: Error & { code?: number }) => {
        // Refused credentials (CONNACK 4 or 5) will not get better by retrying.
        if (error.code === 4 || error.code === 5) {
          this.off('online', onOnline);
          this.client = undefined;
          client.end(true);
          reject(new Error(`gateway ${this.mac}: broker refused the connection (${error.message})`));
        }
      };
      this.once('online', onOnline);
      client.on('error', onError);
    });
  }

  /** Tries the broker again after the jittered back-off, unless the connection was ended on purpose meanwhile. */
  private scheduleReconnect(client: MqttClient) {
    clearTimeout(this.reconnectTimer);
    const wait = reconnectDelay(this.reconnectAttempts++, this.options.reconnect);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.client === client && !client.connected) client.reconnect();
    }, wait);
  }

  private async disconnect(reason: 'shutdown' | 'restart' | 'update'): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    clearTimeout(this.reconnectTimer);
    this.cloudGone();
    if (client.connected) {
      await client
        .publishAsync(upTopic(this.mac, 'state'), encodeUp('state', { state: 'offline', reason, ts: this.clock.now() }), {
          qos: 1,
          retain: true,
        })
        .catch(() => undefined);
    }
    await client.endAsync();
    this.emit('offline');
  }

  /**
   * Sends an up message. The retained state goes out at once on a live connection (a connection publishes its
   * own online state when it comes up). Everything else goes through the uplink store and leaves once the
   * cloud has acknowledged this connection's online state, so nothing is published while nobody listens.
   */
  private publish<C extends UpChannel>(channel: C, message: UpMessages[C], retain = false) {
    let payload: string;
    try {
      payload = encodeUp(channel, message);
    } catch (error) {
      // A simulator bug must show, not take a fleet of gateways down with it.
      this.log(`refused to send an invalid ${channel}: ${(error as Error).message}`);
      return;
    }
    const topic = upTopic(this.mac, channel);
    if (channel !== 'state') {
      const before = this.uplink.dropped;
      const stored = this.uplink.add(topic, payload);
      if (this.uplink.dropped > before) this.log(`uplink store full: dropped the oldest message (${this.uplink.dropped} so far)`);
      this.forward([stored]);
      return;
    }
    const client = this.client;
    if (!client?.connected) return;
    const send = () =>
      client.publish(topic, payload, { qos: 1, retain }, (error) => {
        if (error && !this.stopped) this.log(`publish ${channel} failed: ${error.message}`);
      });
    send();
    const state = message as UpMessages['state'];
    if (state.state === 'online') this.handshake.onlineSent(state.ts, send, () => this.client === client && client.connected);
  }

  /** Hands stored messages to the broker while the cloud listens; each leaves the store on its PUBACK. */
  private forward(messages: StoredUplink[]) {
    const client = this.client;
    if (!client?.connected || !this.handshake.answered) return;
    this.uplink.forward(
      messages,
      this.generation,
      (topic, payload, done) => client.publish(topic, payload, { qos: 1 }, done),
      (message) => this.emit('delivered', message),
    );
  }

  /** The cloud answered an online state: when it is one of this connection's, what was stored goes now. */
  private cloudAcknowledged(state: number | undefined) {
    if (this.handshake.acknowledge(state)) this.forward(this.uplink.waiting(this.generation));
  }

  /** The connection dropped or was replaced: messages wait in the store until the cloud acknowledges the next one. */
  private cloudGone() {
    this.handshake.reset();
  }

  private publishReport(devices: SimDevice[], full: boolean) {
    for (let i = 0; i < devices.length; i += BATCH) {
      this.publish('report', { ts: this.clock.now(), full, devices: devices.slice(i, i + BATCH).map((d) => ({ ...d.state })) });
    }
  }

  private log(line: string) {
    this.options.log?.(`[${this.mac}] ${line}`);
  }

  // --- commands --------------------------------------------------------------------------------

  private async onDown(topic: string, payload: Buffer) {
    const decoded = decodeDown(topic, payload);
    if (!decoded.ok) {
      this.log(`dropped a malformed command: ${decoded.error.message}`);
      const id = idOf(payload);
      const code = decoded.error.code === 'unknown_command' ? 'unknown_command' : 'bad_request';
      if (id) this.reply({ id, ok: false, error: { code, message: decoded.error.message.slice(0, 500) } });
      return;
    }
    const down = decoded.value;
    if (down.channel === 'ack') {
      if (this.faults.lostOnlineAnswers > 0) return void this.faults.lostOnlineAnswers--;
      return this.cloudAcknowledged(down.message.state);
    }
    const command = down.message;
    if (this.faults.lost.has(command.name)) return;
    if (this.replies.has(command.id)) {
      // A repeated id (QoS 1 redelivery, a retry): answer again, never execute again.
      const cached = this.replies.get(command.id);
      if (cached) this.reply(cached);
      return;
    }
    this.replies.set(command.id, undefined);
    if (this.replies.size > SEEN_IDS) this.replies.delete(this.replies.keys().next().value!);
    this.emit('command', command);

    const late = this.faults.arrivesLate.get(command.name) ?? 0;
    if (late > 0) this.faults.arrivesLate.set(command.name, late - 1);
    if (late > 0 || (command.expiresAt !== undefined && Date.now() > command.expiresAt)) {
      return this.reply({ id: command.id, ok: false, error: { code: 'expired', message: 'received after it expired' } });
    }
    this.executions.set(command.id, (this.executions.get(command.id) ?? 0) + 1);
    let reply: ReplyMessage;
    let after: (() => void) | undefined;
    try {
      const done = await this.execute(command);
      reply = { id: command.id, ok: true, result: done.result, ts: this.clock.now() };
      after = done.after;
    } catch (error) {
      const code = error instanceof CommandError ? error.code : 'failed';
      reply = { id: command.id, ok: false, error: { code, message: (error as Error).message.slice(0, 500) }, ts: this.clock.now() };
    }
    this.replies.set(command.id, reply);
    const silent = this.faults.noReply === true || (this.faults.noReply instanceof Set && this.faults.noReply.has(command.name));
    if (!silent) this.reply(reply);
    after?.();
  }

  private reply(reply: ReplyMessage) {
    this.publish('reply', reply);
  }

  /** One handler per protocol command; each answers its command's result type (CommandResult), or throws CommandError. */
  private readonly handlers: CommandHandlers = {
    'gateway.info': () => ({ result: this.info() }),
    'gateway.identify': (params) => {
      this.identifyUntil = this.clock.now() + (params.durationS ?? 10) * 1000;
      return { result: {} };
    },
    'gateway.restart': () => ({ result: {}, after: () => void this.restart('restart') }),
    'time.get': () => ({ result: { time: this.clock.now(), ...(this.params.timezone ? { timezone: this.params.timezone } : {}) } }),
    'time.set': (params) => {
      if (params.timezone !== undefined && !isTimeZone(params.timezone))
        throw new CommandError('bad_request', `unknown time zone ${params.timezone}`);
      this.clock.set(params.time);
      if (params.timezone) this.params = { ...this.params, timezone: params.timezone };
      return { result: { time: this.clock.now() } };
    },
    'params.get': () => ({ result: { params: this.params } }),
    'params.set': (params) => {
      const { timezone } = params.params;
      if (timezone !== undefined && !isTimeZone(timezone)) throw new CommandError('bad_request', `unknown time zone ${timezone}`);
      this.params = { ...this.params, ...params.params };
      // A new report interval takes effect at once.
      if (this.telemetryTimer) this.scheduleTelemetry();
      return {
        result: { params: this.params },
        after: () => this.publish('state', { state: 'online', info: this.info(), ts: this.clock.now() }, true),
      };
    },
    'devices.list': () => ({ result: { devices: [...this.devices.values()].map(joinedDevice) } }),
    'devices.permitJoin': (params) => {
      const opening = ++this.joinWindows;
      const pairAfterMs = 2000;
      if (params.durationS * 1000 > pairAfterMs) {
        // Someone pairs a light a couple of seconds after the network opens, unless it was closed or opened again
        // meanwhile. Not checked against the clock when the timer fires: a busy host fires it late, and at a
        // high time factor late is past the window.
        this.clock.after(pairAfterMs, () => {
          if (this.joinWindows === opening) this.simulateJoin('light-cct');
        });
      }
      return { result: {} };
    },
    'devices.report': () => ({ result: { count: this.devices.size }, after: () => this.publishReport([...this.devices.values()], true) }),
    'device.identify': async (params) => {
      await this.reachable(params.addr);
      return { result: {} };
    },
    'device.control': async (params) => {
      const device = await this.reachable(params.addr);
      const acted = applyAction(device, params.action);
      const overridden = this.setManual(device);
      return { result: {}, after: () => (acted || overridden) && this.publishReport([device], false) };
    },
    'panel.lockAccounts': async (params) => {
      const device = await this.reachable(params.addr);
      if (!device.state.kind.startsWith('panel-')) throw new CommandError('unsupported', `${device.state.kind} is not a panel`);
      return { result: { locked: device.state.locked ?? false, accounts: (device.lockAccounts ?? []).map((a) => ({ ...a })) } };
    },
    'device.params.get': async (params) => ({ result: { params: readParams(await this.reachable(params.addr)) } }),
    'device.params.set': async (params) => ({ result: { params: writeParams(await this.reachable(params.addr), params.params) } }),
    'device.sensor': async (params) => {
      const device = await this.reachable(params.addr);
      if (!device.state.kind.startsWith('sensor-')) throw new CommandError('unsupported', `${device.state.kind} is not a sensor`);
      device.sensing = params.on;
      return { result: {} };
    },
    'device.remove': async (params) => {
      const device = await this.reachable(params.addr);
      // Devices behind a bridge leave with it, as their bridge is their way onto the network.
      for (const d of [...this.devices.values()]) if (d.bridge === device.state.addr) this.devices.delete(d.state.addr);
      this.devices.delete(device.state.addr);
      return {
        result: {},
        after: () =>
          this.publish('event', { type: 'join', ts: this.clock.now(), addr: device.state.addr, kind: device.state.kind, joined: false }),
      };
    },
    'device.setKind': (params) => {
      const changed = params.addrs.flatMap((addr) => {
        const device = this.devices.get(addr);
        if (!device) return [];
        changeKind(device, params.kind);
        return [device];
      });
      return { result: { changed: changed.map((d) => d.state.addr) }, after: () => changed.length && this.publishReport(changed, false) };
    },
    'devices.broadcast': async (params) => {
      await this.radio.acquire('group');
      const changed = [...this.devices.values()].filter((d) => d.state.online && applyAction(d, params.action));
      return { result: { count: changed.length }, after: () => changed.length && this.publishReport(changed, false) };
    },
    'devices.control': (params) => {
      const queued: SimDevice[] = [];
      const skipped: string[] = [];
      for (const addr of params.addrs) {
        const device = this.devices.get(addr);
        if (device?.state.online) queued.push(device);
        else skipped.push(addr);
      }
      return { result: { queued: queued.length, skipped }, after: () => this.drain(queued, params.action) };
    },
    'devices.auto': (params) => {
      const released = [...new Set(params.addrs)].flatMap((addr) => {
        const device = this.devices.get(addr);
        return device && clearManual(device) ? [device] : [];
      });
      return {
        result: { released: released.map((d) => d.state.addr) },
        after: () => released.length && this.publishReport(released, false),
      };
    },
    'group.control': async (params) => {
      const group = this.config.groups.find((g) => g.id === params.group);
      if (!group) throw new CommandError('not_found', `no group ${params.group}`);
      await this.radio.acquire('group');
      const changed = this.applyTo({ group: group.id }, params.action, 'set');
      return { result: {}, after: () => changed.length && this.publishReport(changed, false) };
    },
    'scene.run': (params) => {
      const outcome = this.scenes.run(params.scene, 'manual');
      if (!outcome) throw new CommandError('not_found', `no scene ${params.scene}`);
      return { result: outcome };
    },
    'firmware.update': (params, command) => {
      if (this.updating) throw new CommandError('busy', 'an update is already running');
      this.updating = command.id;
      return { result: { accepted: true }, after: () => void this.runUpdate(command.id, params.target, params.version) };
    },
    'emergency.start': (params) => this.emergency.start(params),
    'emergency.stop': (params) => ({ result: this.emergency.stop(params.addrs) }),
    'emergency.status': (params) => ({ result: this.emergency.status(params.addrs) }),
    'bridges.list': () => ({ result: { bridges: this.bridges() } }),
    'sensors.mode': (params) => {
      // Sensors act alone (independent) or drive the configuration's linkage; the gateway keeps the mode.
      const sensors = [...this.devices.values()].filter((d) => d.state.kind === 'sensor-motion' || d.state.kind === 'sensor-daylight');
      this.params = { ...this.params, sensorMode: params.mode };
      return { result: { mode: params.mode, count: sensors.filter((d) => d.state.online).length } };
    },
    'sensors.microwave': (params) => {
      const sensors = [...this.devices.values()].filter((d) => d.state.kind === 'sensor-motion' && d.state.online);
      this.microwave = { ...this.microwave, ...params.params };
      return { result: { count: sensors.length, params: this.microwave } };
    },
    'config.apply': (params) => {
      const unknown = unknownReference(params.config, this.devices);
      if (unknown) throw new CommandError('not_found', unknown);
      const overflow = daliOverflow(params.config, (addr) => {
        const device = this.devices.get(addr);
        return device?.state.kind === 'dali' ? device.bridge : undefined;
      });
      if (overflow) throw new CommandError('unsupported', overflow);
      this.config = params.config;
      this.configVersion = params.version;
      return {
        result: { version: this.configVersion },
        after: () => this.publish('state', { state: 'online', info: this.info(), ts: this.clock.now() }, true),
      };
    },
  };

  private execute(command: CommandMessage): Promise<Handled<CommandName>> | Handled<CommandName> {
    const handler = this.handlers[command.name] as (
      params: unknown,
      command: CommandMessage,
    ) => Promise<Handled<CommandName>> | Handled<CommandName>;
    return handler(command.params, command);
  }

  /** The device at an address, once the radio lets a unicast through; not_found or failed (offline) otherwise. */
  private async reachable(addr: string): Promise<SimDevice> {
    const device = this.devices.get(addr);
    if (!device) throw new CommandError('not_found', `no device ${addr}`);
    if (!device.state.online) throw new CommandError('failed', `device ${addr} is offline`);
    await this.radio.acquire('unicast');
    return device;
  }

  private bridges(): Bridge[] {
    return [...this.devices.values()]
      .filter((d) => d.state.kind === 'bridge' || d.state.kind === 'bridge-wisun')
      .map((b) => ({
        addr: b.state.addr,
        name: `${b.state.kind === 'bridge-wisun' ? 'Wi-SUN bridge' : 'Bridge'} ${b.state.addr.slice(-4)}`,
        kind: b.state.kind as Bridge['kind'],
        online: b.state.online,
        deviceCount: [...this.devices.values()].filter((d) => d.bridge === b.state.addr).length,
      }));
  }

  /**
   * Sends an action to devices one unicast at a time, at the radio's rate (devices.control). Every drain
   * joins one queue per gateway, so frames never overtake each other and none is dropped; each device is
   * reported as it changes, which is the progress the cloud sees.
   */
  private drain(devices: SimDevice[], action: LightAction): void {
    this.draining = this.draining.then(async () => {
      for (const device of devices) {
        if (this.stopped) return;
        await this.radio.acquire('unicast');
        if (!device.state.online) continue;
        const acted = applyAction(device, action);
        const overridden = this.setManual(device);
        if (acted || overridden) this.publishReport([device], false);
      }
    });
  }

  /** Unicasts still waiting for the radio (devices.control); resolves when the queue is empty. */
  drained(): Promise<void> {
    return this.draining;
  }

  /** Applies an action to the online devices of a device or group target; answers those whose report changed. */
  private applyTo(target: Target, action: LightAction, rule: OverrideRule): SimDevice[] {
    const changed: SimDevice[] = [];
    for (const addr of targetAddrs(target, this.config)) {
      const device = this.devices.get(addr);
      if (!device?.state.online || (rule === 'respect' && device.state.manual)) continue;
      const acted = applyAction(device, action);
      const overridden = rule === 'set' ? this.setManual(device) : rule === 'clear' ? clearManual(device) : false;
      if (acted || overridden) changed.push(device);
    }
    return changed;
  }

  /** A person switched the device: linkage leaves it alone for overrideMin (or until handed back). */
  private setManual(device: SimDevice): boolean {
    return setManual(device, this.clock.now(), this.config.overrideMin);
  }

  // --- restart and firmware -------------------------------------------------------------------

  private between(range: { min: number; max: number }): number {
    return range.min + this.random() * (range.max - range.min);
  }

  private async restart(reason: 'restart' | 'update', downtimeMs = this.between(this.options.restartMs ?? { min: 60_000, max: 120_000 })) {
    await this.disconnect(reason);
    await this.clock.sleep(downtimeMs);
    // Runs detached from any caller: a broker that refuses the gateway now (password revoked) is logged.
    if (!this.stopped) await this.connect().catch((error: Error) => this.log(error.message));
  }

  private async runUpdate(id: string, target: (typeof FIRMWARE_TARGETS)[number], version: string) {
    const total = this.between(this.options.firmwareMs ?? { min: 10 * 60_000, max: 20 * 60_000 });
    const event = (
      stage: Extract<EventMessage, { type: 'firmware' }>['stage'],
      progress: number,
      extra: { result?: 1 | 2; version?: string; message?: string } = {},
    ) => this.publish('event', { type: 'firmware', ts: this.clock.now(), update: id, target, stage, progress, ...extra });
    const step = total / 10;
    try {
      for (let p = 0; p <= 60; p += 10) {
        if (this.stopped) return;
        event('downloading', p);
        if (this.faults.hangUpdates && p >= 30) return;
        await this.clock.sleep(step * 0.6);
      }
      for (let p = 70; p <= 90; p += 10) {
        if (this.stopped) return;
        if (this.faults.failUpdates && p === 80) {
          event('installing', p, { result: FIRMWARE_RESULT.failure, message: 'image verification failed' });
          return;
        }
        event('installing', p);
        await this.clock.sleep(step);
      }
      event('rebooting', 95);
      await this.restart('update', step);
      this.versions = { ...this.versions, [target]: version };
      this.publish('state', { state: 'online', info: this.info(), ts: this.clock.now() }, true);
      event('done', 100, { result: FIRMWARE_RESULT.success, version });
    } finally {
      this.updating = undefined;
    }
  }

  // --- devices and background activity ---------------------------------------------------------

  private addDevice(kind: DeviceKind, bridge?: string): SimDevice {
    const index = this.nextIndex++;
    // A DALI device takes the next free short address on its bridge's bus.
    const daliAddress = kind === 'dali' && bridge ? this.freeDaliAddress(bridge) : undefined;
    const device = createDevice(deviceAddr(this.mac, index), kind, index, this.clock.now(), bridge, daliAddress);
    this.devices.set(device.state.addr, device);
    return device;
  }

  private freeDaliAddress(bridge: string): number {
    const taken = new Set([...this.devices.values()].filter((d) => d.bridge === bridge).map((d) => d.daliAddress));
    for (let short = DALI_LIMITS.shortAddress.min; short <= DALI_LIMITS.shortAddress.max; short++) if (!taken.has(short)) return short;
    throw new Error(`the DALI bus of ${bridge} is full (64 addresses)`);
  }

  /**
   * A DALI bridge of the gateway with a free short address, for a DALI device to join; a new bridge when every bus
   * holds its 64 devices, as an installer adds one.
   */
  private daliBridge(): SimDevice {
    const used = new Map<string, number>();
    for (const d of this.devices.values()) if (d.bridge && d.daliAddress !== undefined) used.set(d.bridge, (used.get(d.bridge) ?? 0) + 1);
    const busSize = DALI_LIMITS.shortAddress.max - DALI_LIMITS.shortAddress.min + 1;
    const withRoom = [...this.devices.values()].find((d) => d.state.kind === 'bridge-dali' && (used.get(d.state.addr) ?? 0) < busSize);
    return withRoom ?? this.addDevice('bridge-dali');
  }

  /**
   * DALI devices join a DALI bridge's bus (docs/protocol.md, "DALI"); every other kind joins the gateway's
   * radio, or on a super gateway one of its bridges in turn.
   */
  private populate(perKind: number) {
    const bridges = this.superGateway ? [this.addDevice('bridge'), this.addDevice('bridge-wisun')] : [];
    let i = 0;
    const add = (kind: DeviceKind) => {
      if (kind === 'dali') this.addDevice(kind, this.daliBridge().state.addr);
      else if (this.superGateway) this.addDevice(kind, bridges[i++ % bridges.length]!.state.addr);
      else this.addDevice(kind);
    };
    for (let n = 0; n < perKind; n++) {
      for (const kind of SIMULATED_KINDS) {
        if (this.superGateway && (kind === 'bridge' || kind === 'bridge-wisun')) continue;
        add(kind);
      }
    }
    for (const kind of this.options.extraDevices ?? []) add(kind);
  }

  /** Sends every metered device's power, voltage, current and counter now (tests, demos), without advancing the counters. */
  reportTelemetry(): void {
    this.publishTelemetry(0);
  }

  private publishTelemetry(intervalH: number) {
    const resetRate = this.options.counterResetRate ?? DEFAULT_COUNTER_RESET_RATE;
    const samples: TelemetrySample[] = [];
    for (const device of this.devices.values()) {
      if (!device.state.online) continue;
      if (isMetered(device.state.kind)) {
        const power = powerW(device);
        advanceCounter(device, power, intervalH, resetRate, this.random);
        samples.push(meterSample(device, power));
      } else {
        // Sensors report what they measure: lux (daylight, motion), battery, temperature.
        const { lux, battery, temperature } = device.state as { lux?: number; battery?: number; temperature?: number };
        const sample: TelemetrySample = { addr: device.state.addr };
        if (typeof lux === 'number') sample.lux = lux;
        if (typeof battery === 'number') sample.battery = battery;
        if (typeof temperature === 'number') sample.temperature = temperature;
        if (Object.keys(sample).length > 1) samples.push(sample);
      }
    }
    for (let i = 0; i < samples.length; i += BATCH)
      this.publish('telemetry', { ts: this.clock.now(), samples: samples.slice(i, i + BATCH) });
  }

  /** Publishes telemetry every reportIntervalS of the gateway's clock; devices draw power in between. */
  private scheduleTelemetry() {
    this.clock.clear(this.telemetryTimer);
    const intervalS = this.params.reportIntervalS ?? 60;
    this.telemetryTimer = this.clock.every(intervalS * 1000, () => {
      if (!this.telemetryHeld && !this.backfilling) this.publishTelemetry(intervalS / 3600);
    });
  }

  /** Lets live telemetry go out after holdTelemetry. */
  releaseTelemetry(): void {
    this.telemetryHeld = false;
  }

  /**
   * Fills the server's energy history: a sample of every metered device every `stepMinutes` from `days` back
   * to now, played from an office's daily pattern in the gateway's time zone (officeUsage), sent as
   * up/telemetry with its past time, a window of messages at a time and at most `samplesPerSecond`. The
   * devices' live state is left alone; their counters go on from where the history ends. Live telemetry
   * waits meanwhile. Run it before any live telemetry of these devices reached the server (holdTelemetry):
   * the server counts no sample older than a device's last reading.
   */
  async backfillEnergy(options: EnergyBackfillOptions): Promise<EnergyBackfill> {
    const client = this.client;
    if (!client) throw new Error(`gateway ${this.mac} is not connected`);
    if (this.backfilling) throw new Error(`gateway ${this.mac} is already backfilling`);
    const { from, until, stepMs } = backfillTimes(options, this.clock.now());
    const timeZone = this.params.timezone ?? 'UTC';
    const resetRate = this.options.counterResetRate ?? DEFAULT_COUNTER_RESET_RATE;
    const pace = options.samplesPerSecond ?? BACKFILL_SAMPLES_PER_SECOND;
    const played = [...this.devices.values()]
      .filter((d) => isMetered(d.state.kind))
      .map((live) => ({ live, device: { ...live, state: { ...live.state, online: true } } }));
    const outcome: EnergyBackfill = { from, until, samples: 0, messages: 0, resets: 0, days: [] };
    const days = new Map<string, BackfilledDay>();
    const drawn = new Map<SimDevice, number>();
    const inFlight = new Set<Promise<void>>();
    const stepH = stepMs / HOUR_MS;
    let failure: Error | undefined;
    const startedAt = Date.now();
    const send = async (samples: TelemetrySample[], ts: number) => {
      const sent = client.publishAsync(upTopic(this.mac, 'telemetry'), encodeUp('telemetry', { ts, samples }), { qos: 1 });
      const settled: Promise<void> = sent.then(
        () => void inFlight.delete(settled),
        (error: Error) => {
          failure ??= error;
          inFlight.delete(settled);
        },
      );
      inFlight.add(settled);
      outcome.messages++;
      outcome.samples += samples.length;
      if (inFlight.size >= BACKFILL_WINDOW) await Promise.race(inFlight);
      const due = startedAt + (outcome.samples / pace) * 1000;
      if (due > Date.now()) await new Promise((wake) => setTimeout(wake, due - Date.now()));
    };

    this.backfilling = true;
    try {
      let previousDate = '';
      for (let at = from; at <= until; at += stepMs) {
        if (failure) throw failure;
        if (this.stopped || this.client !== client) throw new Error(`gateway ${this.mac} went offline during the backfill`);
        const local = localTimeOf(at, timeZone);
        const samples: TelemetrySample[] = [];
        for (const { device } of played) {
          const power = drawn.get(device);
          if (power !== undefined) {
            if (advanceCounter(device, power, stepH, resetRate, this.random)) outcome.resets++;
            const day = days.get(previousDate) ?? { date: previousDate, energyWh: 0, savedWh: 0, onS: 0 };
            day.energyWh += power * stepH;
            if (power > STANDBY_POWER_W) {
              day.onS += stepMs / 1000;
              day.savedWh += Math.max(0, ((RATED_POWER_W[device.state.kind] ?? 0) - power) * stepH);
            }
            days.set(previousDate, day);
          }
          Object.assign(device.state, officeUsage(device, local));
          drawn.set(device, powerW(device));
          samples.push(meterSample(device, drawn.get(device)!));
        }
        previousDate = local.date;
        for (let i = 0; i < samples.length; i += BATCH) await send(samples.slice(i, i + BATCH), at);
      }
      await Promise.all(inFlight);
      if (failure) throw failure;
    } finally {
      this.backfilling = false;
      // Live telemetry was held, so the live counters took nothing meanwhile: they go on from the history.
      for (const { live, device } of played) live.energyWh = device.energyWh;
    }
    outcome.days = [...days.values()];
    return outcome;
  }

  /**
   * Fills the server's occupancy history: every motion sensor's working day (occupancyProfiles; `office` for
   * the others) from `days` back to now, sent as up/event `sensor` messages with their past times. Answers
   * every event sent, so a test can hold the server's counts to it.
   */
  async backfillOccupancy(options: OccupancyBackfillOptions): Promise<OccupancyBackfill> {
    const client = this.client;
    if (!client) throw new Error(`gateway ${this.mac} is not connected`);
    const until = options.until ?? this.clock.now();
    const from = until - options.days * 24 * HOUR_MS;
    const sensors = [...this.devices.values()]
      .filter((d) => d.state.kind === 'sensor-motion')
      .map((d) => ({ addr: d.state.addr, profile: this.occupancyProfiles.get(d.state.addr) ?? ('office' as const) }));
    const events = planOccupancy({ sensors, from, until, timeZone: this.params.timezone ?? 'UTC', seed: this.mac });
    await sendOccupancy({
      client,
      mac: this.mac,
      events,
      eventsPerSecond: options.eventsPerSecond,
      alive: () => !this.stopped && this.client === client,
    });
    return { from, until, events };
  }

  /** Chance that a motion sensor sees someone in one activity interval: its room's working day, or 30 %. */
  private motionChance(addr: string, intervalS: number): number {
    const profile = this.occupancyProfiles.get(addr);
    if (!profile) return 0.3;
    return occupancyChanceOver(profile, localTimeOf(this.clock.now(), this.params.timezone ?? 'UTC'), intervalS, `${this.mac}|${addr}`);
  }

  /** The linkages a sensor drives: none unless the gateway's sensors are in linkage mode (independent is the default). */
  private linkagesOf(addr: string): GatewayConfig['linkages'] {
    return this.params.sensorMode === 'linkage' ? this.config.linkages.filter((l) => l.sensor === addr) : [];
  }

  /**
   * Someone moves in front of a motion sensor: it reports occupied and drives its linkage (not above the
   * linkage's daylight threshold), then clears the hold time after the last detection and drives it again.
   * Answers false for an address that is no online motion sensor.
   */
  detectMotion(addr: string): boolean {
    const sensor = this.devices.get(addr);
    if (!sensor || sensor.state.kind !== 'sensor-motion' || !sensor.state.online) return false;
    this.clock.clear(this.motionHolds.get(addr));
    const holdS = this.linkagesOf(addr)[0]?.holdS ?? this.microwave.holdS ?? 60;
    this.motionHolds.set(
      addr,
      this.clock.after(holdS * 1000, () => {
        this.motionHolds.delete(addr);
        this.setOccupied(sensor, false);
      }),
    );
    if (!sensor.state.occupied) this.setOccupied(sensor, true);
    return true;
  }

  private setOccupied(sensor: SimDevice, occupied: boolean) {
    sensor.state.occupied = occupied;
    this.publish('event', { type: 'sensor', ts: this.clock.now(), addr: sensor.state.addr, sensor: 'motion', value: occupied ? 1 : 0 });
    const changed = [sensor];
    for (const link of this.linkagesOf(sensor.state.addr)) {
      const bright = link.luxAbove !== undefined && (sensor.state.lux ?? 0) > link.luxAbove;
      if (occupied && bright) continue;
      for (const target of link.targets) changed.push(...this.applyTo(target, occupied ? link.onDetect : link.onClear, 'respect'));
    }
    this.publishReport(changed, false);
  }

  /** A daylight sensor's linkage: its group takes the detect level below the target lux and the clear level above it. */
  private followDaylight(sensor: SimDevice) {
    if (!sensor.state.online) return;
    const changed: SimDevice[] = [];
    for (const link of this.linkagesOf(sensor.state.addr)) {
      if (link.luxAbove === undefined) continue;
      const dark = (sensor.state.lux ?? 0) < link.luxAbove;
      for (const target of link.targets) changed.push(...this.applyTo(target, dark ? link.onDetect : link.onClear, 'respect'));
    }
    if (changed.length) this.publishReport(changed, false);
  }

  /** Background life: motion that comes and goes, linkage (telemetry runs on its own timer). */
  private tick() {
    this.releaseExpiredOverrides();
    // Sensors drive linkage whether or not the cloud is reachable.
    for (const sensor of this.devices.values()) {
      if (sensor.state.kind === 'sensor-daylight') this.followDaylight(sensor);
      if (sensor.state.kind !== 'sensor-motion' || !sensor.state.online || sensor.sensing === false) continue;
      if (this.random() > this.motionChance(sensor.state.addr, this.options.activityIntervalS ?? 60)) continue;
      this.detectMotion(sensor.state.addr);
    }
    const faultRate = this.options.faultRate ?? 0.002;
    const clearRate = this.options.faultClearRate ?? 0;
    for (const device of this.devices.values()) {
      const { addr, kind } = device.state;
      if (this.faults.flapping.has(addr)) {
        if (device.state.online) this.raiseFault(addr, FAULT_CODES.offline);
        else this.clearFault(addr);
      } else if (device.state.fault !== 0) {
        // Only a rate above 0 draws, so a gateway without flapping takes nothing from a seeded random sequence.
        if (clearRate > 0 && this.backgroundFaults.has(addr) && this.random() < clearRate) this.clearFault(addr);
      } else if (this.random() < faultRate) {
        // Offline as often as any fault of the device's own, as in the field.
        const codes = [FAULT_CODES.offline, ...faultCodesOf(kind)];
        this.raiseFault(addr, codes[Math.floor(this.random() * codes.length)]!);
        this.backgroundFaults.add(addr);
      }
    }
  }
}

/** The id of a command whose payload did not decode, so the gateway can still say why. */
function idOf(payload: Buffer): string | undefined {
  try {
    const value = JSON.parse(payload.toString('utf8')) as { id?: unknown };
    return typeof value.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.id) ? value.id : undefined;
  } catch {
    return undefined;
  }
}
