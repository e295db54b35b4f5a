import { describe, expect, it } from 'vitest';
import { byGateway, groupNames, markersIn, rectBetween, stillShown, toggled, withAll, withSceneMembers } from './plan-selection.ts';

describe('selecting many devices on the plan', () => {
  it('toggles a tapped device in and out, and adds a lasso to what was selected', () => {
    const one = toggled(new Set(), 'a');
    expect([...one]).toEqual(['a']);
    expect([...toggled(one, 'a')]).toEqual([]);
    expect([...withAll(one, ['b', 'a', 'c'])]).toEqual(['a', 'b', 'c']);
  });

  it('finds the placed markers inside a rectangle dragged in any direction, edges included', () => {
    const markers = [
      { id: 'left', x: 0.2, y: 0.3 },
      { id: 'middle', x: 0.5, y: 0.3 },
      { id: 'right', x: 0.8, y: 0.3 },
      { id: 'below', x: 0.5, y: 0.75 },
      { id: 'unplaced', x: null, y: null },
    ];
    const rect = rectBetween({ x: 0.85, y: 0.4 }, { x: 0.2, y: 0.1 });
    expect(rect).toEqual({ left: 0.2, top: 0.1, right: 0.85, bottom: 0.4 });
    expect(markersIn(markers, rect)).toEqual(['left', 'middle', 'right']);
    expect(markersIn(markers, rectBetween({ x: 0, y: 0 }, { x: 1, y: 1 }))).toEqual(['left', 'middle', 'right', 'below']);
    expect(markersIn(markers, rectBetween({ x: 0.6, y: 0.6 }, { x: 0.7, y: 0.7 }))).toEqual([]);
  });

  it('drops devices that left the plan, and keeps the same set when none did', () => {
    const selection = new Set(['a', 'b']);
    expect(stillShown(selection, new Set(['a', 'b', 'c']))).toBe(selection);
    expect([...stillShown(selection, new Set(['b']))]).toEqual(['b']);
  });

  it('sorts a selection spanning gateways by gateway', () => {
    const gateways = [
      { gatewayId: '1', gatewayName: 'North', deviceIds: new Set(['a', 'b', 'x']) },
      { gatewayId: '2', gatewayName: 'South', deviceIds: new Set(['c']) },
      { gatewayId: '3', gatewayName: 'Idle', deviceIds: new Set(['d']) },
    ];
    expect(byGateway(new Set(['a', 'c', 'b', 'gone']), gateways)).toEqual({
      parts: [
        { gatewayId: '1', gatewayName: 'North', ids: ['a', 'b'] },
        { gatewayId: '2', gatewayName: 'South', ids: ['c'] },
      ],
      unknown: ['gone'],
    });
  });

  it('names one group after the name, and one group per gateway with a number that fits the limit', () => {
    expect(groupNames(' Ceiling row ', 1, 21)).toEqual(['Ceiling row']);
    expect(groupNames('Ceiling row', 2, 21)).toEqual(['Ceiling row-1', 'Ceiling row-2']);
    expect(groupNames('A very long group name', 3, 21)).toEqual([
      'A very long group n-1',
      'A very long group n-2',
      'A very long group n-3',
    ]);
    expect(groupNames('天井の照明列', 2, 5).map((n) => Array.from(n).length)).toEqual([5, 5]);
  });
});

describe('adding a selection to a scene', () => {
  const scene = {
    name: 'Evening',
    steps: [
      {
        members: [
          { type: 'device' as const, id: 'a', action: { on: false } },
          { type: 'group' as const, id: 'b', action: { on: true } },
        ],
        holdS: 0,
      },
      { members: [], holdS: 5 },
    ],
  };

  it('adds the new devices to the first step with their action, and leaves members and other steps alone', () => {
    const { fields, added } = withSceneMembers(
      scene,
      [
        { id: 'a', type: 1 },
        { id: 'b', type: 2 },
        { id: 'c', type: 3 },
      ],
      (type) => (type === 3 ? { on: true } : { on: true, percent: 40 }),
    );
    expect(added).toBe(2);
    expect(fields.steps[0]!.members).toEqual([
      { type: 'device', id: 'a', action: { on: false } },
      { type: 'group', id: 'b', action: { on: true } },
      // A device with the id of a group member is another object: it joins.
      { type: 'device', id: 'b', action: { on: true, percent: 40 } },
      { type: 'device', id: 'c', action: { on: true } },
    ]);
    expect(fields.steps[1]).toBe(scene.steps[1]);
    expect(fields.name).toBe('Evening');
    expect(scene.steps[0]!.members).toHaveLength(2);
  });
});
