import { parentPort, workerData } from 'node:worker_threads';
import { SimGateway } from '@lumigrid/gateway-sim';
import { seededRandom } from '@lumigrid/protocol';
import { afterOneMinute } from './change-model.ts';

/** What the benchmark hands the worker: where the broker is and which gateways to play. */
export interface FleetWorkerData {
  url: string;
  gateways: Array<{ mac: string; password: string }>;
  devicesPerKind: number;
  /** Waits between reconnect attempts: the simulator's jittered back-off unless a fixed period is given (a baseline). */
  reconnectFixedMs?: number;
  /** Before each paced report the devices' states change as bench/change-model.ts says (seeded); unset: never. */
  changeSeed?: number;
}

/** Commands from the benchmark. */
export type FleetCommand =
  | { cmd: 'start' }
  | { cmd: 'paced'; ratePerS: number; durationMs: number }
  | { cmd: 'flood'; messagesPerGateway: number }
  | { cmd: 'stop' };

/** Answers to the benchmark. */
export type FleetReply =
  | { reply: 'started'; devices: number; failed: string[] }
  | { reply: 'published'; messages: number; rows: number; startedAt: number; endedAt: number }
  | { reply: 'stopped' };

// The simulated gateways run in their own thread, so building and sending reports does not take CPU from
// the server's event loop (broker, link, writer and, with PGlite, the database) being measured.
const data = workerData as FleetWorkerData;
const port = parentPort!;
const gateways = data.gateways.map(
  (g) =>
    new SimGateway({
      mac: g.mac,
      password: g.password,
      url: data.url,
      devicesPerKind: data.devicesPerKind,
      activityIntervalS: 0,
      faultRate: 0,
      radio: { unicastPerSecond: 0, groupPerSecond: 0 },
      ...(data.reconnectFixedMs ? { reconnect: { initialMs: data.reconnectFixedMs, maxMs: data.reconnectFixedMs, random: () => 1 } } : {}),
    }),
);
const send = (reply: FleetReply) => port.postMessage(reply);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Every gateway reports all its devices on its own schedule, spread evenly, for the duration. */
async function paced(ratePerS: number, durationMs: number) {
  const devices = gateways[0]!.devices.size;
  // Messages per second over all gateways, then each gateway's period; offsets stagger them.
  const periodMs = (gateways.length * devices * 1000) / ratePerS;
  const startedAt = Date.now();
  const random = data.changeSeed === undefined ? undefined : seededRandom(data.changeSeed);
  const scale = periodMs / 60_000;
  let messages = 0;
  await Promise.all(
    gateways.map(async (g, i) => {
      for (let k = 0; ; k++) {
        const at = startedAt + (i / gateways.length) * periodMs + k * periodMs;
        if (at - startedAt >= durationMs) return;
        const wait = at - Date.now();
        if (wait > 0) await sleep(wait);
        if (random) for (const device of g.devices.values()) device.state = afterOneMinute(device.state, random, scale);
        g.reportAll();
        messages++;
      }
    }),
  );
  send({ reply: 'published', messages, rows: messages * devices, startedAt, endedAt: Date.now() });
}

/** Every gateway reports all its devices as fast as it can, a fixed number of times. */
async function flood(messagesPerGateway: number) {
  const devices = gateways[0]!.devices.size;
  const startedAt = Date.now();
  let messages = 0;
  for (let k = 0; k < messagesPerGateway; k++) {
    for (const g of gateways) {
      g.reportAll();
      messages++;
    }
    // Lets mqtt.js write to its sockets between rounds; the gateways' clocks then differ per round.
    await new Promise((resolve) => setImmediate(resolve));
    await sleep(1);
  }
  send({ reply: 'published', messages, rows: messages * devices, startedAt, endedAt: Date.now() });
}

port.on('message', (command: FleetCommand) => {
  switch (command.cmd) {
    case 'start':
      void Promise.allSettled(gateways.map((g) => g.start())).then((results) =>
        send({
          reply: 'started',
          devices: gateways[0]?.devices.size ?? 0,
          failed: results.flatMap((r, i) => (r.status === 'rejected' ? [gateways[i]!.mac] : [])),
        }),
      );
      break;
    case 'paced':
      void paced(command.ratePerS, command.durationMs);
      break;
    case 'flood':
      void flood(command.messagesPerGateway);
      break;
    case 'stop':
      void Promise.allSettled(gateways.map((g) => g.stop())).then(() => send({ reply: 'stopped' }));
      break;
  }
});
