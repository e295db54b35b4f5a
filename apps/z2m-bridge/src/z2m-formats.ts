/**
 * Zigbee2MQTT's MQTT formats as this bridge reads and writes them, from Zigbee2MQTT 2.x
 * (lib/extension/bridge.ts publishDevices, lib/extension/availability.ts, lib/extension/groups.ts,
 * lib/extension/otaUpdate.ts) and its documentation (guide/usage/mqtt_topics_and_messages, guide/usage/exposes).
 * Only the fields the bridge uses are typed; Zigbee2MQTT publishes more.
 */

/** Access bits of an expose: 1 published in the state, 2 settable with /set, 4 readable with /get. */
export const ACCESS = { state: 1, set: 2, get: 4 } as const;

interface ExposeBase {
  name?: string;
  label?: string;
  property?: string;
  access?: number;
  /** Set when the feature belongs to one endpoint of a device with several (l1, l2, left, right, ...). */
  endpoint?: string;
  category?: 'config' | 'diagnostic';
  description?: string;
}

export interface BinaryExpose extends ExposeBase {
  type: 'binary';
  name: string;
  property: string;
  value_on: unknown;
  value_off: unknown;
}

export interface NumericExpose extends ExposeBase {
  type: 'numeric';
  name: string;
  property: string;
  unit?: string;
  value_min?: number;
  value_max?: number;
}

export interface EnumExpose extends ExposeBase {
  type: 'enum';
  name: string;
  property: string;
  values: Array<string | number>;
}

export interface OtherGenericExpose extends ExposeBase {
  type: 'text' | 'list' | 'composite';
  features?: Expose[];
}

/** A specific expose groups the features of one controllable thing (a light, a switch output, a cover). */
export interface SpecificExpose extends ExposeBase {
  type: 'light' | 'switch' | 'cover' | 'lock' | 'fan' | 'climate';
  features: Expose[];
}

export type Expose = BinaryExpose | NumericExpose | EnumExpose | OtherGenericExpose | SpecificExpose;

/** The `definition` of a device on bridge/devices: what zigbee-herdsman-converters knows of the model. */
export interface Z2mDefinition {
  model: string;
  vendor: string;
  description: string;
  exposes: Expose[];
  supports_ota: boolean;
  source?: 'native' | 'generated' | 'external';
}

/** One entry of the retained bridge/devices list. */
export interface Z2mDevice {
  ieee_address: string;
  type: 'Coordinator' | 'Router' | 'EndDevice' | 'Unknown' | 'GreenPower';
  network_address: number;
  supported: boolean;
  friendly_name: string;
  disabled: boolean;
  definition?: Z2mDefinition | null;
  power_source?: string;
  software_build_id?: string;
  date_code?: string;
  model_id?: string;
  interview_completed: boolean;
  interview_state?: 'PENDING' | 'IN_PROGRESS' | 'SUCCESSFUL' | 'FAILED';
  manufacturer?: string;
}

/** One entry of the retained bridge/groups list. */
export interface Z2mGroup {
  id: number;
  friendly_name: string;
  members: Array<{ ieee_address: string; endpoint: number }>;
  scenes: Array<{ id: number; name: string }>;
}

/** Answer on bridge/response/...: `transaction` echoes the request's, so a caller matches its answer. */
export interface Z2mResponse<T = Record<string, unknown>> {
  status: 'ok' | 'error';
  data: T;
  error?: string;
  transaction?: string;
}

/** `<friendly_name>/availability`: a JSON object since Zigbee2MQTT 1.30 (legacy: the bare word). */
export function parseAvailability(payload: string): boolean | undefined {
  const text = payload.trim();
  if (text === 'online' || text === 'offline') return text === 'online';
  try {
    const value = JSON.parse(text) as { state?: unknown };
    return value.state === 'online' ? true : value.state === 'offline' ? false : undefined;
  } catch {
    return undefined;
  }
}

/** Every expose of a list with the features of specific and composite exposes flattened in. */
export function flatExposes(exposes: readonly Expose[]): Expose[] {
  return exposes.flatMap((e) => ('features' in e && e.features ? [e, ...flatExposes(e.features)] : [e]));
}

/** A Zigbee IEEE address (0x00158d0001a2b3c4) as a Lumigrid device address (00158D0001A2B3C4). */
export function ieeeToAddr(ieee: string): string | undefined {
  const hex = ieee.replace(/^0x/i, '').toUpperCase();
  return /^[0-9A-F]{16}$/.test(hex) ? hex : undefined;
}

/**
 * A gateway MAC (12 hex digits) from the coordinator's IEEE address: an EUI-64 made from a MAC-48 carries
 * FFFE in its middle, which goes; any other keeps its last twelve digits.
 */
export function macFromIeee(ieee: string): string | undefined {
  const hex = ieeeToAddr(ieee);
  if (!hex) return undefined;
  return hex.slice(6, 10) === 'FFFE' ? hex.slice(0, 6) + hex.slice(10) : hex.slice(4);
}
