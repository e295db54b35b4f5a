/**
 * A small STOMP 1.2 codec (https://stomp.github.io/stomp-specification-1.2.html): the frames a browser
 * sends are parsed from a byte stream that may carry several frames, partial frames and heart-beat EOLs;
 * the frames the server sends are serialised with escaped headers and a content-length.
 */

/** What the server accepts from a client. Anything else is a protocol error. */
export const CLIENT_COMMANDS = [
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];
export type ServerCommand = 'CONNECTED' | 'MESSAGE' | 'RECEIPT' | 'ERROR';

export interface StompFrame<C extends string = string> {
  command: C;
  /** Header names are case-sensitive; a repeated header keeps its first value (STOMP 1.2). */
  headers: Record<string, string>;
  body: string;
}

/** A frame the server cannot accept; the connection answers ERROR and closes. */
export class StompProtocolError extends Error {
  constructor(
    message: string,
    /** The receipt header of the offending frame, when it had one. */
    readonly receipt?: string,
  ) {
    super(message);
    this.name = 'StompProtocolError';
  }
}

export interface StompParserLimits {
  /** The largest frame (command, headers and body) a client may send, in bytes. */
  maxFrameBytes: number;
  /** The most headers one frame may carry. */
  maxHeaders: number;
}

export const DEFAULT_PARSER_LIMITS: StompParserLimits = { maxFrameBytes: 16 * 1024, maxHeaders: 32 };

const NUL = 0;
const LF = 0x0a;
const CR = 0x0d;

/** CONNECT and CONNECTED headers are not escaped, so a password may hold a colon (STOMP 1.2). */
const UNESCAPED_COMMANDS = new Set(['CONNECT', 'CONNECTED']);

function unescapeHeader(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(.?)/g, (_all, next: string) => {
    switch (next) {
      case 'r':
        return '\r';
      case 'n':
        return '\n';
      case 'c':
        return ':';
      case '\\':
        return '\\';
      default:
        throw new StompProtocolError(`undefined escape sequence \\${next} in a header`);
    }
  });
}

