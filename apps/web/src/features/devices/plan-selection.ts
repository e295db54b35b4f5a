import type { SceneAction, SceneMember } from '@lumigrid/contract/browser';

/**
 * Selecting many devices on the floor plan: taps, shift-clicks and lassos build one set of device ids; the
 * set is controlled at once, made a group or added to a scene. Groups and commands live on one gateway, so a
 * set spanning gateways is sorted by gateway first.
 */

export type PlanSelection = ReadonlySet<string>;

/** The set with `id` added, or taken out when it was in. */
export function toggled(selection: PlanSelection, id: string): Set<string> {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** The set with every one of `ids` in it. */
export function withAll(selection: PlanSelection, ids: Iterable<string>): Set<string> {
  const next = new Set(selection);
  for (const id of ids) next.add(id);
  return next;
}

/** The set without ids that are no longer on the plan (moved out, deleted, hidden by the legend). */
export function stillShown(selection: PlanSelection, shownIds: ReadonlySet<string>): PlanSelection {
  for (const id of selection) if (!shownIds.has(id)) return new Set([...selection].filter((s) => shownIds.has(s)));
  return selection;
}

/** A press that moves less than this many pixels is a tap, not a lasso. */
export const LASSO_MIN_PX = 8;

/** A rectangle on the plan in fractions of its width and height (0-1, y down), corners in any order. */
export interface PlanRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function rectBetween(a: { x: number; y: number }, b: { x: number; y: number }): PlanRect {
  return { left: Math.min(a.x, b.x), top: Math.min(a.y, b.y), right: Math.max(a.x, b.x), bottom: Math.max(a.y, b.y) };
}

/** The placed markers inside the rectangle (edges included), in the markers' order. */
export function markersIn(markers: ReadonlyArray<{ id: string; x: number | null; y: number | null }>, rect: PlanRect): string[] {
  return markers
    .filter((m) => m.x !== null && m.y !== null && m.x >= rect.left && m.x <= rect.right && m.y >= rect.top && m.y <= rect.bottom)
    .map((m) => m.id);
}

export interface GatewayPart {
  gatewayId: string;
  gatewayName: string;
  ids: string[];
}

/**
 * The selection sorted by gateway, given each gateway's devices on the map; `unknown` holds ids no gateway
 * lists (a device that left the map since it was selected).
 */
export function byGateway(
  selection: PlanSelection,
  gateways: ReadonlyArray<{ gatewayId: string; gatewayName: string; deviceIds: ReadonlySet<string> }>,
): { parts: GatewayPart[]; unknown: string[] } {
  const parts: GatewayPart[] = [];
  const placed = new Set<string>();
  for (const gateway of gateways) {
    const ids = [...selection].filter((id) => gateway.deviceIds.has(id));
    for (const id of ids) placed.add(id);
    if (ids.length > 0) parts.push({ gatewayId: gateway.gatewayId, gatewayName: gateway.gatewayName, ids });
  }
  return { parts, unknown: [...selection].filter((id) => !placed.has(id)) };
}

/**
 * The names of the groups a selection becomes: the name itself on one gateway; on several, one group per
 * gateway numbered "-1", "-2"..., the name shortened so each fits the limit.
 */
export function groupNames(name: string, count: number, maxLength: number): string[] {
  const base = name.trim();
  if (count <= 1) return [base];
  return Array.from({ length: count }, (_, i) => {
    const suffix = `-${i + 1}`;
    return `${Array.from(base)
      .slice(0, maxLength - suffix.length)
      .join('')
      .trimEnd()}${suffix}`;
  });
}

/**
 * A scene with the selected devices added to its first step, each told `wanted` as far as it can take it
 * (`actionFor`); devices that are members of that step already keep their own action. The scene's other
 * fields stay as they are: the server sends each gateway its part, as for any scene change.
 */
export function withSceneMembers<F extends { steps: Array<{ members: SceneMember[]; holdS: number }> }>(
  fields: F,
  devices: ReadonlyArray<{ id: string; type: number }>,
  actionFor: (type: number) => SceneAction,
): { fields: F; added: number } {
  const [first, ...rest] = fields.steps;
  if (!first) return { fields, added: 0 };
  const present = new Set(first.members.filter((m) => m.type === 'device').map((m) => m.id));
  const joining = devices.filter((d) => !present.has(d.id));
  const members = [...first.members, ...joining.map((d) => ({ type: 'device' as const, id: d.id, action: actionFor(d.type) }))];
  return { fields: { ...fields, steps: [{ ...first, members }, ...rest] }, added: joining.length };
}
