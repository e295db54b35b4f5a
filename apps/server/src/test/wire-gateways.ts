// Simulated gateways for a fault run (wire-faults.ts, cluster-faults.ts), started as `tsx wire-gateways.ts '<json
// options>'`, inside a network namespace with `ip netns exec <ns>` when their link is faulty. What the run needs to know of them it prints, one
// JSON object a line: each gateway online, each connection lost, each device state the broker acknowledged
// (PUBACK) in a change report. On standard input, "quiet" stops the changes and answers "drained" once every
// queue is empty; "stop" prints the commands each gateway carried out and its devices' states, and ends.
import { createInterface } from 'node:readline';
import { derivePassword } from '@lumigrid/protocol/credentials';
import { createFleet, NO_RADIO_LIMITS, type SimGateway } from '@lumigrid/gateway-sim';
import { FAULT_CODES, type StoredUplink } from '@lumigrid/protocol';

/** What the fault run hands each group of gateways. */
export interface WireGatewayOptions {
  /** The broker, or its nodes comma-separated (tried in turn). */
  url: string;
  macPrefix: string;
  first: number;
  count: number;
  secret: string;
  /** How often each gateway changes a device (a fault raised or cleared), which makes a change report (ms). */
  changeEveryMs: number;
}

/** One line of the gateways' output. */
export type WireGatewayLine =
  | { t: 'online'; mac: string }
  | { t: 'lost'; mac: string }
  | { t: 'report'; mac: string; addr: string; ts: number }
  | {
      t: 'final';
      mac: string;
      /** Times each command id was carried out, with the command's name and parameters. */
      executions: Record<string, { name: string; params: unknown; count: number }>;
      states: Record<string, unknown>;
      waiting: number;
    }
  | { t: 'drained' }
  | { t: 'stopped' };

const print = (line: WireGatewayLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const options = JSON.parse(process.argv[2] ?? '') as WireGatewayOptions;
  const fleet = createFleet({
    url: options.url,
    count: options.count,
    macPrefix: options.macPrefix,
    first: options.first,
    password: (mac) => derivePassword(options.secret, mac),
    radio: NO_RADIO_LIMITS,
    activityIntervalS: 0,
    // Keep-alive as the protocol recommends its lower bound: a dead link is noticed, a lossy one is not dead.
    keepaliveS: 30,
  });
  const changers: NodeJS.Timeout[] = [];
  const commands = new Map<string, { name: string; params: unknown }>();
  for (const gateway of fleet.gateways) {
    gateway.on('command', (command: { id: string; name: string; params: unknown }) =>
      commands.set(command.id, { name: command.name, params: command.params }),
    );
    gateway.on('online', () => print({ t: 'online', mac: gateway.mac }));
    gateway.on('connection-lost', () => print({ t: 'lost', mac: gateway.mac }));
    gateway.on('delivered', (message: StoredUplink) => {
      if (!message.topic.endsWith('/up/report')) return;
      const report = JSON.parse(message.payload) as { ts: number; full: boolean; devices: Array<{ addr: string }> };
      if (report.full) return;
      for (const device of report.devices) print({ t: 'report', mac: gateway.mac, addr: device.addr, ts: report.ts });
    });
  }
  const failed = await fleet.start();
  for (const f of failed) console.error(`${f.mac}: ${f.error.message}`);
  for (const gateway of fleet.gateways) changers.push(changeSteadily(gateway, options.changeEveryMs));

  const quiet = () => {
    for (const timer of changers) clearInterval(timer);
    const drained = setInterval(() => {
      if (fleet.gateways.some((gateway) => gateway.uplinkWaiting > 0)) return;
      clearInterval(drained);
      print({ t: 'drained' });
    }, 100);
  };
  const stop = async () => {
    for (const timer of changers) clearInterval(timer);
    for (const gateway of fleet.gateways) {
      print({
        t: 'final',
        mac: gateway.mac,
        executions: Object.fromEntries(
          [...gateway.executions].map(([id, count]) => [
            id,
            { name: commands.get(id)?.name ?? '', params: commands.get(id)?.params, count },
          ]),
        ),
        states: Object.fromEntries([...gateway.devices].map(([addr, device]) => [addr, device.state])),
        waiting: gateway.uplinkWaiting,
      });
    }
    await fleet.stop();
    print({ t: 'stopped' });
    process.exit(0);
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'quiet') quiet();
    if (line.trim() === 'stop') void stop();
  });
  process.on('SIGTERM', () => void stop());
}

/** Raises and clears a fault on the gateway's first light in turn, so every change report differs from the last. */
function changeSteadily(gateway: SimGateway, everyMs: number): NodeJS.Timeout {
  const light = [...gateway.devices.values()].find((d) => d.state.kind.startsWith('light'))!.state.addr;
  return setInterval(() => {
    if (gateway.devices.get(light)!.state.fault === 0) gateway.raiseFault(light, FAULT_CODES.power);
    else gateway.clearFault(light);
  }, everyMs);
}

void main();
