import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ERRORS, MapSearchItemSchema, ProjectAddBodySchema, hasAtMostTwoDecimals, nestByParent } from './index.ts';

describe('projects contract', () => {
  it('allows at most two decimals in coordinates', () => {
    for (const ok of [0, 180, -180, 12.34, -89.99, 0.1, 121.47]) expect(hasAtMostTwoDecimals(ok), String(ok)).toBe(true);
    for (const bad of [12.345, 0.001, Number.NaN, Number.POSITIVE_INFINITY]) expect(hasAtMostTwoDecimals(bad), String(bad)).toBe(false);
  });

  it('nests flat lists by parentId, keeping orphans as roots', () => {
    const tree = nestByParent([
      { id: '1', parentId: null, name: 'a' },
      { id: '2', parentId: '1', name: 'b' },
      { id: '3', parentId: '2', name: 'c' },
      { id: '4', parentId: '99', name: 'orphan' },
    ]);
    expect(tree.map((n) => n.id)).toEqual(['1', '4']);
    expect(tree[0]?.children[0]?.children[0]?.name).toBe('c');
  });

  it('checks names and coordinates in the add body', () => {
    expect(Value.Check(ProjectAddBodySchema, { name: 'Plant', longitude: 180, latitude: -90 })).toBe(true);
    expect(Value.Check(ProjectAddBodySchema, { name: '' })).toBe(false);
    expect(Value.Check(ProjectAddBodySchema, { name: 'x'.repeat(51) })).toBe(false);
    expect(Value.Check(ProjectAddBodySchema, { name: 'x', longitude: 180.5 })).toBe(false);
    expect(Value.Check(ProjectAddBodySchema, { name: 'x', latitude: -91 })).toBe(false);
    expect(Object.keys(MapSearchItemSchema.properties)).toEqual(expect.arrayContaining(['id', 'image', 'projectName', 'buildName']));
  });

  it('has the image codes in every language', () => {
    expect(ERRORS[100013].en).toBe('Please select a valid image');
    expect(ERRORS[100013].ja).not.toBe('');
  });
});
