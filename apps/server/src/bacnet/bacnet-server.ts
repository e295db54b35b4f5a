import bacnetModule, {
  ASN1_ARRAY_ALL,
  ApplicationTag,
  ConfirmedServiceChoice,
  ErrorClass,
  ErrorCode,
  EventState,
  EventType,
  NotifyType,
  NpduControlPriority,
  ObjectType,
  PduType,
  PropertyIdentifier as P,
  PropertyStates,
  Segmentation,
  StatusFlags,
  StatusFlagsBitString,
  TimeStamp,
  type BACNetAddress,
  type BACNetAppData,
  type BACNetObjectID,
  type BACNetReadAccess,
} from '@bacnet-js/client';
import apduModule from '@bacnet-js/client/dist/lib/apdu.js';
import asn1Module from '@bacnet-js/client/dist/lib/asn1.js';
import npduModule from '@bacnet-js/client/dist/lib/npdu.js';
import type { FastifyBaseLogger } from 'fastify';
import {
  ACK_REQUIRED,
  encodeRecipientList,
  EVENT_PRIORITIES,
  eventStateOf,
  initialRecord,
  NOTIFICATION_CLASS,
  parseRecipientList,
  reportsEvents,
  transitionOf,
  wants,
  type Destination,
  type EventRecord,
} from './events.ts';
import { STATE_TEXTS, type BacnetObject } from './object-model.ts';
import { PriorityArray, PRIORITIES } from './priority-array.ts';
import {
  errorOf,
  propertiesOf,
  readDeviceProperty,
  readNotificationClassProperty,
  readObjectProperty,
  MAX_APDU,
  VENDOR_ID,
  WRITABLE_BINARY,
  type BacnetError,
  type DeviceInfo,
  type PropertyResult,
} from './properties.ts';

// The package is CommonJS with an `exports.default`: Node's ESM import answers the module object around it.
export const BACnetClient = (bacnetModule as unknown as { default?: typeof bacnetModule }).default ?? bacnetModule;
export type Client = InstanceType<typeof bacnetModule>;
// The stack's encoders, for the one answer it cannot encode itself (Recipient_List).
const cjs = <T>(m: T): T => (m as { default?: T }).default ?? m;
const apdu = cjs(apduModule);
const asn1 = cjs(asn1Module);
const npdu = cjs(npduModule);

/** A write the platform refused, as the BACnet error the client is answered. */
export class BacnetWriteError extends Error {
  constructor(
    readonly bacnet: BacnetError,
    message: string,
  ) {
    super(message);
  }
}

/** What the interface serves: the project's objects now, and commands to its lights. */
export interface BacnetSource {
  load(): Promise<{ deviceName: string; objects: BacnetObject[] }>;
  /**
   * Tells `changed` the objects after each change the source hears of between loads (the platform's change
   * events); answers the call that stops it. Without it, changes are seen at loads only.
   */
  watch?(changed: (loaded: { deviceName: string; objects: BacnetObject[] }) => void): () => void;
  /** Sets a group or light to a value (a percent, or 0/1 for on/off); throws BacnetWriteError when refused. */
  command(object: BacnetObject, value: number, from: string): Promise<void>;
}

/** Where Recipient_List is kept, so that it outlives this node (bacnet_recipients). */
export interface RecipientStore {
  load(): Promise<Destination[]>;
  save(list: readonly Destination[]): Promise<void>;
}

export interface BacnetServerOptions {
  port: number;
  interface: string;
  deviceInstance: number;
  readOnly: boolean;
  version: string;
  source: BacnetSource;
  /** Recipient_List is kept in memory only when none is given. */
  recipientStore?: RecipientStore;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
  /** How long a loaded object set answers reads before it is loaded again. */
  freshMs?: number;
  /**
   * How often the objects are loaded whole again while COV subscriptions are open or recipients listed: the
   * safety net under the source's change events, for what they do not carry (a group's new members).
   */
  reconcileMs?: number;
  /** Where the I-Am at start goes: the local broadcast unless given (tests give their client's address). */
  announceTo?: BACNetAddress;
}

