import { createRequire } from 'node:module';
import { freeUdpPort } from './bacnet-client.fixtures.ts';

/**
 * A BACnet/IP client of another stack than the server's: `node-bacnet` (plain JavaScript, no types), as a BMS
 * built on a different implementation drives the device. Only what the interop test uses is typed here.
 */
const require = createRequire(import.meta.url);

export interface ObjectId {
  type: number;
  instance: number;
}
export interface AppValue {
  type: number;
  value: unknown;
}
interface Content<P> {
  header: { sender: { address: string } };
  payload: P;
}
type Done<T> = (err: Error | null, value?: T) => void;
type Buffer_ = { buffer: Buffer; offset: number };

interface NodeBacnetClient {
  on(event: 'iAm', listener: (content: Content<{ deviceId: number }>) => void): void;
  on(event: 'covNotifyUnconfirmed', listener: (content: Content<CovPayload>) => void): void;
  once(event: 'listening', listener: () => void): void;
  whoIs(receiver: { address: string }, options: { lowLimit?: number; highLimit?: number }): void;
  readProperty(
    receiver: { address: string },
    objectId: ObjectId,
    property: number,
    options: { arrayIndex?: number },
    next: Done<{ values: AppValue[] }>,
  ): void;
  readPropertyMultiple(
    receiver: { address: string },
    request: Array<{ objectId: ObjectId; properties: Array<{ id: number }> }>,
    options: object,
    next: Done<{ values: Array<{ objectId: ObjectId; values: Array<{ property: { id: number }; value: AppValue[] }> }> }>,
  ): void;
  writeProperty(
    receiver: { address: string },
    objectId: ObjectId,
    property: number,
    values: AppValue[],
    options: { priority?: number },
    next: (err: Error | null) => void,
  ): void;
  subscribeCov(
    receiver: { address: string },
    objectId: ObjectId,
    processId: number,
    cancel: boolean,
    confirmed: boolean,
    lifetime: number,
    options: object,
    next: (err: Error | null) => void,
  ): void;
  sendBvlc(receiver: { address: string }, buffer: Buffer_): void;
  close(): void;
  _transport: { on(event: 'message', listener: (message: Buffer, from: string) => void): void };
  _getBuffer(): Buffer_;
  _getInvokeId(): number;
  _addCallback(invokeId: number, next: (err: Error | null) => void): void;
}
export interface CovPayload {
  monitoredObjectId: ObjectId;
  values: Array<{ property: { id: number }; value: AppValue[] }>;
}
export interface EventPayload {
  processId: number;
  eventObjectId: ObjectId;
  fromState: number;
  toState: number;
}

type Enums = Record<string, Record<string, number>>;
const NodeBacnet = require('node-bacnet') as (new (options: object) => NodeBacnetClient) & { enum: Enums };
const asn1 = require('node-bacnet/lib/asn1') as Record<string, (buffer: Buffer_, ...args: unknown[]) => void>;
const npdu = require('node-bacnet/lib/npdu') as { encode(buffer: Buffer_, control: number, receiver: object): void };
const apdu = require('node-bacnet/lib/apdu') as {
  encodeConfirmedServiceRequest(buffer: Buffer_, ...args: number[]): void;
  decodeUnconfirmedServiceRequest(buffer: Buffer, offset: number): { len: number; type: number; service: number };
};
const bvlc = require('node-bacnet/lib/bvlc') as { decode(buffer: Buffer, offset: number): { len: number } | undefined };
const npduDecode = (
  require('node-bacnet/lib/npdu') as { decode(buffer: Buffer, offset: number): { len: number; funct: number } | undefined }
).decode;
const eventNotifyData = require('node-bacnet/lib/services/event-notify-data') as {
  decode(buffer: Buffer, offset: number, length: number): EventPayload | undefined;
};

/** The stack's own enumerations (its names, not the server stack's). */
export const E = NodeBacnet.enum as {
  ApplicationTag: Record<'NULL' | 'REAL' | 'BIT_STRING' | 'TIME' | 'UNSIGNED_INTEGER' | 'BOOLEAN', number>;
  ObjectType: Record<'DEVICE' | 'LIGHTING_OUTPUT' | 'MULTI_STATE_VALUE' | 'NOTIFICATION_CLASS', number>;
  PropertyIdentifier: Record<'OBJECT_LIST' | 'OBJECT_NAME' | 'PRESENT_VALUE' | 'PRIORITY_ARRAY' | 'RECIPIENT_LIST', number>;
  EventState: Record<'NORMAL' | 'FAULT', number>;
} & Enums;

const promised = <T>(run: (next: Done<T>) => void) =>
  new Promise<T>((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value as T))));

