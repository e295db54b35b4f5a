import { projectEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, apiData, signUpByMail, startApp, type Harness } from '../test/harness.ts';
import { ObjectType, PropertyIdentifier } from '@bacnet-js/client';
import { buildApp } from '../app.ts';
import { poll } from '../test/poll.ts';
import { freeUdpPort, readValues, recipientOf, startTestClient, writeRecipientList } from './bacnet-client.fixtures.ts';
import { NOTIFICATION_CLASS } from './events.ts';
import { createLeaseRepo, keepLease, type LeaseKeeper } from './lease.ts';

const silent = { info: () => undefined, warn: () => undefined };
// Tries are made by the test (tryNow); the timer never fires within it.
const OPTIONS = { leaseMs: 15_000, tryMs: 3_600_000 };

/** Two server nodes with BACNET=on for one project: one serves, the other takes over when it stops. */
describe.each(DATABASES)("a project's BACnet lease (%s)", (kind) => {
  let h: Harness;
  let projectId: bigint;
  const keepers: LeaseKeeper[] = [];
  const serving = new Set<string>();

  function node(holder: string) {
    const keeper = keepLease({
      lease: createLeaseRepo(h.database.db).of(projectId),
      what: 'BACnet',
      holder,
      clock: h.clock,
      logger: silent,
      options: OPTIONS,
      onHeld: async () => void serving.add(holder),
      onLost: () => void serving.delete(holder),
    });
    keepers.push(keeper);
    return keeper;
  }

  beforeAll(async () => {
    h = await startApp(kind);
    const token = await signUpByMail(h, 'lease@example.com');
    const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
    projectId = BigInt(tree.projects.find((p) => p.isDefault)!.id);
  });
  afterAll(async () => {
    for (const keeper of keepers) await keeper.stop();
    await h?.close();
  });

  it('lets one node serve; the other takes over at once when it stops, and after the lease when it vanishes', async () => {
    const a = node('node-a');
    await a.settled();
    const b = node('node-b');
    await b.settled();
    expect([...serving]).toEqual(['node-a']);

    // A stops cleanly: it gives the lease up, and B takes it at its next try.
    await a.stop();
    expect(serving.size).toBe(0);
    await b.tryNow();
    expect([...serving]).toEqual(['node-b']);

    // B vanishes without a word (its renewals stop): C waits out the lease, then serves.
    const c = node('node-c');
    await c.settled();
    expect(c.isHeld()).toBe(false);
    h.clock.advance(OPTIONS.leaseMs - 1);
    await c.tryNow();
    expect(c.isHeld()).toBe(false);
    h.clock.advance(2);
    await c.tryNow();
    expect(c.isHeld()).toBe(true);
    // B, back, finds the lease taken and stops serving.
    await b.tryNow();
    expect([...serving]).toEqual(['node-c']);
  });

  it('serves the device from one of two nodes on one database, and from the other once the first closes, which announces itself', async () => {
    // The nodes of the test above give the lease up.
    for (const keeper of keepers.splice(0)) await keeper.stop();
    // A second node on the same database (the first is the harness's app).
    const second = await buildApp({ config: h.config, database: h.database, clock: h.clock, logger: false, jobs: { start: false } });
    const client = await startTestClient();
    const announced: number[] = [];
    client.on('iAm', (content) => announced.push(content.payload.deviceId));
    try {
      const port = await freeUdpPort();
      const config = { port, interface: '127.0.0.1', deviceInstance: 31, account: 'lease@example.com', projectId, readOnly: false };
      const announceTo = { address: `127.0.0.1:${client.port}` };
      await h.app.bacnet.start(config, { holder: 'first', lease: { tryMs: 20 }, announceTo });
      await poll(() => announced.length === 1, 'the I-Am of the first node');
      await second.bacnet.start(config, { holder: 'second', lease: { tryMs: 20 }, announceTo });
      expect(h.app.bacnet.server).toBeDefined();
      expect(second.bacnet.server).toBeUndefined();
      const name = () => readValues(client, port, { type: ObjectType.DEVICE, instance: 31 }, PropertyIdentifier.OBJECT_NAME);
      expect(await name()).toEqual([expect.stringContaining('Lumigrid')]);

      await h.app.bacnet.close();
      await poll(() => second.bacnet.server !== undefined, 'the second node serving');
      expect(await name()).toEqual([expect.stringContaining('Lumigrid')]);
      // The node that took over said so: a BMS learns it without a Who-Is.
      await poll(() => announced.length === 2, 'the I-Am of the second node');
      expect(announced).toEqual([31, 31]);
    } finally {
      client.close();
      await second.close();
    }
  });
  it('keeps the Recipient_List a BMS wrote through a take-over by another node and a restart of the app', async () => {
    const client = await startTestClient();
    const port = await freeUdpPort();
    const config = { port, interface: '127.0.0.1', deviceInstance: 32, account: 'lease@example.com', projectId, readOnly: false };
    const notificationClass = { type: ObjectType.NOTIFICATION_CLASS, instance: NOTIFICATION_CLASS };
    const list = () => readValues(client, port, notificationClass, PropertyIdentifier.RECIPIENT_LIST);
    const open = new Set<Awaited<ReturnType<typeof buildApp>>>();
    const node = async () => {
      const app = await buildApp({ config: h.config, database: h.database, clock: h.clock, logger: false, jobs: { start: false } });
      open.add(app);
      return app;
    };
    const stop = async (app: Awaited<ReturnType<typeof buildApp>>) => {
      open.delete(app);
      await app.close();
    };
    const first = await node();
    const second = await node();
    try {
      await first.bacnet.start(config, { holder: 'first', lease: { tryMs: 20 } });
      await writeRecipientList(client, port, [recipientOf(client, 41), recipientOf(client, 42, true)]);
      expect(await list()).toHaveLength(14);

      // Another node takes the device over and notifies the same recipients.
      await second.bacnet.start(config, { holder: 'second', lease: { tryMs: 20 } });
      await stop(first);
      await poll(() => second.bacnet.server !== undefined, 'the second node serving');
      const taken = await list();
      expect([taken[4], taken[5], taken[11], taken[12]]).toEqual([41, false, 42, true]);
      expect(second.bacnet.server!.recipients()).toBe(2);

      // The app restarted (a new process on the same database) serves it still.
      await stop(second);
      const restarted = await node();
      await restarted.bacnet.start(config, { holder: 'restarted', lease: { tryMs: 20 } });
      expect(restarted.bacnet.server!.recipients()).toBe(2);
      expect((await list())[4]).toBe(41);
      // A list written empty stays empty.
      await writeRecipientList(client, port, []);
      await restarted.bacnet.close();
      await restarted.bacnet.start(config, { holder: 'restarted-again', lease: { tryMs: 20 } });
      expect(await list()).toEqual([]);
    } finally {
      client.close();
      for (const app of open) await app.close();
    }
  });
});