const FRESH_MS = 1000;
const RECONCILE_MS = 30_000;
/** Open COV subscriptions at most, over every subscriber: each costs a comparison per change. */
export const MAX_SUBSCRIPTIONS = 2000;
/** Recipient_List entries at most: the list must fit one unsegmented answer. */
export const MAX_RECIPIENTS = 32;
/** Tries of a confirmed event notification before the recipient is given up for that event. */
const EVENT_TRIES = 3;

/** One SubscribeCOV: who is told, about what, until when, and what they were last told. */
interface Subscription {
  address: BACNetAddress;
  processId: number;
  objectId: BACNetObjectID;
  confirmed: boolean;
  /** Epoch ms; undefined for a subscription without lifetime (until cancelled). */
  expiresAt: number | undefined;
  lastSent: string;
}

const objectKey = (type: number, instance: number) => `${type}:${instance}`;

/** The Who-Is range includes this device (no range: every device). */
function inRange(instance: number, low: number | undefined, high: number | undefined): boolean {
  if (low === undefined || high === undefined) return true;
  return instance >= low && instance <= high;
}

/** The receiver of an answer: the sender, unicast, as it asked (never forwarded again). */
function replyTo(sender: BACNetAddress | undefined): BACNetAddress | undefined {
  return sender ? { ...sender, forwardedFrom: sender.forwardedFrom ?? undefined } : undefined;
}

/** The value of a write to Present_Value, or the error it is: a real 0-100 for a Lighting Output, on/off for a Binary one. */
function writtenValue(object: BacnetObject, data: BACNetAppData | undefined): number | null | BacnetError {
  if (!data || data.type === ApplicationTag.NULL) return null;
  if (object.command === 'level') {
    if (data.type !== ApplicationTag.REAL && data.type !== ApplicationTag.UNSIGNED_INTEGER && data.type !== ApplicationTag.DOUBLE)
      return { errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.INVALID_DATA_TYPE };
    const value = Number(data.value);
    if (!Number.isFinite(value) || value < 0 || value > 100)
      return { errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.VALUE_OUT_OF_RANGE };
    return Math.round(value);
  }
  if (data.type !== ApplicationTag.ENUMERATED) return { errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.INVALID_DATA_TYPE };
  const value = Number(data.value);
  if (!WRITABLE_BINARY.has(value)) return { errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.VALUE_OUT_OF_RANGE };
  return value;
}

/**
 * The BACnet/IP device of one project (docs/bacnet.md): answers Who-Is with I-Am, ReadProperty and
 * ReadPropertyMultiple from the objects the source loads (kept `freshMs`), turns writes to a commandable object's
 * Present_Value at a priority into commands through the source, and notifies COV subscribers of changes to
 * Present_Value and Status_Flags (as the source tells its changes, and from a whole load every `reconcileMs` while any is open). Priority arrays and subscriptions
 * live in this process.
 */
