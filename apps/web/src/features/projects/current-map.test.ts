import { describe, expect, it } from 'vitest';
import { createCurrentMapStore, CURRENT_PROJECT_KEY } from './current-map.ts';

function memory() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('the remembered device-map selection', () => {
  it('keeps the path and the current project across visits', () => {
    const storage = memory();
    createCurrentMapStore(storage).remember(['1', '2', '3']);
    expect(createCurrentMapStore(storage).read()).toEqual({ path: ['1', '2', '3'], projectId: '1' });
    expect(storage.data.get(CURRENT_PROJECT_KEY)).toBe('1');
  });

  it('ignores what it cannot read', () => {
    const storage = memory();
    storage.setItem('mapPathList', '{not json');
    expect(createCurrentMapStore(storage).read()).toEqual({ path: undefined, projectId: undefined });
    storage.setItem('mapPathList', '[1,2]');
    expect(createCurrentMapStore(storage).read().path).toBeUndefined();
    expect(createCurrentMapStore(undefined).read()).toEqual({ path: undefined, projectId: undefined });
  });
});
