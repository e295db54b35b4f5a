import { type FirmwareCheck, type FirmwareParams, type FirmwareProgressView } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import { compareVersions } from './firmware-catalogue.ts';
import { firmwareOfRow, mapFirmware } from './gateways.mappers.ts';
import { assertMay } from '../../http/authority.ts';
import type { GatewayContext, Caller } from './gateway-context.ts';

/** Firmware: which version is the latest, starting an update and following it. */
export function gatewayFirmwareCalls(ctx: GatewayContext) {
  const { deps, requireGateway } = ctx;
  return {
    /** GET gateway/v1/check_gateway_version/{id}/{target} */
    async checkVersion(auth: Caller, p: FirmwareParams): Promise<FirmwareCheck> {
      const row = await requireGateway(auth, p.id);
      const file = deps.firmware.latest(p.target, row.mac);
      const current = row.info?.versions[p.target] ?? '';
      // No file for this part: nothing newer to offer, which is an answer, not an error.
      if (!file) return { target: p.target, current, latest: current, state: 'latest' };
      return {
        target: p.target,
        current,
        latest: file.version,
        state: current !== '' && compareVersions(file.version, current) <= 0 ? 'latest' : 'available',
      };
    },

    /** GET gateway/v1/post_gateway_update/{id}/{target}: starts the update; follow it with gateway_upgrade_progress. */
    async startUpdate(auth: Caller, p: FirmwareParams): Promise<FirmwareProgressView> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, p.id);
      const file = deps.firmware.latest(p.target, row.mac);
      if (!file) throw new AppError(260007);
      const link = deps.link;
      if (!link) throw new AppError(100101);
      const outcome = await link.firmware.start(row.mac, {
        target: p.target,
        version: file.version,
        url: file.url,
        ...(file.size !== undefined ? { size: file.size } : {}),
        ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
      });
      if (outcome.state !== 'succeeded') throw new AppError(outcome.errorCode);
      const after = await requireGateway(auth, row.id);
      return mapFirmware(firmwareOfRow(after) ?? link.firmware.progress(row.mac));
    },

    /** GET gateway/v1/gateway_upgrade_progress/{id} */
    async updateProgress(auth: Caller, id: string): Promise<FirmwareProgressView> {
      const row = await requireGateway(auth, id);
      return mapFirmware(firmwareOfRow(row) ?? deps.link?.firmware.progress(row.mac));
    },
  };
}
