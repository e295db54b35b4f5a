import { createSocket } from 'node:dgram';
import { ASN1_ARRAY_ALL, ObjectType, PropertyIdentifier, type BACNetObjectID } from '@bacnet-js/client';
import { BACnetClient, type Client } from './bacnet-server.ts';

export type TestClient = Client;

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
  const client: TestClient = new BACnetClient({ port: await freeUdpPort(), interface: '127.0.0.1', apduTimeout: 8000, reuseAddr: false });
  await new Promise<void>((resolve) => client.once('listening', resolve));
  return client;
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
