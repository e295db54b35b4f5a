import {
  ApplicationTag,
  ASN1_ARRAY_ALL,
  BinaryLightingPV,
  EngineeringUnits,
  ErrorClass,
  ErrorCode,
  EventState,
  LightingInProgress,
  ObjectType,
  ObjectTypesSupported,
  ObjectTypesSupportedBitString,
  PropertyIdentifier as P,
  Reliability,
  Segmentation,
  ServicesSupported,
  ServicesSupportedBitString,
  StatusFlags,
  StatusFlagsBitString,
  DeviceStatus,
  NotifyType,
  TimeStamp,
  type BACNetAppData,
} from '@bacnet-js/client';
import { ACK_REQUIRED, EVENT_PRIORITIES, NOTIFICATION_CLASS, transitionBits, type EventRecord } from './events.ts';
import { STATE_TEXTS, type BacnetObject, type ObjectReliability } from './object-model.ts';
import type { PriorityArray } from './priority-array.ts';

export interface BacnetError {
  errorClass: ErrorClass;
  errorCode: ErrorCode;
}

export type PropertyResult = { values: BACNetAppData[] } | { error: BacnetError };

/** What the Device object says of the interface itself. */
export interface DeviceInfo {
  instance: number;
  name: string;
  description: string;
  /** Raised whenever the object list changes, so a BMS knows to read it again. */
  databaseRevision: number;
  /** The platform's version. */
  version: string;
  /** BACNET_READ_ONLY: System_Status says operational-read-only. */
  readOnly?: boolean;
}

/** No vendor identifier is registered for Lumigrid with ASHRAE; 0 is what unregistered implementations answer. */
export const VENDOR_ID = 0;
/** The largest APDU the stack sends and takes (BACnet/IP over Ethernet); nothing is segmented. */
export const MAX_APDU = 1476;
/** BACnet protocol revision 14 brought the Lighting Output and Binary Lighting Output objects. */
const PROTOCOL_REVISION = 14;

const real = (value: number): BACNetAppData => ({ type: ApplicationTag.REAL, value });
const unsigned = (value: number): BACNetAppData => ({ type: ApplicationTag.UNSIGNED_INTEGER, value });
const enumerated = (value: number): BACNetAppData => ({ type: ApplicationTag.ENUMERATED, value });
const bool = (value: boolean): BACNetAppData => ({ type: ApplicationTag.BOOLEAN, value });
const text = (value: string): BACNetAppData => ({ type: ApplicationTag.CHARACTER_STRING, value });
const objectId = (type: number, instance: number): BACNetAppData => ({ type: ApplicationTag.OBJECTIDENTIFIER, value: { type, instance } });
const nul = (): BACNetAppData => ({ type: ApplicationTag.NULL, value: null });
const bits = (value: { bitsUsed: number; value: number[] }): BACNetAppData => ({ type: ApplicationTag.BIT_STRING, value });

export const errorOf = (errorClass: ErrorClass, errorCode: ErrorCode): { error: BacnetError } => ({ error: { errorClass, errorCode } });
const unknownProperty = () => errorOf(ErrorClass.PROPERTY, ErrorCode.UNKNOWN_PROPERTY);

const COMMON = [P.OBJECT_IDENTIFIER, P.OBJECT_NAME, P.OBJECT_TYPE, P.DESCRIPTION, P.PROPERTY_LIST];
const STATUS = [P.STATUS_FLAGS, P.EVENT_STATE, P.RELIABILITY, P.OUT_OF_SERVICE];

