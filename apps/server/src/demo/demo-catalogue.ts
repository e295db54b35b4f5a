import { DEVICE_TYPE_CODES, type LibraryTypeAddBody, type ParamTemplateApplyBody, type ParamTemplateBuildBody } from '@lumigrid/contract';
import { RATED_POWER_W, type DeviceKind } from '@lumigrid/protocol';
import { SIM_PART_NUMBERS } from '@lumigrid/gateway-sim';
import type { AuthContext } from '../http/auth.ts';
import type { LibraryService } from '../modules/library/library.service.ts';
import type { ParamTemplatesService } from '../modules/virtual/param-templates.service.ts';

type Caller = Pick<AuthContext, 'userId' | 'tenantId' | 'operateAuth' | 'lang'>;

/**
 * The demo's parts in the device library: the part numbers its simulated devices report, so every light of the
 * demo finds its type, is measured against the type's power and shows its remaining life (lifespan minus the
 * hours its energy history counted). Lifespans are the usual datasheet figures (L70 for LED luminaires).
 */
const DEMO_PARTS: ReadonlyArray<{ kind: DeviceKind; name: string; lifespan: number; powerW?: number }> = [
  { kind: 'light-single', name: 'Downlight 12 W', lifespan: 50_000 },
  { kind: 'light-cct', name: 'Panel 600 tunable white', lifespan: 50_000 },
  { kind: 'light-rgb', name: 'RGB accent strip', lifespan: 30_000 },
  { kind: 'light-dimmer', name: 'High bay 200 W dimmable', lifespan: 60_000 },
  { kind: 'dali', name: 'DALI driver 24 W', lifespan: 50_000 },
  { kind: 'emergency', name: 'Exit sign maintained', lifespan: 40_000 },
  { kind: 'emergency-dimmable', name: 'Emergency downlight dimmable', lifespan: 40_000 },
  { kind: 'sensor-motion', name: 'PIR ceiling sensor', lifespan: 80_000, powerW: 0.5 },
];

/**
 * Adds the demo's parts to the account's library through the library service, as the library page does. Made
 * when the library holds none of them; a library a user has started on is left as the user keeps it.
 */
export async function ensureLibrary(library: Pick<LibraryService, 'typeList' | 'add'>, caller: Caller): Promise<number> {
  const held = new Set((await library.typeList(caller)).flatMap((row) => row.library.map((t) => t.partNumber)));
  if (DEMO_PARTS.some((part) => held.has(SIM_PART_NUMBERS[part.kind]))) return 0;
  for (const part of DEMO_PARTS) {
    const body: LibraryTypeAddBody = {
      name: part.name,
      type: DEVICE_TYPE_CODES[part.kind],
      initialPower: part.powerW ?? RATED_POWER_W[part.kind] ?? 0,
      lifespan: part.lifespan,
      partNumber: SIM_PART_NUMBERS[part.kind],
    };
    await library.add(caller, body);
  }
  return DEMO_PARTS.length;
}

/** The demo's parameter templates: one of each set, for the tunable-white panels of its open offices. */
export const DEMO_TEMPLATES: readonly ParamTemplateBuildBody[] = [
  {
    name: 'Office comfort',
    kind: 'function',
    deviceType: DEVICE_TYPE_CODES['light-cct'],
    // Soft starts and a floor that never leaves a desk dark.
    params: { brightness: 80, minBrightness: 10, fadeTime: 20 },
  },
  {
    name: 'Office network',
    kind: 'interface',
    deviceType: DEVICE_TYPE_CODES['light-cct'],
    // Reports every five minutes, and the panel never draws more than 90 % of its rating.
    params: { reportInterval: 300, maxPower: 90 },
  },
];

/**
 * Applies the demo's templates to devices of their type (the new panels of a first start), through the templates
 * service as a user would, so each device shows the templates it carries; answers how many devices took both.
 */
export async function applyTemplates(
  templates: Pick<ParamTemplatesService, 'list' | 'apply'>,
  caller: Caller,
  devices: ReadonlyArray<{ id: string; kind: string }>,
  /** Told each call made, for the audit trail. */
  applied?: (body: ParamTemplateApplyBody) => void,
): Promise<number> {
  const ours = (await templates.list(caller, 0)).filter((t) => DEMO_TEMPLATES.some((d) => d.name === t.name && d.kind === t.kind));
  const took = new Map<string, number>();
  for (const template of ours) {
    const deviceIds = devices.filter((d) => DEVICE_TYPE_CODES[d.kind as DeviceKind] === template.deviceType).map((d) => d.id);
    if (deviceIds.length === 0) continue;
    const body = { id: template.id, deviceIds };
    const results = await templates.apply(caller, body);
    applied?.(body);
    for (const result of results) if (result.code === 0) took.set(result.deviceId, (took.get(result.deviceId) ?? 0) + 1);
  }
  return [...took.values()].filter((n) => n === ours.length).length;
}

/** Builds the demo's templates through the templates service, when the account has none yet. */
export async function ensureTemplates(templates: Pick<ParamTemplatesService, 'list' | 'build'>, caller: Caller): Promise<string[]> {
  if ((await templates.list(caller, 0)).length > 0) return [];
  const made: string[] = [];
  for (const body of DEMO_TEMPLATES) made.push((await templates.build(caller, body)).id);
  return made;
}
