import { describe, expect, it } from 'vitest';
import { applyInBatches } from './apply-batches.ts';

describe('applyInBatches', () => {
  it('sends every device once, in batches, reporting as each batch answers', async () => {
    const sent: string[][] = [];
    const seen: string[] = [];
    await applyInBatches(
      ['1', '2', '3', '4', '5', '6', '7'],
      async (ids) => {
        sent.push(ids);
        return ids.map((deviceId) => ({ deviceId, name: `d${deviceId}`, code: deviceId === '4' ? 100104 : 0, msg: '' }));
      },
      (results) => seen.push(...results.map((r) => `${r.deviceId}:${r.code}`)),
      () => ({ code: 100005, msg: 'x' }),
      3,
    );
    expect(sent).toEqual([['1', '2', '3'], ['4', '5', '6'], ['7']]);
    expect(seen).toEqual(['1:0', '2:0', '3:0', '4:100104', '5:0', '6:0', '7:0']);
  });

  it('marks a refused batch on each of its devices and goes on', async () => {
    const seen: string[] = [];
    await applyInBatches(
      ['1', '2', '3'],
      async (ids) => {
        if (ids.includes('1')) throw new Error('refused');
        return ids.map((deviceId) => ({ deviceId, name: '', code: 0, msg: '' }));
      },
      (results) => seen.push(...results.map((r) => `${r.deviceId}:${r.code}:${r.msg}`)),
      () => ({ code: 110011, msg: 'Not your data' }),
      2,
    );
    expect(seen).toEqual(['1:110011:Not your data', '2:110011:Not your data', '3:0:']);
  });
});