/** The properties each object type answers, in Property_List order (the four common ones are not listed there). */
const PROPERTIES: Record<number, readonly number[]> = {
  [ObjectType.DEVICE]: [
    ...COMMON,
    P.SYSTEM_STATUS,
    P.VENDOR_NAME,
    P.VENDOR_IDENTIFIER,
    P.MODEL_NAME,
    P.FIRMWARE_REVISION,
    P.APPLICATION_SOFTWARE_VERSION,
    P.PROTOCOL_VERSION,
    P.PROTOCOL_REVISION,
    P.PROTOCOL_SERVICES_SUPPORTED,
    P.PROTOCOL_OBJECT_TYPES_SUPPORTED,
    P.OBJECT_LIST,
    P.MAX_APDU_LENGTH_ACCEPTED,
    P.SEGMENTATION_SUPPORTED,
    P.APDU_TIMEOUT,
    P.NUMBER_OF_APDU_RETRIES,
    P.DEVICE_ADDRESS_BINDING,
    P.DATABASE_REVISION,
  ],
  [ObjectType.LIGHTING_OUTPUT]: [
    ...COMMON,
    P.PRESENT_VALUE,
    P.TRACKING_VALUE,
    P.IN_PROGRESS,
    ...STATUS,
    P.BLINK_WARN_ENABLE,
    P.EGRESS_TIME,
    P.EGRESS_ACTIVE,
    P.DEFAULT_FADE_TIME,
    P.DEFAULT_RAMP_RATE,
    P.DEFAULT_STEP_INCREMENT,
    P.PRIORITY_ARRAY,
    P.RELINQUISH_DEFAULT,
    P.LIGHTING_COMMAND_DEFAULT_PRIORITY,
    P.CURRENT_COMMAND_PRIORITY,
  ],
  [ObjectType.BINARY_LIGHTING_OUTPUT]: [
    ...COMMON,
    P.PRESENT_VALUE,
    ...STATUS,
    P.BLINK_WARN_ENABLE,
    P.EGRESS_TIME,
    P.EGRESS_ACTIVE,
    P.PRIORITY_ARRAY,
    P.RELINQUISH_DEFAULT,
    P.CURRENT_COMMAND_PRIORITY,
  ],
  [ObjectType.ANALOG_INPUT]: [...COMMON, P.PRESENT_VALUE, ...STATUS, P.UNITS],
  [ObjectType.MULTI_STATE_VALUE]: [
    ...COMMON,
    P.PRESENT_VALUE,
    ...STATUS,
    P.NUMBER_OF_STATES,
    P.STATE_TEXT,
    P.NOTIFICATION_CLASS,
    P.EVENT_ENABLE,
    P.ACKED_TRANSITIONS,
    P.NOTIFY_TYPE,
    P.EVENT_TIME_STAMPS,
  ],
  [ObjectType.MULTI_STATE_OUTPUT]: [
    ...COMMON,
    P.PRESENT_VALUE,
    ...STATUS,
    P.NUMBER_OF_STATES,
    P.STATE_TEXT,
    P.PRIORITY_ARRAY,
    P.RELINQUISH_DEFAULT,
  ],
  [ObjectType.NOTIFICATION_CLASS]: [...COMMON, P.NOTIFICATION_CLASS, P.PRIORITY, P.ACK_REQUIRED, P.RECIPIENT_LIST],
};

/** The properties an object type answers; the wildcards ALL, REQUIRED and OPTIONAL of ReadPropertyMultiple expand to them. */
export function propertiesOf(objectType: number): readonly number[] {
  return PROPERTIES[objectType] ?? [];
}

/** Property_List leaves out the identifier, name, type and the list itself (clause 12.1.1.4.1). */
function propertyList(objectType: number): BACNetAppData[] {
  const left = new Set<number>([P.OBJECT_IDENTIFIER, P.OBJECT_NAME, P.OBJECT_TYPE, P.PROPERTY_LIST]);
  return propertiesOf(objectType)
    .filter((p) => !left.has(p))
    .map(enumerated);
}

const RELIABILITY: Record<ObjectReliability, Reliability> = {
  ok: Reliability.NO_FAULT_DETECTED,
  communicationFailure: Reliability.COMMUNICATION_FAILURE,
  unreliableOther: Reliability.UNRELIABLE_OTHER,
};

function statusFlags(object: BacnetObject) {
  return object.reliability === 'ok' ? new StatusFlagsBitString() : new StatusFlagsBitString(StatusFlags.FAULT);
}

/** A commandable object's Present_Value: the value in force at a priority, otherwise what the lights do now. */
function presentValue(object: BacnetObject, priorities: PriorityArray | undefined): BACNetAppData {
  const value = priorities?.inForce()?.value ?? object.value;
  if (object.objectType === ObjectType.BINARY_LIGHTING_OUTPUT) return enumerated(value);
  if (object.objectType === ObjectType.MULTI_STATE_VALUE || object.objectType === ObjectType.MULTI_STATE_OUTPUT) return unsigned(value);
  return real(value);
}

