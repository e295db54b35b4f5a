import { systemEndpoints } from '@lumigrid/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { call, startApp, type Harness } from '../test/harness.ts';

type Line = { level: number; msg: string };

describe('the request log', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  async function linesAt(level: 'info' | 'debug') {
    const lines: Line[] = [];
    h = await startApp('pglite', {}, { logger: { level, stream: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } } });
    lines.length = 0;
    await call(h.app, 'GET', `${systemEndpoints.info.path}?token=secret-in-query`);
    return lines;
  }

  it('writes nothing per request at info, so the lines a person starting the server needs stand out', async () => {
    expect((await linesAt('info')).filter((l) => l.msg.includes('/api1/system/v1/info'))).toEqual([]);
  });

  it('writes one line per request at debug, with method, path, status and time, never the query', async () => {
    const lines = (await linesAt('debug')).filter((l) => l.msg.includes('/api1/system/v1/info'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(/^GET \/api1\/system\/v1\/info 200 \d+ ms$/);
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
  });
});
