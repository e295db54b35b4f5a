import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { poll } from './poll.ts';

/** Faults on a link in the terms of `tc netem`: each direction of each packet, on its own. */
export interface LinkFaults {
  /** Added to every packet that is not sent ahead (ms). */
  delayMs: number;
  /** The delay varies uniformly by up to this much either way (ms), which reorders packets as well. */
  jitterMs: number;
  /** Packets dropped, percent. */
  lossPercent: number;
  /** Packets sent at once, ahead of those delayed before them, percent. */
  reorderPercent: number;
  /** How much each reorder decision follows the one before, percent (netem's correlation). */
  reorderCorrelationPercent: number;
}

/** The faults of the fault run: `tc qdisc add ... netem delay 200ms 50ms loss 5% reorder 25% 50%`. */
export const WIRE_FAULTS: LinkFaults = {
  delayMs: 200,
  jitterMs: 50,
  lossPercent: 5,
  reorderPercent: 25,
  reorderCorrelationPercent: 50,
};

/**
 * How the links get their faults on this machine: `netem` (the kernel's qdisc on a veth pair), `userspace` (a TUN
 * device at each end, socat moving packets over UDP to this process, which delays, drops and reorders them as
 * netem would: for kernels built without sch_netem), or none, with the reason.
 */
export type LinkSupport = { kind: 'netem' | 'userspace' } | { kind: 'none'; reason: string };