function slotValue(object: BacnetObject, slot: number | null): BACNetAppData {
  if (slot === null) return nul();
  return object.objectType === ObjectType.BINARY_LIGHTING_OUTPUT ? enumerated(slot) : real(slot);
}

/** A property's value, and whether it is an array (which an index then picks from). */
type Value = { scalar: BACNetAppData[] } | { array: BACNetAppData[] } | undefined;

/** A transition's time stamp; one that never happened is the sequence number 0. */
function timeStamp(at: Date | null): BACNetAppData {
  return {
    type: ApplicationTag.TIMESTAMP,
    value: at ? { type: TimeStamp.DATETIME, value: at } : { type: TimeStamp.SEQUENCE_NUMBER, value: 0 },
  };
}

/** The event-reporting properties of a device's state object (clause 12.18, intrinsic reporting). */
function eventValue(event: EventRecord | undefined, property: number): Value {
  switch (property) {
    case P.NOTIFICATION_CLASS:
      return { scalar: [unsigned(NOTIFICATION_CLASS)] };
    case P.EVENT_ENABLE:
      return { scalar: [bits(transitionBits([true, true, true]))] };
    case P.ACKED_TRANSITIONS:
      return { scalar: [bits(transitionBits(event?.acked ?? [true, true, true]))] };
    case P.NOTIFY_TYPE:
      return { scalar: [enumerated(NotifyType.ALARM)] };
    case P.EVENT_TIME_STAMPS:
      return { array: (event?.timeStamps ?? [null, null, null]).map(timeStamp) };
  }
  return undefined;
}

/**
 * The scene selector's states and commandability: a write runs a scene and is not kept, so every priority is
 * empty and Present_Value is the platform's last run.
 */
function sceneSelectorValue(object: BacnetObject, property: number): Value {
  const states = object.states ?? [];
  switch (property) {
    case P.NUMBER_OF_STATES:
      return { scalar: [unsigned(states.length)] };
    case P.STATE_TEXT:
      return { array: states.map((s) => text(s)) };
    case P.PRIORITY_ARRAY:
      return { array: new Array<BACNetAppData>(16).fill(nul()) };
    case P.RELINQUISH_DEFAULT:
      return { scalar: [unsigned(1)] };
  }
  return undefined;
}

function objectValue(object: BacnetObject, priorities: PriorityArray | undefined, property: number, event?: EventRecord): Value {
  const lighting = object.objectType === ObjectType.LIGHTING_OUTPUT;
  const binary = object.objectType === ObjectType.BINARY_LIGHTING_OUTPUT;
  const inForce = priorities?.inForce();
  switch (property) {
    case P.OBJECT_IDENTIFIER:
      return { scalar: [objectId(object.objectType, object.instance)] };
    case P.OBJECT_NAME:
      return { scalar: [text(object.name)] };
    case P.OBJECT_TYPE:
      return { scalar: [enumerated(object.objectType)] };
    case P.DESCRIPTION:
      return { scalar: [text(object.description)] };
    case P.PROPERTY_LIST:
      return { array: propertyList(object.objectType) };
    case P.PRESENT_VALUE:
      return { scalar: [presentValue(object, priorities)] };
    case P.TRACKING_VALUE:
      return lighting ? { scalar: [real(object.value)] } : undefined;
    case P.IN_PROGRESS:
      return lighting ? { scalar: [enumerated(LightingInProgress.IDLE)] } : undefined;
    case P.STATUS_FLAGS:
      return { scalar: [bits(statusFlags(object))] };
    case P.EVENT_STATE:
      return { scalar: [enumerated(event?.state ?? EventState.NORMAL)] };
    case P.RELIABILITY:
      return { scalar: [enumerated(RELIABILITY[object.reliability])] };
    case P.OUT_OF_SERVICE:
      return { scalar: [bool(false)] };
    case P.UNITS:
      return object.objectType === ObjectType.ANALOG_INPUT ? { scalar: [enumerated(object.units ?? EngineeringUnits.WATTS)] } : undefined;
    case P.NUMBER_OF_STATES:
      if (object.objectType === ObjectType.MULTI_STATE_OUTPUT) return sceneSelectorValue(object, property);
      return object.objectType === ObjectType.MULTI_STATE_VALUE ? { scalar: [unsigned(STATE_TEXTS.length)] } : undefined;
    case P.STATE_TEXT:
      if (object.objectType === ObjectType.MULTI_STATE_OUTPUT) return sceneSelectorValue(object, property);
      return object.objectType === ObjectType.MULTI_STATE_VALUE ? { array: STATE_TEXTS.map((s) => text(s)) } : undefined;
  }
  if (object.objectType === ObjectType.MULTI_STATE_VALUE) return eventValue(event, property);
  if (object.objectType === ObjectType.MULTI_STATE_OUTPUT) return sceneSelectorValue(object, property);
  if (!lighting && !binary) return undefined;
  switch (property) {
    case P.BLINK_WARN_ENABLE:
    case P.EGRESS_ACTIVE:
      return { scalar: [bool(false)] };
    case P.EGRESS_TIME:
      return { scalar: [unsigned(0)] };
    case P.PRIORITY_ARRAY:
      return { array: (priorities?.slots ?? new Array<null>(16).fill(null)).map((slot) => slotValue(object, slot)) };
    // Nothing is commanded when every priority is relinquished: the lights keep what the platform set (docs/bacnet.md).
    case P.RELINQUISH_DEFAULT:
      return { scalar: [slotValue(object, object.value)] };
    case P.CURRENT_COMMAND_PRIORITY:
      return { scalar: [inForce ? unsigned(inForce.priority) : nul()] };
  }
  if (!lighting) return undefined;
  switch (property) {
    case P.DEFAULT_FADE_TIME:
      return { scalar: [unsigned(0)] };
    case P.DEFAULT_RAMP_RATE:
      return { scalar: [real(100)] };
    case P.DEFAULT_STEP_INCREMENT:
      return { scalar: [real(1)] };
    case P.LIGHTING_COMMAND_DEFAULT_PRIORITY:
      return { scalar: [unsigned(16)] };
  }
  return undefined;
}

