#!/usr/bin/env -S npx tsx
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { EMERGENCY_FAILURES } from '@lumigrid/protocol';
import { derivePassword } from '@lumigrid/protocol/credentials';
import { CONSOLE_HELP, runConsoleCommand } from './console-commands.ts';
import { createFleet } from './fleet.ts';
import { DEFAULT_RADIO_LIMITS, NO_RADIO_LIMITS } from './radio.ts';
import { gatewayQrLabel } from './qr.ts';
import { nonNegativeOption } from './cli-args.ts';

const HELP = `lumigrid-gateway-sim: simulated gateways speaking the Lumigrid gateway protocol

  --url URL            broker (default $SIM_MQTT_URL or mqtt://127.0.0.1:1883); a clustered broker's MQTT
                       listeners comma-separated, tried in turn on each reconnect
  --count N            gateways (default 3)
  --super N            how many of them are super gateways (default 1)
  --prefix HEX6        MAC prefix (default A4C138); MACs are prefix + number
  --first N            number of the first gateway (default 1)
  --password P         one password for every gateway, or
  --secret S           derive each password from S (default $SIM_SECRET or "lumigrid-demo")
  --time-factor F      simulated time runs F times faster (default 1)
  --emergency-factor E emergency tests and battery charging run E times faster again (default 1)
  --emergency-failure-rate P
                       chance per emergency test of each failure: battery, lamp, circuit, communication (default 0)
  --devices N          devices of each family per gateway (default 1)
  --radio U,G          unicasts/s and group commands/s per network (default 10,1; 0 = no limit)
  --activity S         simulated seconds between telemetry and sensor activity (default 60; 0 = off)
  --fault-rate P       chance per device and activity interval that a fault appears (default 0.002)
  --fault-clear-rate P flapping: chance per activity interval that a fault the activity raised clears by itself
                       (default 0: faults stay until cleared with "clear", or for emergency lights a passing test)
  --reset-rate R       energy counter resets per device and simulated day (default 0.01)
  --backfill-days N    first send N days of energy history, then live telemetry (default 0: none)
  --backfill-step M    minutes between history samples (default 15)
  --keepalive S        MQTT keep-alive in seconds (default 60)
  --uplink-limit N     up messages kept while the broker or the cloud is away (default 1000; oldest dropped)
  --qr                 print each gateway's QR code (docs/protocol.md section 8) to bind it by scanning
  --quiet              do not log protocol details

While it runs, faults are raised and cleared on demand by commands on standard input (type help).
`;

const number = (value: string | undefined, fallback: number, name: string) =>
  nonNegativeOption('lumigrid-gateway-sim', name, value, fallback);

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      count: { type: 'string' },
      super: { type: 'string' },
      prefix: { type: 'string' },
      first: { type: 'string' },
      password: { type: 'string' },
      secret: { type: 'string' },
      'time-factor': { type: 'string' },
      'emergency-factor': { type: 'string' },
      'emergency-failure-rate': { type: 'string' },
      devices: { type: 'string' },
      radio: { type: 'string' },
      activity: { type: 'string' },
      'fault-rate': { type: 'string' },
      'fault-clear-rate': { type: 'string' },
      'reset-rate': { type: 'string' },
      'backfill-days': { type: 'string' },
      'backfill-step': { type: 'string' },
      keepalive: { type: 'string' },
      'uplink-limit': { type: 'string' },
      qr: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const url = values.url ?? process.env.SIM_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
  const secret = values.secret ?? process.env.SIM_SECRET ?? 'lumigrid-demo';
  const [unicast, group] = (values.radio ?? `${DEFAULT_RADIO_LIMITS.unicastPerSecond},${DEFAULT_RADIO_LIMITS.groupPerSecond}`).split(',');
  const radio =
    values.radio === '0' ? NO_RADIO_LIMITS : { unicastPerSecond: number(unicast, 10, 'radio'), groupPerSecond: number(group, 1, 'radio') };
  const backfillDays = number(values['backfill-days'], 0, 'backfill-days');
  const backfillStep = number(values['backfill-step'], 15, 'backfill-step');
  const fleet = createFleet({
    url,
    count: number(values.count, 3, 'count'),
    superGateways: number(values.super, 1, 'super'),
    macPrefix: values.prefix ?? 'A4C138',
    first: number(values.first, 1, 'first'),
    password: values.password ?? ((mac) => derivePassword(secret, mac)),
    timeFactor: number(values['time-factor'], 1, 'time-factor') || 1,
    emergencyTimeFactor: number(values['emergency-factor'], 1, 'emergency-factor') || 1,
    emergencyFailureRates: Object.fromEntries(
      EMERGENCY_FAILURES.map((kind) => [kind, Math.min(1, number(values['emergency-failure-rate'], 0, 'emergency-failure-rate'))]),
    ),
    devicesPerKind: number(values.devices, 1, 'devices'),
    activityIntervalS: number(values.activity, 60, 'activity'),
    faultRate: number(values['fault-rate'], 0.002, 'fault-rate'),
    faultClearRate: Math.min(1, number(values['fault-clear-rate'], 0, 'fault-clear-rate')),
    counterResetRate: number(values['reset-rate'], 0.01, 'reset-rate'),
    holdTelemetry: backfillDays > 0,
    keepaliveS: number(values.keepalive, 60, 'keepalive') || 60,
    uplinkLimit: number(values['uplink-limit'], 1000, 'uplink-limit') || 1000,
    radio,
    log: values.quiet ? undefined : (line) => console.log(line),
  });
  for (const g of fleet.gateways) {
    console.log(`${g.mac}${g.superGateway ? ' (super gateway)' : ''}: ${g.devices.size} devices`);
    if (values.qr) console.log(gatewayQrLabel(g.mac));
    g.on('online', () => console.log(`${g.mac} online`));
    g.on('offline', () => console.log(`${g.mac} offline`));
    if (!values.quiet) g.on('command', (c: { id: string; name: string }) => console.log(`${g.mac} <- ${c.name} ${c.id}`));
  }
  const failed = await fleet.start();
  for (const f of failed) console.error(`${f.mac}: ${f.error.message}`);
  if (failed.length === fleet.gateways.length) {
    console.error(`lumigrid-gateway-sim: no gateway could connect to ${url}`);
    process.exit(1);
  }
  if (backfillDays > 0) {
    console.log(await runConsoleCommand(fleet, `backfill all ${backfillDays} ${backfillStep}`));
    for (const g of fleet.gateways) g.releaseTelemetry();
  }
  const stop = async () => {
    await fleet.stop();
    process.exit(0);
  };
  // Faults on demand: one command a line on standard input.
  console.log(CONSOLE_HELP);
  createInterface({ input: process.stdin }).on('line', (line) => {
    void Promise.resolve(runConsoleCommand(fleet, line)).then((answer) => answer && console.log(answer));
  });
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
