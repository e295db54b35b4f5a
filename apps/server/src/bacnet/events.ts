import {
  ApplicationTag,
  ErrorClass,
  ErrorCode,
  EventState,
  EventTransitionBits,
  ObjectType,
  type BACNetAppData,
  type BACNetBitString,
  type EncodeBuffer,
} from '@bacnet-js/client';
import asn1Module from '@bacnet-js/client/dist/lib/asn1.js';
import type { BacnetObject } from './object-model.ts';
import type { BacnetError } from './properties.ts';

// CommonJS: Node's ESM import answers the module object around `exports`.
const asn1 = (asn1Module as unknown as { default?: typeof asn1Module }).default ?? asn1Module;

/** The device's one Notification Class: every device's state object reports through it. */
export const NOTIFICATION_CLASS = 1;
/** Priority of each transition, to-offnormal, to-fault, to-normal (lower is more urgent; 64-127 urgent operational). */
export const EVENT_PRIORITIES = [100, 100, 200] as const;
/** The transitions a BMS must acknowledge: to-offnormal and to-fault; the return to normal needs none. */
export const ACK_REQUIRED: readonly boolean[] = [true, true, false];

/** Transition bits (to-offnormal, to-fault, to-normal) as the stack's bit string: bit n is (byte >> n) & 1. */
export function transitionBits(set: readonly boolean[]): BACNetBitString {
  return { bitsUsed: 3, value: [set.reduce((byte, on, i) => (on ? byte | (1 << i) : byte), 0)] };
}

/** The index of a transition into Event_Time_Stamps, Acked_Transitions and the Notification Class arrays. */
export function transitionOf(toState: EventState): EventTransitionBits {
  if (toState === EventState.NORMAL) return EventTransitionBits.TO_NORMAL;
  if (toState === EventState.FAULT) return EventTransitionBits.TO_FAULT;
  return EventTransitionBits.TO_OFFNORMAL;
}

/** The event state of an object that reports (a device's state object): fault while the device is offline or failed. */
export function eventStateOf(object: BacnetObject): EventState {
  return object.reliability === 'ok' ? EventState.NORMAL : EventState.FAULT;
}

/** Objects that report events: the Multi-state Value of each device. */
export const reportsEvents = (object: BacnetObject) => object.objectType === ObjectType.MULTI_STATE_VALUE;

/** What the device remembers of one reporting object's events (clause 13.2). */
export interface EventRecord {
  state: EventState;
  /** When each transition (to-offnormal, to-fault, to-normal) last happened; null: never since the node started. */
  timeStamps: Array<Date | null>;
  /** Acked_Transitions: false while a transition that needs an acknowledgement waits for one. */
  acked: boolean[];
}

export const initialRecord = (state: EventState): EventRecord => ({ state, timeStamps: [null, null, null], acked: [true, true, true] });

/** One element of Recipient_List (BACnetDestination, clause 21), kept as written so a read answers it back. */
export interface Destination {
  validDays: BACNetBitString;
  fromTime: Date;
  toTime: Date;
  /** The BMS's `ip:port` when it gave its address on the local network; null for a device or a remote network. */
  address: string | null;
  /** As written: a device instance, or a network number and MAC. */
  recipient: { device: number } | { network: number; mac: number[] };
  processId: number;
  confirmed: boolean;
  transitions: BACNetBitString;
}

const FIELDS_PER_DESTINATION = 7;
const invalid = (): BacnetError => ({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.INVALID_DATA_TYPE });

/** A BACnet/IP MAC (4 octets of IPv4, 2 of port) as `ip:port`. */
function ipOf(mac: number[]): string | null {
  if (mac.length !== 6) return null;
  return `${mac.slice(0, 4).join('.')}:${(mac[4]! << 8) | mac[5]!}`;
}

