import {
  type DeviceKindName,
  DEVICE_TYPE_CODES,
  type GatewayDevice,
  type ImportCheck,
  type ImportResult,
  type SuperGatewayDevices,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import { denyAccess, toId } from '../access/access.ts';
import { mapBridge, mapDevice } from './gateways.mappers.ts';
import { assertMay } from '../../http/authority.ts';
import type { GatewayContext, Caller } from './gateway-context.ts';

/** Device names are 1-25 characters (spec section 5). */
const DEVICE_NAME_MAX = 25;

const KIND_LABEL: Record<DeviceKindName, string> = {
  'light-single': 'Light',
  'light-cct': 'CCT light',
  'light-rgb': 'RGB light',
  'light-dimmer': 'Dimmer',
  curtain: 'Curtain',
  'switch-1': 'Switch 1ch',
  'switch-2': 'Switch 2ch',
  'switch-3': 'Switch 3ch',
  'switch-4': 'Switch 4ch',
  'sensor-motion': 'Motion sensor',
  'sensor-daylight': 'Daylight sensor',
  'sensor-temperature': 'Temp sensor',
  'sensor-cct': 'CCT sensor',
  'panel-scene6': 'Scene panel',
  'panel-smart': 'Smart panel',
  bridge: 'Bridge',
  'bridge-wisun': 'Wi-SUN bridge',
  emergency: 'Emergency light',
  'emergency-dimmable': 'Emergency dimmer',
  'super-gateway': 'Super gateway',
  'bridge-dali': 'DALI bridge',
  dali: 'DALI light',
};

/** A default device name: its kind and the end of its address, within 25 characters. */
function defaultDeviceName(kind: DeviceKindName, addr: string): string {
  return `${KIND_LABEL[kind]} ${addr.slice(-4)}`.slice(0, DEVICE_NAME_MAX);
}

/** The devices a gateway brings: import, the devices outside maps, bridges of a super gateway. */
export function gatewayImportCalls(ctx: GatewayContext) {
  const { clock, requireGateway, requireMap, command, deviceRepo } = ctx;
  return {
    /** GET gateway/v1/check/import/{id}: the devices that joined the gateway, and which are new. */
    async checkImport(auth: Caller, id: string): Promise<ImportCheck> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const { devices } = await command(row, 'devices.list', {});
      const known = new Set((await deviceRepo.ofGateway({ tenantId: auth.tenantId, gatewayId: row.id })).map((d) => d.addr));
      const list = devices.map((d) => ({
        addr: d.addr,
        kind: d.kind,
        type: DEVICE_TYPE_CODES[d.kind],
        networkAddress: d.networkAddress,
        model: d.model,
        firmware: d.firmware,
        bridge: d.bridge ?? null,
        imported: known.has(d.addr),
      }));
      return { total: list.length, fresh: list.filter((d) => !d.imported).length, list };
    },

    /** GET gateway/v1/import/{id}: adds the joined devices the cloud does not hold; they start outside any map. */
    async importDevices(auth: Caller, id: string): Promise<ImportResult> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const { devices } = await command(row, 'devices.list', {});
      // Bridges first, so the devices behind them find their bridge row in the same import.
      const ordered = [...devices].sort((a, b) => Number(b.kind.startsWith('bridge')) - Number(a.kind.startsWith('bridge')));
      const added = await deviceRepo.importFromGateway({
        tenantId: auth.tenantId,
        gatewayId: row.id,
        at: clock.now(),
        list: ordered.map((d) => ({
          addr: d.addr,
          networkAddress: d.networkAddress,
          kind: d.kind,
          type: DEVICE_TYPE_CODES[d.kind],
          name: defaultDeviceName(d.kind, d.addr),
          model: d.model,
          firmware: d.firmware,
          bridgeAddr: d.bridge,
        })),
      });
      const total = (await deviceRepo.ofGateway({ tenantId: auth.tenantId, gatewayId: row.id })).length;
      return { imported: added.length, total, list: added.map(mapDevice) };
    },

    /** GET gateway/v1/devices/outmap/{mapId}/{gatewayId}: the gateway's devices not placed on a map. */
    async outmapDevices(auth: Caller, mapId: string, gatewayId: string): Promise<GatewayDevice[]> {
      await requireMap(auth, mapId);
      const row = await requireGateway(auth, gatewayId);
      return (await deviceRepo.ofGateway({ tenantId: auth.tenantId, gatewayId: row.id, outmapOnly: true })).map(mapDevice);
    },

    /** GET gateway/v1/super_gateway_devices/{id}/{bridgeId} */
    async superGatewayDevices(auth: Caller, id: string, bridgeId: string): Promise<SuperGatewayDevices> {
      const row = await requireGateway(auth, id);
      const bridges = await deviceRepo.bridgesOf({ tenantId: auth.tenantId, gatewayId: row.id });
      let devices: GatewayDevice[] = [];
      if (bridgeId !== '0') {
        const bridge = bridges.find((b) => b.id === toId(bridgeId));
        if (!bridge) denyAccess();
        devices = (await deviceRepo.ofGateway({ tenantId: auth.tenantId, gatewayId: row.id, bridgeId: bridge.id })).map(mapDevice);
      }
      return { name: row.name, bridgeQuantity: bridges.length, bridges: bridges.map(mapBridge), devices };
    },

    /** GET gateway/v1/delete_bridge/{id}/{bridgeId}: refused (260021) while the bridge or a device behind it is on a map. */
    async unbindBridge(auth: Caller, id: string, bridgeId: string): Promise<void> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const outcome = await deviceRepo.unbindBridge({ tenantId: auth.tenantId, gatewayId: row.id, bridgeId: toId(bridgeId) });
      if (outcome === 'missing') denyAccess();
      if (outcome === 'linked') throw new AppError(260021);
    },
  };
}
