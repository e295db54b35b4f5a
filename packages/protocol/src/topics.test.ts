import { describe, expect, it } from 'vitest';
import { downTopic, normaliseMac, parseTopic, upTopic } from './index.ts';

describe('gateway topics', () => {
  it('normalises MACs written with separators', () => {
    expect(normaliseMac('a4:c1:38:0b:22:9f')).toBe('A4C1380B229F');
    expect(normaliseMac('A4-C1-38-0B-22-9F')).toBe('A4C1380B229F');
    expect(normaliseMac('A4C1380B229')).toBeUndefined();
    expect(normaliseMac('G4C1380B229F')).toBeUndefined();
  });

  it('builds and parses topics in both directions', () => {
    expect(upTopic('A4C1380B229F', 'report')).toBe('lg/v1/A4C1380B229F/up/report');
    expect(parseTopic(downTopic('A4C1380B229F', 'cmd'))).toEqual({ mac: 'A4C1380B229F', direction: 'down', channel: 'cmd' });
    expect(parseTopic('lg/v1/A4C1380B229F/up/state')).toEqual({ mac: 'A4C1380B229F', direction: 'up', channel: 'state' });
  });

  it.each(['lg/v1/A4C1380B229F/up/cmd', 'lg/v2/A4C1380B229F/up/state', 'lg/v1/+/up/state', 'lg/v1/#', 'lg/v1/A4C1380B229F/up/state/x', ''])(
    'rejects %s',
    (topic) => expect(parseTopic(topic)).toBeUndefined(),
  );
});
