/**
 * Command to device through the Zigbee2MQTT bridge against the simulated gateway, in one process and run: the
 * server's command bus sends `device.control` (on/off, alternating) at a steady rate to a dimmable light of
 * each; the figure runs from the call to the moment the device side has it: the Zigbee2MQTT stand-in receiving
 * the `/set` payload, or the simulated gateway receiving the command. "answered" is the bus's reply. See
 * bench/README.md ("Zigbee2MQTT bridge").
 */
import { createServer, type AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { CommandMessage } from '@lumigrid/protocol';
import { Z2mBridge, Z2mStandIn, type ReceivedSet } from '@lumigrid/z2m-bridge';
import { Aedes } from 'aedes';
import { quantile, sleep, startDeviceSite } from './devices-site.ts';
import { watchLoopDelay } from './loop-delay.ts';

const { values: args } = parseArgs({
  options: { rate: { type: 'string', default: '50' }, duration: { type: 'string', default: '20' } },
});
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const BRIDGE_MAC = 'BE0D5E2B0001';

/** Send instants in order, matched first in first out with what the device side received (one connection keeps order). */
class Timeline {
  readonly sent: number[] = [];
  readonly reached: number[] = [];
  readonly answered: number[] = [];
  private next = 0;
  receive(at: number) {
    const sentAt = this.sent[this.next++];
    if (sentAt !== undefined) this.reached.push(at - sentAt);
  }
  figures() {
    const lost = this.sent.length - this.reached.length;
    return {
      sent: this.sent.length,
      lost,
      'device p50': quantile(this.reached, 0.5),
      'device p99': quantile(this.reached, 0.99),
      'answered p50': quantile(this.answered, 0.5),
      'answered p99': quantile(this.answered, 0.99),
    };
  }
}

const site = await startDeviceSite({ gateways: 1, devicesPerKind: 1, place: false });
const zigbeeBroker = await Aedes.createBroker();
const zigbeeServer = createServer(zigbeeBroker.handle);
await new Promise<void>((resolve) => zigbeeServer.listen(0, '127.0.0.1', resolve));
const z2mUrl = `mqtt://127.0.0.1:${(zigbeeServer.address() as AddressInfo).port}`;
const standIn = new Z2mStandIn({ url: z2mUrl });
await standIn.start();
await site.app.gatewayFleet.provision(BRIDGE_MAC, `bench-${BRIDGE_MAC}`);
const bridge = new Z2mBridge({
  mac: BRIDGE_MAC,
  password: `bench-${BRIDGE_MAC}`,
  url: `mqtt://127.0.0.1:${site.app.gatewayLink!.brokerPort}`,
  z2mUrl,
});
await bridge.start();
for (let i = 0; i < 400 && !site.app.gatewayLink!.presence.isOnline(BRIDGE_MAC); i++) await sleep(25);
try {
  const sim = site.fleet.gateways[0]!;
  const simLight = [...sim.devices.values()].find((d) => d.state.kind === 'light-dimmer')!.state.addr;
  const bridgedLight = [...bridge.devices.values()].find((d) => d.mapped.friendlyName === 'Desk strip')!.mapped.addr;
  const viaSim = new Timeline();
  const viaBridge = new Timeline();
  sim.on('command', (command: CommandMessage) => {
    if (command.name === 'device.control') viaSim.receive(performance.now());
  });
  standIn.on('set', (set: ReceivedSet) => {
    if (set.target === 'Desk strip') viaBridge.receive(set.at);
  });
  const bus = site.app.gatewayLink!.bus;
  const fire = (timeline: Timeline, mac: string, addr: string, on: boolean) => {
    const t0 = performance.now();
    timeline.sent.push(t0);
    void bus
      .call(mac, 'device.control', { addr, action: { on } })
      .then(() => timeline.answered.push(performance.now() - t0))
      .catch(() => undefined);
  };
  const loop = watchLoopDelay();
  const total = RATE * DURATION_S;
  const start = performance.now();
  // Interleaved, so both paths share the same moment's load.
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    if (i % 2 === 0) fire(viaSim, sim.mac, simLight, i % 4 === 0);
    else fire(viaBridge, BRIDGE_MAC, bridgedLight, i % 4 === 1);
  }
  for (let i = 0; i < 200 && viaSim.answered.length + viaBridge.answered.length < total; i++) await sleep(25);
  const rows = { 'simulated gateway': viaSim.figures(), 'Zigbee2MQTT bridge': viaBridge.figures() };
  console.log(`device.control at ${RATE}/s for ${DURATION_S} s, half to each (ms)`);
  console.table(rows);
  console.log(`event loop delay p99 ${loop.stop().p99.toFixed(1)} ms`);
  process.exitCode = Object.values(rows).some((r) => r.lost > 0) ? 1 : 0;
} finally {
  await bridge.stop();
  await standIn.stop();
  await new Promise<void>((resolve) => zigbeeBroker.close(() => resolve()));
  await new Promise<void>((resolve) => zigbeeServer.close(() => resolve()));
  await site.close();
}
// The brokers' and clients' handles would keep the process alive.
process.exit();
