import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  COMMANDS,
  ReplyMessageSchema,
  commandMessageSchema,
  type CommandMessage,
  type CommandName,
  type CommandResult,
  type ReplyMessage,
} from './commands.ts';
import {
  EventMessageSchema,
  OnlineAckMessageSchema,
  ReportMessageSchema,
  StateMessageSchema,
  TelemetryMessageSchema,
  type EventMessage,
  type OnlineAckMessage,
  type ReportMessage,
  type StateMessage,
  type TelemetryMessage,
} from './messages.ts';
import { unsafeTextIn } from './text.ts';
import { parseTopic, type DownChannel, type UpChannel } from './topics.ts';

/** The largest payload either side accepts; a configuration of a full gateway fits with room to spare. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

const utf8 = new TextEncoder();

/** Why a message was refused. */
export type ProtocolErrorCode = 'unknown_topic' | 'too_large' | 'not_json' | 'invalid' | 'unknown_command';

/** A refused message: never thrown by decode, always answered, so a bad gateway cannot crash a reader. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The body type of each channel. */
export interface UpMessages {
  state: StateMessage;
  report: ReportMessage;
  telemetry: TelemetryMessage;
  event: EventMessage;
  reply: ReplyMessage;
}
export interface DownMessages {
  cmd: CommandMessage;
  config: CommandMessage & { name: 'config.apply' };
  ack: OnlineAckMessage;
}

const upValidators = {
  state: Compile(StateMessageSchema),
  report: Compile(ReportMessageSchema),
  telemetry: Compile(TelemetryMessageSchema),
  event: Compile(EventMessageSchema),
  reply: Compile(ReplyMessageSchema),
};
const ackValidator = Compile(OnlineAckMessageSchema);
interface Validator {
  Check(v: unknown): boolean;
  Errors(v: unknown): Iterable<{ instancePath: string; message: string }>;
}
const resultValidators = Object.fromEntries(
  Object.entries(COMMANDS).map(([name, c]) => [name, Compile(c.result as TSchema)]),
) as unknown as Record<CommandName, Validator>;
// One validator per command, so an error names the field of that command rather than a union branch.
const commandValidators = Object.fromEntries(
  Object.keys(COMMANDS).map((name) => [name, Compile(commandMessageSchema(name as CommandName))]),
) as unknown as Record<CommandName, Validator>;

function checkCommand(value: unknown): Decoded<CommandMessage> {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  if (typeof name !== 'string' || !Object.hasOwn(COMMANDS, name)) {
    return { ok: false, error: new ProtocolError('unknown_command', `unknown command name ${JSON.stringify(name)?.slice(0, 80)}`) };
  }
  return check(commandValidators[name as CommandName], value, `command ${name}`) as Decoded<CommandMessage>;
}

/** An up message with the gateway it came from, discriminated by channel. */
export type DecodedUp = { [C in UpChannel]: { mac: string; channel: C; message: UpMessages[C] } }[UpChannel];
export type DecodedDown = { [C in DownChannel]: { mac: string; channel: C; message: DownMessages[C] } }[DownChannel];

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: ProtocolError };

function firstError(validator: Validator, value: unknown): string {
  for (const e of validator.Errors(value)) return `${e.instancePath || '/'} ${e.message}`;
  return 'does not match the schema';
}

function parseJson(payload: Uint8Array | string): Decoded<unknown> {
  const size = typeof payload === 'string' ? utf8.encode(payload).byteLength : payload.byteLength;
  if (size > MAX_PAYLOAD_BYTES)
    return { ok: false, error: new ProtocolError('too_large', `payload of ${size} bytes exceeds ${MAX_PAYLOAD_BYTES}`) };
  try {
    const text = typeof payload === 'string' ? payload : new TextDecoder('utf-8', { fatal: true }).decode(payload);
    const value = JSON.parse(text) as unknown;
    const unsafe = unsafeTextIn(value);
    if (unsafe)
      return {
        ok: false,
        error: new ProtocolError('invalid', `payload holds a ${unsafe === 'control character' ? unsafe : 'value nested too deep'}`),
      };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: new ProtocolError('not_json', `payload is not UTF-8 JSON: ${(error as Error).message}`) };
  }
}

