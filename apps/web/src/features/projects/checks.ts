import { hasAtMostTwoDecimals, PROJECT_LIMITS } from '@lumigrid/contract/browser';

/** Catalogue keys of the installation-tree validation texts (spec section 5). */
export type InstallationRuleKey =
  | 'installation.rules.nameRequired'
  | 'installation.rules.nameLength'
  | 'installation.rules.addressLength'
  | 'installation.rules.longitude'
  | 'installation.rules.latitude';

/** The values the length messages interpolate. */
export const RULE_VARS = {
  nameMax: PROJECT_LIMITS.name.max,
  addressMax: PROJECT_LIMITS.address.max,
} as const;

/** Characters as the server counts them: code points of the trimmed text. */
const length = (text: string) => [...text.trim()].length;

/** Project, building and map names: 1-50 characters. */
export function checkName(value: string | undefined): InstallationRuleKey | undefined {
  if (!value || !value.trim()) return 'installation.rules.nameRequired';
  return length(value) > PROJECT_LIMITS.name.max ? 'installation.rules.nameLength' : undefined;
}

/** The address is optional; when given, 1-100 characters. */
export function checkAddress(value: string | undefined): InstallationRuleKey | undefined {
  if (!value || !value.trim()) return undefined;
  return length(value) > PROJECT_LIMITS.address.max ? 'installation.rules.addressLength' : undefined;
}

/** Longitude -180 to 180 and latitude -90 to 90, at most two decimals; empty is allowed. */
export function checkCoordinate(kind: 'longitude' | 'latitude', value: number | null | undefined): InstallationRuleKey | undefined {
  if (value === null || value === undefined) return undefined;
  const { min, max } = PROJECT_LIMITS[kind];
  const ok = typeof value === 'number' && value >= min && value <= max && hasAtMostTwoDecimals(value);
  return ok ? undefined : `installation.rules.${kind}`;
}

export type FloorPlanProblem = 'type' | 'size';

const EXTENSIONS = /\.(jpe?g|png|pdf)$/i;

/**
 * A first look at a chosen floor plan: jpg, png or pdf up to 5 MB. Only a courtesy to spare a useless
 * upload; the server decides by the file's content.
 */
export function floorPlanProblem(file: { name: string; type: string; size: number }): FloorPlanProblem | undefined {
  const types: readonly string[] = PROJECT_LIMITS.mapImage.types;
  const typeOk = file.type ? types.includes(file.type) : EXTENSIONS.test(file.name);
  if (!typeOk) return 'type';
  return file.size > PROJECT_LIMITS.mapImage.maxBytes ? 'size' : undefined;
}