export async function startBacnetServer(options: BacnetServerOptions) {
  const { source, logger, deviceInstance } = options;
  const freshMs = options.freshMs ?? FRESH_MS;
  const reconcileMs = options.reconcileMs ?? RECONCILE_MS;
  // Read before the socket opens: a store that cannot answer fails the start, with nothing to close.
  const kept = (await options.recipientStore?.load()) ?? [];
  // reuseAddr off: a second process on the same port is an error at start, not a silent sharer of requests.
  const client: Client = new BACnetClient({ port: options.port, interface: options.interface, apduTimeout: 6000, reuseAddr: false });
  const subscriptions = new Map<string, Subscription>();
  let covTimer: NodeJS.Timeout | undefined;
  const priorities = new Map<string, PriorityArray>();
  let loaded: { at: number; deviceName: string; objects: BacnetObject[]; byKey: Map<string, BacnetObject> } | undefined;
  let loading: Promise<NonNullable<typeof loaded>> | undefined;
  let databaseRevision = 1;
  let listKey = '';
  /** Recipient_List of the Notification Class, as kept in the store (docs/bacnet.md). */
  let recipients: Destination[] = kept;
  const events = new Map<string, EventRecord>();

  async function current(): Promise<NonNullable<typeof loaded>> {
    if (loaded && Date.now() - loaded.at < freshMs) return loaded;
    loading ??= source
      .load()
      .then(accept)
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  /** A set of objects loaded or changed: served from now, its faults and its subscribers' changes told. */
  function accept({ deviceName, objects }: { deviceName: string; objects: BacnetObject[] }, at = Date.now()) {
    const key = objects.map((o) => objectKey(o.objectType, o.instance)).join(',');
    if (key !== listKey) {
      if (listKey !== '') databaseRevision++;
      listKey = key;
    }
    const before = loaded?.byKey;
    loaded = { at, deviceName, objects, byKey: new Map(objects.map((o) => [objectKey(o.objectType, o.instance), o])) };
    trackEvents(objects);
    notifyChanged(loaded, before);
    return loaded;
  }

  function deviceInfo(deviceName: string): DeviceInfo {
    return {
      instance: deviceInstance,
      name: deviceName,
      description: 'Lumigrid lighting platform',
      databaseRevision,
      version: options.version,
      readOnly: options.readOnly,
    };
  }

  function isDevice(id: BACNetObjectID): boolean {
    // 4194303 addresses "this device" whatever its instance (clause 15.5).
    return id.type === ObjectType.DEVICE && (id.instance === deviceInstance || id.instance === 4_194_303);
  }

  const isNotificationClass = (id: BACNetObjectID) => id.type === ObjectType.NOTIFICATION_CLASS && id.instance === NOTIFICATION_CLASS;

  function read(state: NonNullable<typeof loaded>, id: BACNetObjectID, property: number, index: number): PropertyResult {
    if (isDevice(id)) return readDeviceProperty(deviceInfo(state.deviceName), state.objects, property, index);
    if (isNotificationClass(id)) {
      // Recipient_List is answered by ReadProperty alone: a ReadPropertyMultiple answer cannot carry it.
      if (property === P.RECIPIENT_LIST) return errorOf(ErrorClass.PROPERTY, ErrorCode.READ_ACCESS_DENIED);
      return readNotificationClassProperty(property, index);
    }
    const key = objectKey(id.type, id.instance);
    const object = state.byKey.get(key);
    if (!object) return errorOf(ErrorClass.OBJECT, ErrorCode.UNKNOWN_OBJECT);
    return readObjectProperty(object, priorities.get(key), property, index, events.get(key));
  }

  /**
   * Follows the event state of every reporting object (clause 13.2): a change is a transition, time-stamped,
   * waiting for an acknowledgement when the class asks for one, and notified to the recipients that want it. An
   * object seen for the first time starts in its state without a notification.
   */
  function trackEvents(objects: readonly BacnetObject[]) {
    const now = new Date();
    for (const object of objects) {
      if (!reportsEvents(object)) continue;
      const key = objectKey(object.objectType, object.instance);
      const toState = eventStateOf(object);
      const record = events.get(key);
      if (!record) {
        events.set(key, initialRecord(toState));
        continue;
      }
      if (record.state === toState) continue;
      const fromState = record.state;
      const transition = transitionOf(toState);
      record.state = toState;
      record.timeStamps[transition] = now;
      record.acked[transition] = !ACK_REQUIRED[transition];
      sendEvent(object, fromState, toState, now);
    }
  }

  function sendEvent(object: BacnetObject, fromState: EventState, toState: EventState, at: Date) {
    const transition = transitionOf(toState);
    const flags = toState === EventState.FAULT ? new StatusFlagsBitString(StatusFlags.FAULT) : new StatusFlagsBitString();
    const state = STATE_TEXTS[object.value - 1] ?? '';
    for (const destination of recipients) {
      if (!destination.address || !wants(destination, transition)) continue;
      const notification = {
        processId: destination.processId,
        initiatingObjectId: { type: ObjectType.DEVICE, instance: deviceInstance },
        eventObjectId: { type: object.objectType, instance: object.instance },
        timeStamp: { type: TimeStamp.DATETIME, value: at },
        notificationClass: NOTIFICATION_CLASS,
        priority: EVENT_PRIORITIES[transition]!,
        // CHANGE_OF_RELIABILITY has no encoding in the stack: the state object's own algorithm, change of state, carries the fault.
        eventType: EventType.CHANGE_OF_STATE,
        messageText: `${object.name}: ${state}`,
        notifyType: NotifyType.ALARM,
        ackRequired: ACK_REQUIRED[transition]!,
        fromState,
        toState,
        changeOfStateNewState: { type: PropertyStates.UNSIGNED_VALUE, state: object.value },
        changeOfStateStatusFlags: flags,
      };
      const receiver = { address: destination.address };
      if (!destination.confirmed) {
        client.unconfirmedEventNotification(receiver, notification);
        continue;
      }
      void (async () => {
        for (let tryNumber = 1; tryNumber <= EVENT_TRIES; tryNumber++) {
          try {
            await client.confirmedEventNotification(receiver, notification);
            return;
          } catch (err) {
            if (tryNumber === EVENT_TRIES) logger.warn({ err, to: destination.address }, 'BACnet event notification not acknowledged');
          }
        }
      })();
    }
  }

  /** Recipient_List answered by hand: the stack has no encoding of BACnetDestination. */
  function recipientListResponse(receiver: BACNetAddress, invokeId: number) {
    const buffer = { buffer: Buffer.alloc(MAX_APDU + 64), offset: receiver.forwardedFrom ? 10 : 4 };
    npdu.encode(buffer, NpduControlPriority.NORMAL_MESSAGE, receiver);
    apdu.encodeComplexAck(buffer, PduType.COMPLEX_ACK, ConfirmedServiceChoice.READ_PROPERTY, invokeId);
    asn1.encodeContextObjectId(buffer, 0, ObjectType.NOTIFICATION_CLASS, NOTIFICATION_CLASS);
    asn1.encodeContextEnumerated(buffer, 1, P.RECIPIENT_LIST);
    asn1.encodeOpeningTag(buffer, 3);
    encodeRecipientList(buffer, recipients);
    asn1.encodeClosingTag(buffer, 3);
    client.sendBvlc(receiver, buffer);
  }

  /** Answers a confirmed request; a failure to load becomes an error answer, never a crash or silence. */
  function answer(sender: BACNetAddress | undefined, service: number, invokeId: number | undefined, run: () => Promise<void>) {
    run().catch((err: unknown) => {
      logger.warn({ err, service }, 'BACnet request failed');
      if (sender && invokeId !== undefined)
        client.errorResponse(replyTo(sender)!, service, invokeId, ErrorClass.DEVICE, ErrorCode.OPERATIONAL_PROBLEM);
    });
  }

  client.on('error', (err) => logger.warn({ err }, 'BACnet/IP socket error'));

  client.on('whoIs', (content) => {
    const sender = content.header?.sender;
    if (!sender || !inRange(deviceInstance, content.payload.lowLimit, content.payload.highLimit)) return;
    client.iAmResponse(replyTo(sender)!, deviceInstance, Segmentation.NO_SEGMENTATION, VENDOR_ID);
  });

  client.on('readProperty', (content) => {
    const sender = content.header?.sender;
    const { objectId, property } = content.payload;
    answer(sender, ConfirmedServiceChoice.READ_PROPERTY, content.invokeId, async () => {
      if (isNotificationClass(objectId) && property.id === P.RECIPIENT_LIST) {
        if (property.index !== ASN1_ARRAY_ALL)
          return client.errorResponse(
            replyTo(sender)!,
            ConfirmedServiceChoice.READ_PROPERTY,
            content.invokeId!,
            ErrorClass.PROPERTY,
            ErrorCode.PROPERTY_IS_NOT_AN_ARRAY,
          );
        return recipientListResponse(replyTo(sender)!, content.invokeId!);
      }
      const result = read(await current(), objectId, property.id, property.index);
      if ('error' in result)
        client.errorResponse(
          replyTo(sender)!,
          ConfirmedServiceChoice.READ_PROPERTY,
          content.invokeId!,
          result.error.errorClass,
          result.error.errorCode,
        );
      else
        sendOrAbort(sender, ConfirmedServiceChoice.READ_PROPERTY, content.invokeId!, () =>
          client.readPropertyResponse(replyTo(sender)!, content.invokeId!, objectId, property, result.values),
        );
    });
  });

  client.on('readPropertyMultiple', (content) => {
    const sender = content.header?.sender;
    answer(sender, ConfirmedServiceChoice.READ_PROPERTY_MULTIPLE, content.invokeId, async () => {
      const state = await current();
      const results: BACNetReadAccess[] = content.payload.properties.map(({ objectId, properties }) => {
        const type = isDevice(objectId) ? ObjectType.DEVICE : objectId.type;
        const wanted = properties.flatMap((p) =>
          p.id === P.ALL || p.id === P.REQUIRED || p.id === P.OPTIONAL
            ? propertiesOf(type).map((id) => ({ id, index: ASN1_ARRAY_ALL }))
            : [{ id: p.id, index: p.index }],
        );
        const id = isDevice(objectId) ? { type: ObjectType.DEVICE, instance: deviceInstance } : objectId;
        return {
          objectId: id,
          values: wanted.map((p) => {
            const result = read(state, objectId, p.id, p.index);
            return {
              property: p,
              value: 'error' in result ? [{ value: { type: 'BacnetError', ...result.error } }] : result.values,
            };
          }),
        };
      });
      sendOrAbort(sender, ConfirmedServiceChoice.READ_PROPERTY_MULTIPLE, content.invokeId!, () =>
        client.readPropertyMultipleResponse(replyTo(sender)!, content.invokeId!, results),
      );
    });
  });

  client.on('writeProperty', (content) => {
    const sender = content.header?.sender;
    const service = ConfirmedServiceChoice.WRITE_PROPERTY;
    const invokeId = content.invokeId!;
    const refuse = (e: BacnetError) => client.errorResponse(replyTo(sender)!, service, invokeId, e.errorClass, e.errorCode);
    answer(sender, service, invokeId, async () => {
      const { objectId, value } = content.payload;
      if (isNotificationClass(objectId)) {
        if (value.property.id !== P.RECIPIENT_LIST)
          return refuse({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.WRITE_ACCESS_DENIED });
        const list = parseRecipientList(value.value as BACNetAppData[]);
        if (!Array.isArray(list)) return refuse(list);
        if (list.length > MAX_RECIPIENTS)
          return refuse({ errorClass: ErrorClass.RESOURCES, errorCode: ErrorCode.NO_SPACE_TO_WRITE_PROPERTY });
        // The states as they are now are the ones a transition is told from.
        await current();
        // Kept before it is acknowledged: a list the BMS was told is written survives a restart or a take-over.
        await options.recipientStore?.save(list);
        recipients = list;
        client.simpleAckResponse(replyTo(sender)!, service, invokeId);
        logger.info({ recipients: list.length, from: sender?.address }, 'BACnet Recipient_List written');
        // Reconciled from now on, for a fault no event carried.
        scheduleCov();
        return;
      }
      const state = await current();
      const object = isDevice(objectId) ? undefined : state.byKey.get(objectKey(objectId.type, objectId.instance));
      if (!isDevice(objectId) && !object) return refuse({ errorClass: ErrorClass.OBJECT, errorCode: ErrorCode.UNKNOWN_OBJECT });
      if (!object?.command || value.property.id !== P.PRESENT_VALUE)
        return refuse({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.WRITE_ACCESS_DENIED });
      if (options.readOnly) return refuse({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.WRITE_ACCESS_DENIED });
      // The scene selector runs the written state's scene; nothing is kept at the priority (a run is an act, not
      // a level), so NULL does nothing and Present_Value stays the platform's last run.
      if (object.command === 'scene') {
        const data = value.value[0] as BACNetAppData | undefined;
        if (data && data.type !== ApplicationTag.NULL) {
          if (data.type !== ApplicationTag.UNSIGNED_INTEGER)
            return refuse({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.INVALID_DATA_TYPE });
          const chosen = Number(data.value);
          if (!object.sceneIds?.[chosen - 1]) return refuse({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.VALUE_OUT_OF_RANGE });
          try {
            await source.command(object, chosen, sender?.address ?? '');
          } catch (error) {
            if (error instanceof BacnetWriteError) return refuse(error.bacnet);
            throw error;
          }
          loaded = undefined;
        }
        return client.simpleAckResponse(replyTo(sender)!, service, invokeId);
      }
      // No priority given is the lowest, 16 (clause 15.9.1.1.5).
      const priority = value.priority >= 1 && value.priority <= PRIORITIES ? value.priority : 16;
      if (priority === 6) return refuse({ errorClass: ErrorClass.PROPERTY, errorCode: ErrorCode.WRITE_ACCESS_DENIED });
      const written = writtenValue(object, value.value[0] as BACNetAppData | undefined);
      if (written !== null && typeof written === 'object') return refuse(written);
      const key = objectKey(object.objectType, object.instance);
      const array = priorities.get(key) ?? new PriorityArray();
      const before = [...array.slots];
      const command = array.write(priority, written);
      priorities.set(key, array);
      if (command !== undefined) {
        try {
          await source.command(object, command, sender?.address ?? '');
        } catch (error) {
          // A write that did not reach the lights leaves the priority array as it was.
          before.forEach((slot, i) => (array.slots[i] = slot));
          if (error instanceof BacnetWriteError) return refuse(error.bacnet);
          throw error;
        }
      }
      if (array.isEmpty()) priorities.delete(key);
      client.simpleAckResponse(replyTo(sender)!, service, invokeId);
      // Present_Value moved with the priority array: its subscribers hear it now, not when the lights report.
      for (const subscription of subscriptions.values())
        if (objectKey(subscription.objectId.type, subscription.objectId.instance) === key) notify(subscription, object);
    });
  });

  /** Present_Value and Status_Flags, what a COV notification of every object type here carries (clause 13.1). */
  function covValues(object: BacnetObject) {
    const array = priorities.get(objectKey(object.objectType, object.instance));
    return [P.PRESENT_VALUE, P.STATUS_FLAGS].map((id) => {
      const result = readObjectProperty(object, array, id, ASN1_ARRAY_ALL);
      return { property: { id, index: ASN1_ARRAY_ALL }, value: 'values' in result ? result.values : [] };
    });
  }

  function notify(subscription: Subscription, object: BacnetObject) {
    const values = covValues(object);
    const sent = JSON.stringify(values);
    if (sent === subscription.lastSent) return;
    subscription.lastSent = sent;
    const remaining = subscription.expiresAt === undefined ? 0 : Math.max(0, Math.round((subscription.expiresAt - Date.now()) / 1000));
    if (subscription.confirmed)
      client
        .confirmedCOVNotification(subscription.address, subscription.objectId, subscription.processId, deviceInstance, remaining, values)
        .catch((err: unknown) => logger.debug({ err, to: subscription.address.address }, 'COV notification not acknowledged'));
    else
      client.unconfirmedCOVNotification(
        subscription.address,
        subscription.processId,
        deviceInstance,
        subscription.objectId,
        remaining,
        values,
      );
  }

  /** Tells every subscriber whose object changed (a notification is sent only when its values differ); drops expired subscriptions. */
  function notifyChanged(state: NonNullable<typeof loaded>, before: ReadonlyMap<string, BacnetObject> | undefined) {
    const now = Date.now();
    for (const [key, subscription] of subscriptions) {
      const at = objectKey(subscription.objectId.type, subscription.objectId.instance);
      const object = state.byKey.get(at);
      if (!object || (subscription.expiresAt !== undefined && subscription.expiresAt <= now)) {
        subscriptions.delete(key);
        continue;
      }
      // Present_Value and Status_Flags come from these two (and the priority array, whose writes notify
      // themselves): an object that kept both is not encoded again, which at 50 changes a second is most of them.
      const was = before?.get(at);
      if (was && was.value === object.value && was.reliability === object.reliability) continue;
      notify(subscription, object);
    }
  }

  /** The slow whole load while anyone listens: changes no event carried are told within `reconcileMs`. */
  function scheduleCov() {
    if (covTimer || (subscriptions.size === 0 && recipients.length === 0)) return;
    covTimer = setTimeout(() => {
      covTimer = undefined;
      loaded = undefined;
      current()
        .catch((err: unknown) => logger.warn({ err }, 'BACnet reconcile failed'))
        .finally(scheduleCov);
    }, reconcileMs);
  }

  client.on('subscribeCov', (content) => {
    const sender = content.header?.sender;
    const service = ConfirmedServiceChoice.SUBSCRIBE_COV;
    const invokeId = content.invokeId!;
    const refuse = (e: BacnetError) => client.errorResponse(replyTo(sender)!, service, invokeId, e.errorClass, e.errorCode);
    answer(sender, service, invokeId, async () => {
      const payload = content.payload as typeof content.payload & { cancellationRequest?: boolean };
      const { monitoredObjectId: objectId, subscriberProcessId: processId } = payload;
      const object = (await current()).byKey.get(objectKey(objectId.type, objectId.instance));
      if (!object) return refuse({ errorClass: ErrorClass.OBJECT, errorCode: ErrorCode.UNKNOWN_OBJECT });
      const key = `${sender?.address ?? ''}|${processId}|${objectKey(objectId.type, objectId.instance)}`;
      if (payload.cancellationRequest) {
        subscriptions.delete(key);
        return client.simpleAckResponse(replyTo(sender)!, service, invokeId);
      }
      if (!subscriptions.has(key) && subscriptions.size >= MAX_SUBSCRIPTIONS)
        return refuse({ errorClass: ErrorClass.RESOURCES, errorCode: ErrorCode.NO_SPACE_TO_ADD_LIST_ELEMENT });
      const subscription: Subscription = {
        address: replyTo(sender)!,
        processId,
        objectId: { type: objectId.type, instance: objectId.instance },
        confirmed: payload.issueConfirmedNotifications,
        expiresAt: payload.lifetime > 0 ? Date.now() + payload.lifetime * 1000 : undefined,
        lastSent: '',
      };
      subscriptions.set(key, subscription);
      client.simpleAckResponse(replyTo(sender)!, service, invokeId);
      // A new subscription is told the current values at once (clause 13.14.1.3.1).
      notify(subscription, object);
      scheduleCov();
    });
  });

  client.on('alarmAcknowledge', (content) => {
    const sender = content.header?.sender;
    const service = ConfirmedServiceChoice.ACKNOWLEDGE_ALARM;
    const invokeId = content.invokeId!;
    answer(sender, service, invokeId, async () => {
      // The stack types this payload as a simple ack; it is AlarmAcknowledge.decode's answer.
      const payload = content.payload as unknown as { eventObjectId: BACNetObjectID; eventStateAcknowledged: number };
      const { eventObjectId: id, eventStateAcknowledged } = payload;
      await current();
      const record = events.get(objectKey(id.type, id.instance));
      if (!record) return client.errorResponse(replyTo(sender)!, service, invokeId, ErrorClass.OBJECT, ErrorCode.UNKNOWN_OBJECT);
      record.acked[transitionOf(eventStateAcknowledged as EventState)] = true;
      client.simpleAckResponse(replyTo(sender)!, service, invokeId);
    });
  });

  /** An answer too large for one APDU is refused: the stack does not segment, so the client reads less at a time. */
  function sendOrAbort(sender: BACNetAddress | undefined, service: number, invokeId: number, send: () => void) {
    try {
      send();
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      client.errorResponse(replyTo(sender)!, service, invokeId, ErrorClass.SERVICES, ErrorCode.ABORT_SEGMENTATION_NOT_SUPPORTED);
    }
  }

  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => {
      // The socket that could not bind is of no further use; closing one that never ran may itself throw.
      try {
        client.close();
      } catch {
        // already closed
      }
      reject(err);
    };
    client.once('error', failed);
    client.once('listening', () => {
      client.off('error', failed);
      resolve();
    });
  });
  logger.info({ port: options.port, interface: options.interface, deviceInstance }, 'BACnet/IP interface listening');
  // Changes are told as the source hears them; a change before the first load is in that load.
  const unwatch = source.watch?.((changed) => {
    // A change keeps the age of the last whole load: reads still load again what events do not carry.
    if (loaded) accept(changed, loaded.at);
  });
  // A kept Recipient_List is served at once: its faults are followed from the start.
  scheduleCov();
  // Announced at once, so a BMS learns the device (and its new node after a take-over) without a Who-Is.
  // Given no receiver, the stack broadcasts to its port on the local network.
  client.iAmResponse(options.announceTo ?? null!, deviceInstance, Segmentation.NO_SEGMENTATION, VENDOR_ID);

  return {
    /** Loads the objects now (the next read sees the platform's latest). */
    refresh: () => {
      loaded = undefined;
      return current();
    },
    /** Open COV subscriptions (tests). */
    subscriptions: () => subscriptions.size,
    /** Recipient_List's length (tests). */
    recipients: () => recipients.length,
    close: () => {
      if (covTimer) clearTimeout(covTimer);
      covTimer = undefined;
      unwatch?.();
      subscriptions.clear();
      recipients = [];
      client.close();
    },
  };
}
export type BacnetServer = Awaited<ReturnType<typeof startBacnetServer>>;