function check<S extends TSchema>(validator: Validator, value: unknown, what: string): Decoded<Static<S>> {
  if (validator.Check(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, error: new ProtocolError('invalid', `${what}: ${firstError(validator, value)}`) };
}

/** The topic of a message that travels in `direction`, and its payload as JSON, or why it is neither. */
function parseMessage<D extends 'up' | 'down'>(
  direction: D,
  topic: string,
  payload: Uint8Array | string,
): Decoded<{ parsed: Extract<ReturnType<typeof parseTopic>, { direction: D }>; body: unknown }> {
  const parsed = parseTopic(topic);
  if (parsed?.direction !== direction)
    return { ok: false, error: new ProtocolError('unknown_topic', `not a gateway ${direction} topic: ${topic.slice(0, 128)}`) };
  const json = parseJson(payload);
  if (!json.ok) return json;
  return { ok: true, value: { parsed: parsed as Extract<ReturnType<typeof parseTopic>, { direction: D }>, body: json.value } };
}

/** Decodes what a gateway published. Never throws: a bad topic or payload answers a ProtocolError. */
export function decodeUp(topic: string, payload: Uint8Array | string): Decoded<DecodedUp> {
  const frame = parseMessage('up', topic, payload);
  if (!frame.ok) return frame;
  const { parsed } = frame.value;
  const body = check(upValidators[parsed.channel], frame.value.body, `up/${parsed.channel}`);
  if (!body.ok) return body;
  const state = body.value as StateMessage;
  if (parsed.channel === 'state' && state.state === 'online' && state.info.mac !== parsed.mac) {
    return { ok: false, error: new ProtocolError('invalid', `up/state: info.mac ${state.info.mac} is not the topic's ${parsed.mac}`) };
  }
  return { ok: true, value: { mac: parsed.mac, channel: parsed.channel, message: body.value } as DecodedUp };
}

/** Decodes what the cloud sent a gateway. Never throws. */
export function decodeDown(topic: string, payload: Uint8Array | string): Decoded<DecodedDown> {
  const frame = parseMessage('down', topic, payload);
  if (!frame.ok) return frame;
  const { parsed } = frame.value;
  if (parsed.channel === 'ack') {
    const ack = check(ackValidator, frame.value.body, 'down/ack');
    return ack.ok ? { ok: true, value: { mac: parsed.mac, channel: 'ack', message: ack.value as OnlineAckMessage } } : ack;
  }
  const body = checkCommand(frame.value.body);
  if (!body.ok) return body;
  const message = body.value as CommandMessage;
  const onConfig = message.name === 'config.apply';
  if (onConfig !== (parsed.channel === 'config'))
    return { ok: false, error: new ProtocolError('invalid', `command ${message.name} does not travel on down/${parsed.channel}`) };
  return { ok: true, value: { mac: parsed.mac, channel: parsed.channel, message } as DecodedDown };
}

/** Checks a successful reply's result against the schema of the command it answers. */
export function decodeResult<N extends CommandName>(name: N, result: unknown): Decoded<CommandResult<N>> {
  return check(resultValidators[name], result, `result of ${name}`) as Decoded<CommandResult<N>>;
}

/**
 * Encodes an up message after checking it, so a bug in the sender is caught where it is made.
 * Throws ProtocolError: encoding an invalid message is a programming error, not input.
 */
export function encodeUp<C extends UpChannel>(channel: C, message: UpMessages[C]): string {
  const result = check(upValidators[channel], message, `up/${channel}`);
  if (!result.ok) throw result.error;
  return sized(JSON.stringify(message));
}

/** Encodes a command for down/cmd or down/config after checking it. Throws ProtocolError when invalid. */
export function encodeCommand(message: CommandMessage): string {
  const result = checkCommand(message);
  if (!result.ok) throw result.error;
  return sized(JSON.stringify(message));
}

/** Encodes the cloud's answer to an online state for down/ack. Throws ProtocolError when invalid. */
export function encodeOnlineAck(message: OnlineAckMessage): string {
  const result = check(ackValidator, message, 'down/ack');
  if (!result.ok) throw result.error;
  return sized(JSON.stringify(message));
}

/** Answers the JSON text (MQTT clients take strings); works in browsers too, so no Buffer. */
function sized(text: string): string {
  const size = utf8.encode(text).byteLength;
  if (size > MAX_PAYLOAD_BYTES) throw new ProtocolError('too_large', `message of ${size} bytes exceeds ${MAX_PAYLOAD_BYTES}`);
  return text;
}
