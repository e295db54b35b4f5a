import { describe, expect, it } from 'vitest';
import { UplinkStore, type QosPublish } from './uplink-store.ts';

/** A broker that holds each publish until the test acknowledges or fails it. */
function heldBroker() {
  const held: Array<{ topic: string; done: (error?: Error) => void }> = [];
  const publish: QosPublish = (topic, _payload, done) => held.push({ topic, done });
  return { held, publish };
}

describe('the uplink store', () => {
  it('hands each message to the broker once a connection, and lets it go on its PUBACK', () => {
    const store = new UplinkStore(10);
    const broker = heldBroker();
    const delivered: string[] = [];
    const first = store.add('up/a', '1');
    store.add('up/b', '2');
    store.forward(store.waiting(1), 1, broker.publish, (message) => delivered.push(message.topic));
    store.forward(store.waiting(1), 1, broker.publish);
    expect(broker.held.map((h) => h.topic)).toEqual(['up/a', 'up/b']);

    broker.held[0]!.done();
    expect(delivered).toEqual(['up/a']);
    expect(store.size).toBe(1);
    expect(store.waiting(2)).not.toContain(first);
  });

  it('hands a message again on the same connection when its publish failed, and on a new one when none came back', () => {
    const store = new UplinkStore(10);
    const broker = heldBroker();
    store.add('up/a', '1');
    store.add('up/b', '2');
    store.forward(store.waiting(1), 1, broker.publish);
    broker.held[0]!.done(new Error('connection closed'));
    expect(store.waiting(1).map((m) => m.topic)).toEqual(['up/a']);
    // The second message's PUBACK never came on connection 1: connection 2 sends both again.
    expect(store.waiting(2).map((m) => m.topic)).toEqual(['up/a', 'up/b']);
  });

  it('drops the oldest message past its limit and counts it', () => {
    const store = new UplinkStore(2);
    store.add('up/a', '1');
    store.add('up/b', '2');
    store.add('up/c', '3');
    expect(store.dropped).toBe(1);
    expect(store.waiting(1).map((m) => m.topic)).toEqual(['up/b', 'up/c']);
  });
});