function deviceValue(device: DeviceInfo, objects: readonly BacnetObject[], property: number): Value {
  switch (property) {
    case P.OBJECT_IDENTIFIER:
      return { scalar: [objectId(ObjectType.DEVICE, device.instance)] };
    case P.OBJECT_NAME:
      return { scalar: [text(device.name)] };
    case P.OBJECT_TYPE:
      return { scalar: [enumerated(ObjectType.DEVICE)] };
    case P.DESCRIPTION:
      return { scalar: [text(device.description)] };
    case P.PROPERTY_LIST:
      return { array: propertyList(ObjectType.DEVICE) };
    case P.SYSTEM_STATUS:
      return { scalar: [enumerated(device.readOnly ? DeviceStatus.OPERATIONAL_READ_ONLY : DeviceStatus.OPERATIONAL)] };
    case P.VENDOR_NAME:
      return { scalar: [text('Lumigrid')] };
    case P.VENDOR_IDENTIFIER:
      return { scalar: [unsigned(VENDOR_ID)] };
    case P.MODEL_NAME:
      return { scalar: [text('Lumigrid BACnet/IP interface')] };
    case P.FIRMWARE_REVISION:
    case P.APPLICATION_SOFTWARE_VERSION:
      return { scalar: [text(device.version)] };
    case P.PROTOCOL_VERSION:
      return { scalar: [unsigned(1)] };
    case P.PROTOCOL_REVISION:
      return { scalar: [unsigned(PROTOCOL_REVISION)] };
    case P.PROTOCOL_SERVICES_SUPPORTED:
      return {
        scalar: [
          bits(
            new ServicesSupportedBitString(
              ServicesSupported.READ_PROPERTY,
              ServicesSupported.READ_PROPERTY_MULTIPLE,
              ServicesSupported.WRITE_PROPERTY,
              ServicesSupported.SUBSCRIBE_COV,
              ServicesSupported.WHO_IS,
              ServicesSupported.ACKNOWLEDGE_ALARM,
              ServicesSupported.CONFIRMED_EVENT_NOTIFICATION,
              ServicesSupported.UNCONFIRMED_EVENT_NOTIFICATION,
              ServicesSupported.I_AM,
            ),
          ),
        ],
      };
    case P.PROTOCOL_OBJECT_TYPES_SUPPORTED:
      return {
        scalar: [
          bits(
            new ObjectTypesSupportedBitString(
              ObjectTypesSupported.DEVICE,
              ObjectTypesSupported.ANALOG_INPUT,
              ObjectTypesSupported.MULTI_STATE_VALUE,
              ObjectTypesSupported.MULTI_STATE_OUTPUT,
              ObjectTypesSupported.LIGHTING_OUTPUT,
              ObjectTypesSupported.BINARY_LIGHTING_OUTPUT,
              ObjectTypesSupported.NOTIFICATION_CLASS,
            ),
          ),
        ],
      };
    case P.OBJECT_LIST:
      return {
        array: [
          objectId(ObjectType.DEVICE, device.instance),
          ...objects.map((o) => objectId(o.objectType, o.instance)),
          objectId(ObjectType.NOTIFICATION_CLASS, NOTIFICATION_CLASS),
        ],
      };
    case P.MAX_APDU_LENGTH_ACCEPTED:
      return { scalar: [unsigned(MAX_APDU)] };
    case P.SEGMENTATION_SUPPORTED:
      return { scalar: [enumerated(Segmentation.NO_SEGMENTATION)] };
    case P.APDU_TIMEOUT:
      return { scalar: [unsigned(6000)] };
    case P.NUMBER_OF_APDU_RETRIES:
      return { scalar: [unsigned(3)] };
    case P.DEVICE_ADDRESS_BINDING:
      return { array: [] };
    case P.DATABASE_REVISION:
      return { scalar: [unsigned(device.databaseRevision)] };
  }
  return undefined;
}