/** A node-bacnet client on 127.0.0.1 talking to the device at `port`, with promises around its callbacks. */
export async function startNodeBacnetClient(port: number) {
  const ownPort = await freeUdpPort();
  const client = new NodeBacnet({ port: ownPort, interface: '127.0.0.1', apduTimeout: 8000, reuseAddr: false });
  await new Promise<void>((resolve) => client.once('listening', resolve));
  const device = { address: `127.0.0.1:${port}` };
  type MultipleAnswer = { values: Array<{ objectId: ObjectId; values: Array<{ property: { id: number }; value: AppValue[] }> }> };
  const readMultiple = (request: Array<{ objectId: ObjectId; properties: Array<{ id: number }> }>) =>
    promised<MultipleAnswer>((next) => client.readPropertyMultiple(device, request, {}, next));
  return {
    raw: client,
    port: ownPort,
    whoIs: (instance: number) => client.whoIs(device, { lowLimit: instance, highLimit: instance }),
    async read(objectId: ObjectId, property: number, arrayIndex?: number): Promise<unknown[]> {
      const answer = await promised<{ values: AppValue[] }>((next) =>
        client.readProperty(device, objectId, property, arrayIndex === undefined ? {} : { arrayIndex }, next),
      );
      return answer.values.map((v) => v.value);
    },
    /** Every object's identifier and name: Object_List, then the names ten at a time (answers are not segmented). */
    async names(deviceInstance: number) {
      const ids = (await this.read(
        { type: E.ObjectType.DEVICE, instance: deviceInstance },
        E.PropertyIdentifier.OBJECT_LIST,
      )) as ObjectId[];
      const names: Array<{ id: ObjectId; name: string }> = [];
      for (let i = 0; i < ids.length; i += 10) {
        const request = ids.slice(i, i + 10).map((objectId) => ({ objectId, properties: [{ id: E.PropertyIdentifier.OBJECT_NAME }] }));
        const answer = await readMultiple(request);
        names.push(...answer.values.map((v) => ({ id: v.objectId, name: String(v.values[0]!.value[0]!.value) })));
      }
      return names;
    },
    readMultiple,
    write: (objectId: ObjectId, property: number, values: AppValue[], priority: number) =>
      promised<void>((next) => client.writeProperty(device, objectId, property, values, { priority }, next)),
    subscribeCov: (objectId: ObjectId, processId: number, cancel: boolean, lifetime: number) =>
      promised<void>((next) => client.subscribeCov(device, objectId, processId, cancel, false, lifetime, {}, next)),
    /**
     * Writes this client into the Notification Class's Recipient_List (every day, all day, every transition,
     * unconfirmed). node-bacnet's writeProperty encodes application values only, and a BACnetDestination's
     * recipient is a context-tagged choice, so the request is put together from node-bacnet's own encoders.
     */
    async writeRecipientList(notificationClass: number, processId: number) {
      const buffer = client._getBuffer();
      const invokeId = client._getInvokeId();
      const A = E.ApplicationTag;
      npdu.encode(buffer, E.NpduControlPriority!.NORMAL_MESSAGE! | E.NpduControlBit!.EXPECTING_REPLY!, device);
      apdu.encodeConfirmedServiceRequest(
        buffer,
        E.PduType!.CONFIRMED_REQUEST!,
        E.ConfirmedServiceChoice!.WRITE_PROPERTY!,
        E.MaxSegmentsAccepted!.SEGMENTS_0!,
        E.MaxApduLengthAccepted!.OCTETS_1476!,
        invokeId,
        0,
        0,
      );
      asn1.encodeContextObjectId!(buffer, 0, E.ObjectType.NOTIFICATION_CLASS, notificationClass);
      asn1.encodeContextEnumerated!(buffer, 1, E.PropertyIdentifier.RECIPIENT_LIST);
      asn1.encodeOpeningTag!(buffer, 3);
      asn1.bacappEncodeApplicationData!(buffer, { type: A.BIT_STRING, value: { bitsUsed: 7, value: [0x7f] } });
      asn1.bacappEncodeApplicationData!(buffer, { type: A.TIME, value: new Date(2000, 0, 1, 0, 0, 0, 0) });
      asn1.bacappEncodeApplicationData!(buffer, { type: A.TIME, value: new Date(2000, 0, 1, 23, 59, 59, 990) });
      asn1.encodeOpeningTag!(buffer, 1);
      asn1.encodeApplicationUnsigned!(buffer, 0);
      const mac = [127, 0, 0, 1, ownPort >> 8, ownPort & 0xff];
      asn1.encodeApplicationOctetString!(buffer, mac, 0, mac.length);
      asn1.encodeClosingTag!(buffer, 1);
      asn1.encodeApplicationUnsigned!(buffer, processId);
      asn1.encodeApplicationBoolean!(buffer, false);
      asn1.bacappEncodeApplicationData!(buffer, { type: A.BIT_STRING, value: { bitsUsed: 3, value: [0x07] } });
      asn1.encodeClosingTag!(buffer, 3);
      const answered = promised<void>((next) => client._addCallback(invokeId, next));
      client.sendBvlc(device, buffer);
      await answered;
    },
    /**
     * Hears unconfirmed event notifications. node-bacnet 0.2.4 emits `eventNotify` without a payload (its service
     * table names a decoder it does not have), so each datagram is decoded here with its own BVLC, NPDU, APDU
     * and event-notification decoders.
     */
    onEventNotification(listener: (payload: EventPayload) => void) {
      client._transport.on('message', (message) => {
        const link = bvlc.decode(message, 0);
        const network = link && npduDecode(message, link.len);
        if (!link || !network) return;
        const offset = link.len + network.len;
        const request = apdu.decodeUnconfirmedServiceRequest(message, offset);
        if (request.type >> 4 !== E.PduType!.UNCONFIRMED_REQUEST! >> 4) return;
        if (request.service !== E.UnconfirmedServiceChoice!.UNCONFIRMED_EVENT_NOTIFICATION) return;
        const payload = eventNotifyData.decode(message, offset + request.len, message.length - offset - request.len);
        if (payload) listener(payload);
      });
    },
    close: () => client.close(),
  };
}
export type NodeBacnetTestClient = Awaited<ReturnType<typeof startNodeBacnetClient>>;
