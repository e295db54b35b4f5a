import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { downTopic, upTopic } from '@lumigrid/protocol';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosquittoAclFile, mosquittoConf, mosquittoPasswordFile, mosquittoPasswordHash } from './mosquitto-acl.ts';
import { servicesFor } from '../test/services.ts';
import { rawClient } from '../test/gateway-link.fixtures.ts';
import { MOSQUITTO, startPrivateMosquitto, type PrivateMosquitto } from '../test/mosquitto.fixtures.ts';
import { poll } from '../test/poll.ts';

const A = 'A4C1380000A1';
const B = 'A4C1380000B2';
const SERVER = { username: 'lumigrid-server-1', password: 'server-secret-1' };
const SERVER2 = { username: 'lumigrid-server-2', password: 'server-secret-2' };

describe('Mosquitto files', () => {
  it('hashes passwords the way mosquitto_passwd does ($7$, PBKDF2-SHA512)', () => {
    // mosquitto_passwd -b wrote "user:$7$101$HS5Uc37IRxHQJQWs$ViSd..." for "secret" with this salt.
    const hash = mosquittoPasswordHash('secret', Buffer.from('HS5Uc37IRxHQJQWs', 'base64'));
    expect(hash).toBe('$7$101$HS5Uc37IRxHQJQWs$ViSdprRXr7e1MSS6Q1eAX+RH5oeMV1Kmleh/GKrau2D/eiqsDLoMYLvlltitbPN8M72np00QUo4CrUfX3QnLqw==');
  });

  it('limits each gateway to its own topics and refuses bad names', () => {
    const acl = mosquittoAclFile({ serverUsers: ['srv'], gatewayMacs: ['a4:c1:38:00:00:a1'] });
    expect(acl).toContain(`user ${A}\ntopic write lg/v1/${A}/up/+\ntopic read lg/v1/${A}/down/+`);
    expect(acl).toContain('user srv\ntopic readwrite lg/#');
    expect(acl).toContain('pattern write lg/v1/%u/up/+');
    expect(() => mosquittoAclFile({ serverUsers: ['srv'], gatewayMacs: ['not a mac'] })).toThrow();
    expect(() => mosquittoPasswordFile([{ username: 'a:b', password: 'x' }])).toThrow();
  });
});

/**
 * The generated files in a private Mosquitto (its own port and temporary configuration): the same ACL matrix
 * the embedded broker passes. Needs Mosquitto installed (test/services.ts).
 */
