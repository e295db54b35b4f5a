import { createSocket } from 'node:dgram';
import {
  ASN1_ARRAY_ALL,
  ConfirmedServiceChoice,
  MaxApduLengthAccepted,
  MaxSegmentsAccepted,
  NpduControlBit,
  NpduControlPriority,
  ObjectType,
  PduType,
  PropertyIdentifier,
  type BACNetObjectID,
  type EncodeBuffer,
} from '@bacnet-js/client';
import apduModule from '@bacnet-js/client/dist/lib/apdu.js';
import asn1Module from '@bacnet-js/client/dist/lib/asn1.js';
import npduModule from '@bacnet-js/client/dist/lib/npdu.js';
import { BACnetClient, type Client } from './bacnet-server.ts';
import { encodeRecipientList, NOTIFICATION_CLASS, type Destination } from './events.ts';

/** A client of the test's own, and the port it listens on (a BMS gives it as its address in Recipient_List). */
export type TestClient = Client & { port: number };

/** A UDP port of 127.0.0.1 free now (BACnet's stack takes port 0 for its default, 47808). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/** A BACnet/IP client of the test's own on 127.0.0.1, as a building management system would be. */
export async function startTestClient(): Promise<TestClient> {
  const port = await freeUdpPort();
  const client = new BACnetClient({ port, interface: '127.0.0.1', apduTimeout: 8000, reuseAddr: false });
  await new Promise<void>((resolve) => client.once('listening', resolve));
  return Object.assign(client, { port });
}

const cjs = <T>(m: T): T => (m as { default?: T }).default ?? m;

/** This client as a recipient on 127.0.0.1: every day, all day, every transition. */
export function recipientOf(client: TestClient, processId: number, confirmed = false): Destination {
  return {
    validDays: { bitsUsed: 7, value: [0x7f] },
    fromTime: new Date(2000, 0, 1, 0, 0, 0, 0),
    toTime: new Date(2000, 0, 1, 23, 59, 59, 990),
    address: `127.0.0.1:${client.port}`,
    recipient: { network: 0, mac: [127, 0, 0, 1, client.port >> 8, client.port & 0xff] },
    processId,
    confirmed,
    transitions: { bitsUsed: 3, value: [0x07] },
  };
}

/**
 * Writes the Notification Class's Recipient_List as a BMS does; the stack's writeProperty cannot encode a
 * BACnetDestination, so the request is put together here and its answer awaited through the stack's own requests.
 */
export async function writeRecipientList(client: TestClient, port: number, list: readonly Destination[]): Promise<void> {
  const receiver = { address: `127.0.0.1:${port}` };
  const internals = client as unknown as {
    _getApduBuffer(): EncodeBuffer;
    _getInvokeId(): number;
    _requestManager: { add(invokeId: number): Promise<unknown> };
  };
  const buffer = internals._getApduBuffer();
  const invokeId = internals._getInvokeId();
  cjs(npduModule).encode(buffer, NpduControlPriority.NORMAL_MESSAGE | NpduControlBit.EXPECTING_REPLY, receiver);
  cjs(apduModule).encodeConfirmedServiceRequest(
    buffer,
    PduType.CONFIRMED_REQUEST,
    ConfirmedServiceChoice.WRITE_PROPERTY,
    MaxSegmentsAccepted.SEGMENTS_0,
    MaxApduLengthAccepted.OCTETS_1476,
    invokeId,
    0,
    0,
  );
  const asn1 = cjs(asn1Module);
  asn1.encodeContextObjectId(buffer, 0, ObjectType.NOTIFICATION_CLASS, NOTIFICATION_CLASS);
  asn1.encodeContextEnumerated(buffer, 1, PropertyIdentifier.RECIPIENT_LIST);
  asn1.encodeOpeningTag(buffer, 3);
  encodeRecipientList(buffer, list);
  asn1.encodeClosingTag(buffer, 3);
  const answered = internals._requestManager.add(invokeId);
  client.sendBvlc(receiver, buffer);
  await answered;
}

/** One property's values as the client decoded them. */
export async function readValues(client: TestClient, port: number, objectId: BACNetObjectID, property: number, arrayIndex?: number) {
  const answer = await client.readProperty(
    { address: `127.0.0.1:${port}` },
    objectId,
    property,
    arrayIndex === undefined ? {} : { arrayIndex },
  );
  return answer.values.map((v) => v.value as unknown);
}

/** Objects per ReadPropertyMultiple: the interface does not segment, so an answer must fit one APDU. */
const NAMES_PER_REQUEST = 10;

/** Every object's identifier and name, read as a BMS discovers a device: the list, then the names a few at a time. */
export async function objectNames(client: TestClient, port: number, deviceInstance: number) {
  const device = { type: ObjectType.DEVICE, instance: deviceInstance };
  const ids = (await readValues(client, port, device, PropertyIdentifier.OBJECT_LIST)) as BACNetObjectID[];
  const names: Array<{ id: BACNetObjectID; name: string }> = [];
  for (let i = 0; i < ids.length; i += NAMES_PER_REQUEST) {
    const answer = await client.readPropertyMultiple(
      { address: `127.0.0.1:${port}` },
      ids
        .slice(i, i + NAMES_PER_REQUEST)
        .map((objectId) => ({ objectId, properties: [{ id: PropertyIdentifier.OBJECT_NAME, index: ASN1_ARRAY_ALL }] })),
    );
    names.push(...answer.values.map((v) => ({ id: v.objectId, name: String(v.values[0]!.value[0]!.value) })));
  }
  return names;
}