function escapeHeader(text: string): string {
  return text.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

/** What one chunk of input held: whole frames, and whether anything (a heart-beat included) arrived. */
export interface ParseResult {
  frames: Array<StompFrame<ClientCommand>>;
  heartBeats: number;
}

/**
 * An incremental parser for one connection. `push` throws StompProtocolError for a malformed or oversized
 * frame; the connection is then unusable, because the stream can no longer be framed reliably.
 */
export function createStompParser(limits: StompParserLimits = DEFAULT_PARSER_LIMITS) {
  let buffer: Buffer = Buffer.alloc(0);

  /** Reads one line starting at `from`; undefined when the line is not complete yet. */
  function readLine(from: number): { line: string; next: number } | undefined {
    const lf = buffer.indexOf(LF, from);
    if (lf < 0) return undefined;
    const end = lf > from && buffer[lf - 1] === CR ? lf - 1 : lf;
    return { line: buffer.toString('utf8', from, end), next: lf + 1 };
  }

  /** One frame from the start of the buffer, or undefined when more bytes are needed. */
  function parseOne(): { frame: StompFrame<ClientCommand>; size: number } | undefined {
    const commandLine = readLine(0);
    if (!commandLine) return undefined;
    const command = commandLine.line;
    if (!(CLIENT_COMMANDS as readonly string[]).includes(command)) {
      throw new StompProtocolError(`unknown command ${JSON.stringify(command.slice(0, 32))}`);
    }
    const headers: Record<string, string> = {};
    const raw = UNESCAPED_COMMANDS.has(command);
    let position = commandLine.next;
    let count = 0;
    for (;;) {
      const header = readLine(position);
      if (!header) return undefined;
      position = header.next;
      if (header.line === '') break;
      count += 1;
      if (count > limits.maxHeaders) throw new StompProtocolError(`more than ${limits.maxHeaders} headers`);
      const colon = header.line.indexOf(':');
      if (colon <= 0) throw new StompProtocolError('a header line without a name and a colon');
      const name = raw ? header.line.slice(0, colon) : unescapeHeader(header.line.slice(0, colon));
      const value = raw ? header.line.slice(colon + 1) : unescapeHeader(header.line.slice(colon + 1));
      if (!Object.hasOwn(headers, name)) headers[name] = value;
    }
    const lengthHeader = headers['content-length'];
    let bodyEnd: number;
    if (lengthHeader !== undefined) {
      if (!/^\d{1,9}$/.test(lengthHeader)) throw new StompProtocolError('content-length is not a number', headers.receipt);
      const length = Number(lengthHeader);
      if (position + length + 1 > limits.maxFrameBytes)
        throw new StompProtocolError(`frame larger than ${limits.maxFrameBytes} bytes`, headers.receipt);
      if (buffer.length < position + length + 1) return undefined;
      bodyEnd = position + length;
      if (buffer[bodyEnd] !== NUL) throw new StompProtocolError('the body is longer than its content-length', headers.receipt);
    } else {
      bodyEnd = buffer.indexOf(NUL, position);
      if (bodyEnd < 0) return undefined;
    }
    const body = buffer.toString('utf8', position, bodyEnd);
    return { frame: { command: command as ClientCommand, headers, body }, size: bodyEnd + 1 };
  }

  return {
    push(chunk: Buffer | string): ParseResult {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      buffer = buffer.length === 0 ? bytes : Buffer.concat([buffer, bytes]);
      const result: ParseResult = { frames: [], heartBeats: 0 };
      for (;;) {
        // EOLs between frames are heart-beats.
        let skip = 0;
        while (skip < buffer.length && (buffer[skip] === LF || (buffer[skip] === CR && buffer[skip + 1] === LF))) {
          if (buffer[skip] === CR) skip += 1;
          skip += 1;
          result.heartBeats += 1;
        }
        if (skip > 0) buffer = buffer.subarray(skip);
        if (buffer.length === 0) break;
        const parsed = parseOne();
        if (!parsed) {
          if (buffer.length > limits.maxFrameBytes) throw new StompProtocolError(`frame larger than ${limits.maxFrameBytes} bytes`);
          break;
        }
        if (parsed.size > limits.maxFrameBytes)
          throw new StompProtocolError(`frame larger than ${limits.maxFrameBytes} bytes`, parsed.frame.headers.receipt);
        result.frames.push(parsed.frame);
        buffer = buffer.subarray(parsed.size);
      }
      return result;
    },
  };
}

/** The text of a server frame: escaped headers (not for CONNECTED), content-length, the body and NUL. */
export function serializeFrame(frame: StompFrame<ServerCommand>): string {
  const raw = UNESCAPED_COMMANDS.has(frame.command);
  const lines: string[] = [frame.command];
  for (const [name, value] of Object.entries(frame.headers)) {
    if (name === 'content-length') continue;
    lines.push(raw ? `${name}:${value}` : `${escapeHeader(name)}:${escapeHeader(value)}`);
  }
  if (frame.body.length > 0) lines.push(`content-length:${Buffer.byteLength(frame.body, 'utf8')}`);
  return `${lines.join('\n')}\n\n${frame.body}\0`;
}

/** The heart-beat a side sends: one EOL. */
export const HEART_BEAT = '\n';

/**
 * Heart-beat negotiation of STOMP 1.2: each direction beats at the larger of what its sender can do and
 * what its receiver wants, and not at all when either side says 0. Answers milliseconds per direction.
 */
export function negotiateHeartBeat(
  clientHeader: string | undefined,
  server: { canSendMs: number; wantsReceiveMs: number },
): { serverSendsMs: number; clientSendsMs: number } {
  let cx = 0;
  let cy = 0;
  if (clientHeader !== undefined && clientHeader !== '') {
    const match = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(clientHeader);
    if (!match) throw new StompProtocolError('heart-beat must be two numbers: cx,cy');
    cx = Number(match[1]);
    cy = Number(match[2]);
  }
  const serverSendsMs = server.canSendMs === 0 || cy === 0 ? 0 : Math.max(server.canSendMs, cy);
  const clientSendsMs = server.wantsReceiveMs === 0 || cx === 0 ? 0 : Math.max(server.wantsReceiveMs, cx);
  return { serverSendsMs, clientSendsMs };
}
