import { Aedes } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { boundEmitterRecursion } from './emitter-depth.ts';

interface Emitter {
  on(topic: string, notify: (packet: unknown, done: () => void) => void, subscribed?: () => void): void;
  emit(packet: { topic: string; payload: Buffer }, done: (error?: Error) => void): void;
}

/** Aedes's own emitter, at one delivery at a time, with a subscriber that holds its first message until released. */
async function emitterHeldBusy() {
  const broker = await Aedes.createBroker({ concurrency: 1 });
  const mq = (broker as unknown as { mq: Emitter }).mq;
  let release = () => {};
  await new Promise<void>((subscribed) =>
    mq.on(
      'held',
      (_packet, done) => {
        release = done;
      },
      subscribed,
    ),
  );
  mq.emit({ topic: 'held', payload: Buffer.alloc(0) }, () => undefined);
  return { broker, mq, release: () => release() };
}

/** More queued messages than a stack has frames for, each completing at once (no subscriber). */
const BACKLOG = 20_000;

describe("the broker's emitter draining a backlog", () => {
  const brokers: Aedes[] = [];
  afterEach(async () => {
    for (const broker of brokers.splice(0)) await new Promise<void>((closed) => broker.close(() => closed()));
  });

  it('overflows the stack as mqemitter comes', async () => {
    const { broker, mq, release } = await emitterHeldBusy();
    brokers.push(broker);
    for (let i = 0; i < BACKLOG; i++) mq.emit({ topic: `nobody/${i}`, payload: Buffer.alloc(0) }, () => undefined);
    expect(release).toThrow(RangeError);
  });

  it('delivers the whole backlog in order once bounded, later messages behind it', async () => {
    const { broker, mq, release } = await emitterHeldBusy();
    brokers.push(broker);
    boundEmitterRecursion(mq);
    const done: number[] = [];
    const all = new Promise<void>((finished) => {
      const emit = (i: number) =>
        mq.emit({ topic: `nobody/${i}`, payload: Buffer.alloc(0) }, () => {
          done.push(i);
          if (done.length === BACKLOG + 1) finished();
        });
      for (let i = 0; i < BACKLOG; i++) emit(i);
      release();
      // Emitted while the backlog drains across turns of the event loop: it waits behind the backlog.
      emit(BACKLOG);
    });
    await all;
    expect(done).toEqual(Array.from({ length: BACKLOG + 1 }, (_, i) => i));
  });
});