function run(program: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(program, args, { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stderr ?? ''}${result.stdout ?? ''}${result.error?.message ?? ''}`.trim() };
}

function must(program: string, args: string[]): void {
  const result = run(program, args);
  if (!result.ok) throw new Error(`${program} ${args.join(' ')}: ${result.output}`);
}

/** A short tag unique to this process, for interface and namespace names (interfaces allow 15 characters). */
const TAG = (process.pid % 0xffff).toString(16).padStart(4, '0');

/** Finds out, by trying on throwaway interfaces, whether this machine can put gateways behind faulty links. */
export function lossyLinkSupport(): LinkSupport {
  if (process.platform !== 'linux') return { kind: 'none', reason: 'network namespaces need Linux' };
  if (process.getuid?.() !== 0) return { kind: 'none', reason: 'network namespaces and qdiscs need root' };
  if (!run('ip', ['-V']).ok) return { kind: 'none', reason: 'the ip command is missing (apt-get install -y iproute2)' };
  const ns = `lgprobe${TAG}`;
  const added = run('ip', ['netns', 'add', ns]);
  if (!added.ok) return { kind: 'none', reason: `ip netns add failed: ${added.output}` };
  run('ip', ['netns', 'del', ns]);
  const veth = `lgp${TAG}`;
  if (!run('ip', ['link', 'add', `${veth}a`, 'type', 'veth', 'peer', 'name', `${veth}b`]).ok)
    return { kind: 'none', reason: 'the kernel makes no veth pairs' };
  const netem = run('tc', ['qdisc', 'add', 'dev', `${veth}a`, 'root', 'netem', 'delay', '1ms']);
  run('ip', ['link', 'del', `${veth}a`]);
  if (netem.ok) return { kind: 'netem' };
  if (!existsSync('/dev/net/tun')) return { kind: 'none', reason: `tc netem failed (${netem.output}) and /dev/net/tun is missing` };
  if (!run('socat', ['-V']).ok)
    return { kind: 'none', reason: `tc netem failed (${netem.output}) and socat is missing (apt-get install -y socat)` };
  return { kind: 'userspace' };
}

/** netem's arguments for the faults. */
function netemArgs(f: LinkFaults): string[] {
  return [
    'delay',
    `${f.delayMs}ms`,
    `${f.jitterMs}ms`,
    'loss',
    `${f.lossPercent}%`,
    ...(f.reorderPercent > 0 ? ['reorder', `${f.reorderPercent}%`, `${f.reorderCorrelationPercent}%`] : []),
  ];
}

/**
 * netem's decisions for one direction of a link, for the userspace link: drop, send at once (reorder) or after
 * the delay with its jitter. `random` is injectable so a test can hold the decisions to a sequence.
 */
export function createPacketFaults(faults: () => LinkFaults | undefined, random: () => number = Math.random) {
  let lastReorder = 0;
  return {
    /** undefined: drop the packet; otherwise the wait before it goes (ms). */
    decide(): number | undefined {
      const f = faults();
      if (!f) return 0;
      if (random() * 100 < f.lossPercent) return undefined;
      const correlation = f.reorderCorrelationPercent / 100;
      lastReorder = correlation * lastReorder + (1 - correlation) * random();
      if (lastReorder * 100 < f.reorderPercent) return 0;
      return Math.max(0, f.delayMs + (random() * 2 - 1) * f.jitterMs);
    },
  };
}

export interface GatewayNamespace {
  /** The namespace's name, for `ip netns exec`. */
  name: string;
  /** The host's address on the link: what the namespace reaches the host at. */
  hostAddress: string;
  /** The namespace's own address on the link. */
  address: string;
  /** Puts faults on the link, both ways (undefined takes them off). */
  setFaults(faults: LinkFaults | undefined): void;
  /** Packets dropped on purpose so far (userspace links; netem counts its own in `tc -s qdisc`). */
  dropped(): number;
  remove(): Promise<void>;
}

/**
 * A network namespace joined to the host by a point-to-point link on 10.(200+pid%50).index.0/30, with faults the
 * caller puts on and takes off. remove() deletes the namespace and its link (and ends the userspace link's
 * socat processes); a namespace of a crashed run is found by its name (`ip netns list | grep lgns`).
 */
export async function createGatewayNamespace(index: number, support: LinkSupport): Promise<GatewayNamespace> {
  if (support.kind === 'none') throw new Error(`no faulty links here: ${support.reason}`);
  if (!Number.isInteger(index) || index < 0 || index > 255) throw new Error(`namespace index ${index} is not 0-255`);
  const name = `lgns${TAG}-${index}`;
  const net = `10.${200 + (process.pid % 50)}.${index}`;
  const hostAddress = `${net}.1`;
  const address = `${net}.2`;
  const hostIf = `lg${TAG}h${index}`;
  const nsIf = `lg${TAG}g${index}`;
  const inNs = (...args: string[]) => must('ip', ['netns', 'exec', name, ...args]);
  must('ip', ['netns', 'add', name]);
  const socats: ChildProcess[] = [];
  let relay: { close(): void; dropped(): number; setFaults(f: LinkFaults | undefined): void } | undefined;
  const remove = async () => {
    relay?.close();
    for (const socat of socats) socat.kill('SIGTERM');
    await Promise.all(
      socats.map((s) => (s.exitCode !== null || s.signalCode !== null ? undefined : new Promise((r) => s.once('exit', r)))),
    );
    run('ip', ['link', 'del', hostIf]);
    run('ip', ['netns', 'del', name]);
  };
  try {
    inNs('ip', 'link', 'set', 'lo', 'up');
    if (support.kind === 'netem') {
      must('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
      must('ip', ['link', 'set', nsIf, 'netns', name]);
    } else {
      relay = await startUserspaceLink({ hostIf, nsIf, socats });
      must('ip', ['link', 'set', nsIf, 'netns', name]);
    }
    must('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostIf]);
    must('ip', ['link', 'set', hostIf, 'up']);
    inNs('ip', 'addr', 'add', `${address}/30`, 'dev', nsIf);
    inNs('ip', 'link', 'set', nsIf, 'up');
  } catch (error) {
    await remove();
    throw error;
  }
  let netemOn = false;
  return {
    name,
    hostAddress,
    address,
    setFaults(faults) {
      if (relay) return relay.setFaults(faults);
      // Both ends, so each direction has the faults once (netem works on what leaves an interface).
      for (const [prefix, dev] of [
        [[], hostIf],
        [['ip', 'netns', 'exec', name], nsIf],
      ] as const) {
        const tc = [...prefix, 'tc', 'qdisc', faults ? (netemOn ? 'change' : 'add') : 'del', 'dev', dev, 'root'];
        const args = faults ? [...tc, 'netem', ...netemArgs(faults)] : tc;
        must(args[0]!, args.slice(1));
      }
      netemOn = faults !== undefined;
    },
    dropped: () => relay?.dropped() ?? 0,
    remove,
  };
}

/**
 * Two TUN devices (`hostIf`, `nsIf`, both made in the host's namespace; the caller moves `nsIf`), each read and
 * written by a socat that trades its packets with this process over UDP on the loopback; this process passes
 * them on with the faults. Packet for packet as a veth pair with netem on both ends.
 */
async function startUserspaceLink(input: { hostIf: string; nsIf: string; socats: ChildProcess[] }) {
  let faults: LinkFaults | undefined;
  let dropped = 0;
  const bind = async (): Promise<Socket> => {
    const socket = createSocket('udp4');
    await new Promise<void>((done) => socket.bind(0, '127.0.0.1', done));
    return socket;
  };
  const hostSide = await bind();
  const nsSide = await bind();
  const endPorts = { host: 0, ns: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const pass = (from: Socket, to: Socket, end: 'host' | 'ns') => {
    const decisions = createPacketFaults(() => faults);
    from.on('message', (packet) => {
      const wait = decisions.decide();
      if (wait === undefined) return void dropped++;
      const send = () => to.send(packet, endPorts[end], '127.0.0.1');
      if (wait === 0) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, wait);
      timers.add(timer);
    });
  };
  // Packets from the host's TUN arrive on hostSide and leave through nsSide to the namespace's socat; and back.
  pass(hostSide, nsSide, 'ns');
  pass(nsSide, hostSide, 'host');
  for (const [dev, socket, end] of [
    [input.hostIf, hostSide, 'host'],
    [input.nsIf, nsSide, 'ns'],
  ] as const) {
    // socat's own port, where the packets for its TUN go: a free one, chosen here.
    const free = await bind();
    endPorts[end] = free.address().port;
    await new Promise<void>((done) => free.close(done));
    const socat = spawn(
      'socat',
      [`TUN,tun-type=tun,tun-name=${dev},iff-no-pi`, `UDP-DATAGRAM:127.0.0.1:${socket.address().port},bind=127.0.0.1:${endPorts[end]}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    input.socats.push(socat);
    let output = '';
    socat.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await poll(
      () => {
        if (socat.exitCode !== null) throw new Error(`socat for ${dev} exited: ${output}`);
        return run('ip', ['link', 'show', dev]).ok;
      },
      `socat to make ${dev}`,
      { timeoutMs: 10_000, everyMs: 50 },
    );
  }
  return {
    dropped: () => dropped,
    setFaults(next: LinkFaults | undefined) {
      faults = next;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      hostSide.close();
      nsSide.close();
    },
  };
}