/** The octets of a value the stack left encoded (a Buffer, or its JSON form). */
function octets(value: unknown): number[] | null {
  if (Buffer.isBuffer(value)) return [...value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return value;
  return null;
}

function recipientOf(data: BACNetAppData): Destination['recipient'] | null {
  if (data.type === ApplicationTag.OBJECTIDENTIFIER) {
    const id = data.value as { type: number; instance: number };
    return id.type === ObjectType.DEVICE ? { device: id.instance } : null;
  }
  // [1] BACnetAddress: the stack decodes the context-tagged sequence into its two parts.
  if (data.type === ApplicationTag.CONTEXT_SPECIFIC_DECODED && Array.isArray(data.value) && data.value.length === 2) {
    const [network, mac] = data.value as BACNetAppData[];
    const macOctets = octets(mac?.value);
    if (network?.type !== ApplicationTag.UNSIGNED_INTEGER || !macOctets) return null;
    return { network: Number(network.value), mac: macOctets };
  }
  return null;
}

/**
 * A written Recipient_List, from the values the stack decoded (seven per BACnetDestination: valid days, from
 * time, to time, recipient, process identifier, confirmed, transitions), or the error the write is refused with.
 */
export function parseRecipientList(values: readonly BACNetAppData[]): Destination[] | BacnetError {
  if (values.length % FIELDS_PER_DESTINATION !== 0) return invalid();
  const list: Destination[] = [];
  for (let i = 0; i < values.length; i += FIELDS_PER_DESTINATION) {
    const [days, from, to, recipientData, process, confirmed, transitions] = values.slice(i, i + FIELDS_PER_DESTINATION);
    if (
      days?.type !== ApplicationTag.BIT_STRING ||
      from?.type !== ApplicationTag.TIME ||
      to?.type !== ApplicationTag.TIME ||
      process?.type !== ApplicationTag.UNSIGNED_INTEGER ||
      confirmed?.type !== ApplicationTag.BOOLEAN ||
      transitions?.type !== ApplicationTag.BIT_STRING
    )
      return invalid();
    const recipient = recipientData && recipientOf(recipientData);
    if (!recipient) return invalid();
    list.push({
      validDays: days.value as BACNetBitString,
      fromTime: new Date(from.value as Date),
      toTime: new Date(to.value as Date),
      recipient,
      address: 'mac' in recipient && recipient.network === 0 ? ipOf(recipient.mac) : null,
      processId: Number(process.value),
      confirmed: Boolean(confirmed.value),
      transitions: transitions.value as BACNetBitString,
    });
  }
  return list;
}

/** Whether a destination asked for this transition (its Transitions bit). */
export function wants(destination: Destination, transition: EventTransitionBits): boolean {
  return ((destination.transitions.value[0] ?? 0) >> transition) % 2 === 1;
}

/** Recipient_List as BACnet encodes it; the stack has no encoding of BACnetDestination, so it is written here. */
export function encodeRecipientList(buffer: EncodeBuffer, list: readonly Destination[]) {
  for (const d of list) {
    asn1.encodeApplicationBitstring(buffer, d.validDays);
    asn1.encodeApplicationTime(buffer, d.fromTime);
    asn1.encodeApplicationTime(buffer, d.toTime);
    if ('device' in d.recipient) asn1.encodeContextObjectId(buffer, 0, ObjectType.DEVICE, d.recipient.device);
    else {
      asn1.encodeOpeningTag(buffer, 1);
      asn1.encodeApplicationUnsigned(buffer, d.recipient.network);
      asn1.encodeApplicationOctetString(buffer, d.recipient.mac, 0, d.recipient.mac.length);
      asn1.encodeClosingTag(buffer, 1);
    }
    asn1.encodeApplicationUnsigned(buffer, d.processId);
    asn1.encodeApplicationBoolean(buffer, d.confirmed);
    asn1.encodeApplicationBitstring(buffer, d.transitions);
  }
}

/** A destination as JSON (its times as ISO strings), to keep Recipient_List in the database. */
export type StoredDestination = Omit<Destination, 'fromTime' | 'toTime'> & { fromTime: string; toTime: string };

export const storedDestination = (d: Destination): StoredDestination => ({
  ...d,
  fromTime: d.fromTime.toISOString(),
  toTime: d.toTime.toISOString(),
});

export const destinationOf = (d: StoredDestination): Destination => ({ ...d, fromTime: new Date(d.fromTime), toTime: new Date(d.toTime) });