describe.runIf(servicesFor('the private Mosquitto ACL test', { programs: [MOSQUITTO] }))(
  'a private Mosquitto with the generated files',
  () => {
    let broker: PrivateMosquitto;
    let url: string;
    const clients: MqttClient[] = [];
    const connect = async (username: string, password: string, clientId = username) => {
      const r = await rawClient(url, { username, password, clientId, clean: true });
      if (!r.error) clients.push(r.client);
      return r;
    };
    /** Messages a client receives on a filter, with the SUBACK's granted QoS (128 is a refusal). */
    const listen = async (client: MqttClient, filter: string) => {
      const got: string[] = [];
      client.on('message', (topic, payload) => got.push(`${topic} ${payload.toString()}`));
      const granted = await new Promise<number>((resolve, reject) =>
        client.subscribe(filter, { qos: 1 }, (error, grants) => (error && !grants ? reject(error) : resolve(grants?.[0]?.qos ?? -1))),
      );
      return { got, granted };
    };
    const publish = (client: MqttClient, topic: string, from: string) => client.publishAsync(topic, from, { qos: 1 });

    beforeAll(async () => {
      broker = await startPrivateMosquitto((dir, port) => {
        writeFileSync(
          join(dir, 'passwd'),
          mosquittoPasswordFile([SERVER, SERVER2, { username: A, password: 'pw-a' }, { username: B, password: 'pw-b' }]),
        );
        writeFileSync(join(dir, 'acl'), mosquittoAclFile({ serverUsers: [SERVER.username, SERVER2.username], gatewayMacs: [A, B] }));
        return `${mosquittoConf({ port, bind: '127.0.0.1', passwordFile: join(dir, 'passwd'), aclFile: join(dir, 'acl') })}persistence false\n`;
      });
      url = broker.url;
    });

    afterAll(async () => {
      for (const c of clients) await c.endAsync(true).catch(() => undefined);
      await broker?.close();
    });

    it('refuses a wrong password, an unknown user and anonymous clients', async () => {
      expect((await connect(A, 'wrong')).error?.code).toBe(5);
      expect((await connect('001122334455', 'pw-a')).error?.code).toBe(5);
      expect((await rawClient(url, { clean: true })).error?.code).toBe(5);
    });

    it('lets gateway A reach only its own topics: not B\u2019s, not #', async () => {
      const server = (await connect(SERVER.username, SERVER.password)).client;
      const a = (await connect(A, 'pw-a')).client;
      const b = (await connect(B, 'pw-b')).client;
      const seenByServer = await listen(server, 'lg/#');
      expect(seenByServer.granted).toBe(1);
      // Several server nodes read the up topics through a shared subscription (docs/decisions.md).
      const shared = (await connect(SERVER2.username, SERVER2.password)).client;
      const sharedUp = await listen(shared, '$share/lumigrid-server/lg/v1/+/up/#');
      expect(sharedUp.granted).toBe(1);
      const aOwn = await listen(a, `lg/v1/${A}/down/+`);
      expect(aOwn.granted).toBe(1);
      const bOwn = await listen(b, `lg/v1/${B}/down/+`);
      // Refused subscriptions: Mosquitto 2 answers 0x80; were one granted, the messages below would show it.
      const aWild = await listen(a, '#');
      const aOnB = await listen(a, `lg/v1/${B}/down/+`);
      expect([aWild.granted, aOnB.granted].every((g) => g === 128 || g === 1)).toBe(true);

      await publish(a, upTopic(B, 'state'), 'a'); // A pretending to be B: dropped
      await publish(a, downTopic(B, 'cmd'), 'a'); // A commanding B: dropped
      await publish(a, upTopic(A, 'report'), 'a'); // its own: delivered
      await publish(server, downTopic(B, 'cmd'), 'server');
      await publish(server, downTopic(A, 'cmd'), 'server');
      await poll(
        () => seenByServer.got.includes(`${upTopic(A, 'report')} a`) && bOwn.got.length > 0 && aOwn.got.length > 0,
        'the allowed messages',
      );
      // No wait for stragglers: each listener's allowed message was published after the refused ones on the same
      // ordered path (A's own connection for the server's view; the server's connection for the down topics), so
      // anything wrongly let through would have arrived first.

      expect(seenByServer.got.filter((m) => m.endsWith(' a'))).toEqual([`${upTopic(A, 'report')} a`]);
      expect(sharedUp.got).toEqual([`${upTopic(A, 'report')} a`]);
      expect(bOwn.got).toEqual([`${downTopic(B, 'cmd')} server`]);
      expect(aOwn.got).toEqual([`${downTopic(A, 'cmd')} server`]);
      // A's '#' and B-filter subscriptions heard nothing of B (the client's listeners see every message it receives).
      expect(aWild.got.filter((m) => m.includes(B))).toEqual([]);
      expect(aOnB.got.filter((m) => m.includes(B))).toEqual([]);
    });

    it('does not let gateway A take over B\u2019s session with B\u2019s client id', async () => {
      const b = (await connect(B, 'pw-b')).client;
      const bOwn = await listen(b, `lg/v1/${B}/down/+`);
      let bClosed = 0;
      b.on('close', () => (bClosed += 1));
      // With use_username_as_clientid, A's connection is A whatever id it asks for; B stays connected.
      const a = await connect(A, 'pw-a', B);
      expect(a.error).toBeUndefined();
      const server = (await connect(SERVER2.username, SERVER2.password)).client;
      await publish(server, downTopic(B, 'config'), 'server');
      await poll(() => bOwn.got.includes(`${downTopic(B, 'config')} server`), 'B still receives');
      // A take-over would have closed B's socket before this later message came down it.
      expect(bClosed).toBe(0);
      expect(b.connected).toBe(true);
    });
  },
);
