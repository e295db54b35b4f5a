import { describe, expect, it } from 'vitest';
import { createStompParser, negotiateHeartBeat, serializeFrame, StompProtocolError } from './stomp-frame.ts';

describe('STOMP 1.2 frame parser', () => {
  it('parses frames split across chunks, several in one chunk, and heart-beat EOLs between them', () => {
    const sut = createStompParser();
    expect(sut.push('SUBSCR')).toEqual({ frames: [], heartBeats: 0 });
    expect(sut.push('IBE\nid:0\ndestination:/topic/a\n\n')).toEqual({ frames: [], heartBeats: 0 });
    const result = sut.push('\0\n\r\nACK\nid:9\n\n\0\n');
    expect(result.heartBeats).toBe(3);
    expect(result.frames).toEqual([
      { command: 'SUBSCRIBE', headers: { id: '0', destination: '/topic/a' }, body: '' },
      { command: 'ACK', headers: { id: '9' }, body: '' },
    ]);
  });

  it('accepts CRLF line ends, keeps the first of repeated headers and unescapes header values', () => {
    const sut = createStompParser();
    const { frames } = sut.push('SEND\r\ndestination:/a\\cb\\\\c\\nd\r\ndestination:/ignored\r\n\r\nhello\0');
    expect(frames[0]).toEqual({ command: 'SEND', headers: { destination: '/a:b\\c\nd' }, body: 'hello' });
  });

  it('does not unescape CONNECT headers, so a value may hold a backslash', () => {
    const { frames } = createStompParser().push('CONNECT\naccept-version:1.2\npasscode:a\\b:c\n\n\0');
    expect(frames[0]?.headers.passcode).toBe('a\\b:c');
  });

  it('reads a body by content-length, NULs and multi-byte characters included', () => {
    const body = 'é\0x';
    const { frames } = createStompParser().push(`SEND\ndestination:/a\ncontent-length:${Buffer.byteLength(body)}\n\n${body}\0`);
    expect(frames[0]?.body).toBe(body);
  });

  it.each([
    ['an unknown command', 'PUBLISH\n\n\0'],
    ['a lower-case command', 'connect\n\n\0'],
    ['an undefined escape', 'SUBSCRIBE\nid:\\t\n\n\0'],
    ['a header line without a colon', 'SUBSCRIBE\nid\n\n\0'],
    ['a header with an empty name', 'SUBSCRIBE\n:x\n\n\0'],
    ['a non-numeric content-length', 'SEND\ncontent-length:x\n\n\0'],
    ['a body longer than its content-length', 'SEND\ncontent-length:1\n\nab\0'],
    ['too many headers', `SEND\n${Array.from({ length: 40 }, (_, i) => `h${i}:v`).join('\n')}\n\n\0`],
  ])('refuses %s', (_name, text) => {
    expect(() => createStompParser().push(text)).toThrow(StompProtocolError);
  });

  it('refuses a frame over the size limit, whole or still arriving', () => {
    const limits = { maxFrameBytes: 100, maxHeaders: 10 };
    expect(() => createStompParser(limits).push(`SEND\nx:${'a'.repeat(200)}\n\n\0`)).toThrow(/larger than 100/);
    const sut = createStompParser(limits);
    expect(() => sut.push('SEND\n\n' + 'b'.repeat(150))).toThrow(/larger than 100/);
    expect(() => createStompParser(limits).push('SEND\ncontent-length:500\n\n')).toThrow(/larger than 100/);
  });

  it('tells the receipt of a refused frame when it could read it', () => {
    try {
      createStompParser().push('SEND\nreceipt:r7\ncontent-length:1\n\nab\0');
      expect.unreachable();
    } catch (error) {
      expect((error as StompProtocolError).receipt).toBe('r7');
    }
  });
});

describe('STOMP 1.2 frame serialiser', () => {
  it('escapes headers, adds the content-length in bytes and ends with NUL', () => {
    const text = serializeFrame({ command: 'MESSAGE', headers: { destination: '/a:b\nc\\' }, body: '{"name":"é"}' });
    expect(text).toBe('MESSAGE\ndestination:/a\\cb\\nc\\\\\ncontent-length:13\n\n{"name":"é"}\0');
  });

  it('leaves CONNECTED headers unescaped and omits content-length for an empty body', () => {
    expect(serializeFrame({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '0,0' }, body: '' })).toBe(
      'CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0',
    );
  });

  it('round-trips through the parser', () => {
    const text = serializeFrame({ command: 'MESSAGE', headers: { destination: '/x:y', subscription: '1' }, body: 'a\0b' }).replace(
      'MESSAGE',
      'SEND',
    );
    expect(createStompParser().push(text).frames[0]).toEqual({
      command: 'SEND',
      headers: { destination: '/x:y', subscription: '1', 'content-length': '3' },
      body: 'a\0b',
    });
  });
});

describe('heart-beat negotiation', () => {
  const server = { canSendMs: 10_000, wantsReceiveMs: 5_000 };
  it.each([
    [undefined, 0, 0],
    ['0,0', 0, 0],
    ['1000,1000', 10_000, 5_000],
    ['20000,30000', 30_000, 20_000],
    ['0,15000', 15_000, 0],
    ['4000,0', 0, 5_000],
  ])('client %s: server sends every %i ms, client every %i ms', (header, serverSendsMs, clientSendsMs) => {
    expect(negotiateHeartBeat(header, server)).toEqual({ serverSendsMs, clientSendsMs });
  });

  it('never beats in a direction the server switched off', () => {
    expect(negotiateHeartBeat('1000,1000', { canSendMs: 0, wantsReceiveMs: 0 })).toEqual({ serverSendsMs: 0, clientSendsMs: 0 });
  });

  it.each(['soon', '1,2,3', '-1,5', '1000'])('refuses %s', (header) => {
    expect(() => negotiateHeartBeat(header, server)).toThrow(StompProtocolError);
  });
});