/** An array's element at `index` (0: its length), all of it (ASN1_ARRAY_ALL), or the error a scalar given an index is. */
function indexed(value: Value, index: number): PropertyResult {
  if (!value) return unknownProperty();
  if ('scalar' in value)
    return index === ASN1_ARRAY_ALL ? { values: value.scalar } : errorOf(ErrorClass.PROPERTY, ErrorCode.PROPERTY_IS_NOT_AN_ARRAY);
  if (index === ASN1_ARRAY_ALL) return { values: value.array };
  if (index === 0) return { values: [unsigned(value.array.length)] };
  const element = value.array[index - 1];
  return element ? { values: [element] } : errorOf(ErrorClass.PROPERTY, ErrorCode.INVALID_ARRAY_INDEX);
}

export function readObjectProperty(
  object: BacnetObject,
  priorities: PriorityArray | undefined,
  property: number,
  index: number,
  event?: EventRecord,
): PropertyResult {
  return indexed(objectValue(object, priorities, property, event), index);
}

/**
 * The Notification Class object's properties but Recipient_List, which the stack cannot encode: the server
 * answers that one itself (bacnet-server.ts).
 */
export function readNotificationClassProperty(property: number, index: number): PropertyResult {
  const value = ((): Value => {
    switch (property) {
      case P.OBJECT_IDENTIFIER:
        return { scalar: [objectId(ObjectType.NOTIFICATION_CLASS, NOTIFICATION_CLASS)] };
      case P.OBJECT_NAME:
        return { scalar: [text('Faults')] };
      case P.OBJECT_TYPE:
        return { scalar: [enumerated(ObjectType.NOTIFICATION_CLASS)] };
      case P.DESCRIPTION:
        return { scalar: [text('Device faults (offline, failure)')] };
      case P.PROPERTY_LIST:
        return { array: propertyList(ObjectType.NOTIFICATION_CLASS) };
      case P.NOTIFICATION_CLASS:
        return { scalar: [unsigned(NOTIFICATION_CLASS)] };
      case P.PRIORITY:
        return { array: EVENT_PRIORITIES.map(unsigned) };
      case P.ACK_REQUIRED:
        return { scalar: [bits(transitionBits(ACK_REQUIRED))] };
    }
    return undefined;
  })();
  return indexed(value, index);
}

export function readDeviceProperty(device: DeviceInfo, objects: readonly BacnetObject[], property: number, index: number): PropertyResult {
  return indexed(deviceValue(device, objects, property), index);
}

/** The binary lighting values a write may carry: on and off (warn, relinquish-after-warn and stop are not run). */
export const WRITABLE_BINARY = new Set<number>([BinaryLightingPV.OFF, BinaryLightingPV.ON]);
