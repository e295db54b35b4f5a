import {
  levelToPercent,
  microwaveProblem,
  percentToLevel,
  type Gateway,
  type GatewayBroadcast,
  type GatewayBroadcastQuery,
  type GatewayLonLatBody,
  type GatewayMicrowaveBody,
  type GatewayMicrowaveResult,
  type GatewayParamsBody,
  type GatewaySensorMode,
  type GatewayTime,
  type ReReport,
} from '@lumigrid/contract';
import { type GatewayParams, type MicrowaveParams, type SensorMode } from '@lumigrid/protocol';
import { AppError } from '../../http/app-error.ts';
import { assertCoordinate } from '../projects/access.ts';
import { assertMay } from '../../http/authority.ts';
import type { GatewayContext, Caller } from './gateway-context.ts';

/** How long broadcast opens the networks when the caller does not say (seconds). */
const DEFAULT_PERMIT_JOIN_S = 60;

/** The gateway's settings and commands: parameters, clock, identify, restart, reports, permit-join, sensors. */
export function gatewaySettingsCalls(ctx: GatewayContext) {
  const { repo, clock, requireGateway, reload, command } = ctx;
  return {
    /** POST gateway/v1/set_params: the gateway must confirm; what it confirms is stored. */
    async setParams(auth: Caller, body: GatewayParamsBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      const { id: _id, ...wanted } = body;
      if (Object.keys(wanted).length === 0) throw new AppError(100001, 'no parameter given');
      const { params } = await command(row, 'params.set', { params: wanted as GatewayParams });
      await repo.update({
        tenantId: auth.tenantId,
        id: row.id,
        set: {
          timezone: params.timezone ?? row.timezone,
          reportIntervalS: params.reportIntervalS ?? row.reportIntervalS,
          sensorMode: params.sensorMode ?? row.sensorMode,
          ...(row.info
            ? {
                info: {
                  ...row.info,
                  channel: params.channel ?? row.info.channel,
                  largeGroupNumber: params.largeGroupNumber ?? row.info.largeGroupNumber,
                },
              }
            : {}),
        },
        at: clock.now(),
      });
      return reload(auth, row.id);
    },

    /** POST gateway/v1/set_lon_lat: sent to the gateway (sunrise and sunset), stored when it confirms. */
    async setLonLat(auth: Caller, body: GatewayLonLatBody): Promise<Gateway> {
      assertMay(auth, 'write');
      assertCoordinate(body.longitude);
      assertCoordinate(body.latitude);
      const row = await requireGateway(auth, body.id);
      await command(row, 'params.set', { params: { longitude: body.longitude, latitude: body.latitude } });
      await repo.update({
        tenantId: auth.tenantId,
        id: row.id,
        set: { longitude: body.longitude, latitude: body.latitude },
        at: clock.now(),
      });
      return reload(auth, row.id);
    },

    /** GET gateway/v1/tryme/{id}: the gateway blinks so an installer can find it. */
    async identify(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'control');
      await command(await requireGateway(auth, id), 'gateway.identify', {});
    },

    /** GET gateway/v1/restart_gateway/{id}: answers once the gateway accepted; it then goes offline and comes back. */
    async restart(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'control');
      await command(await requireGateway(auth, id), 'gateway.restart', {});
    },

    /** GET gateway/v1/read_gateway_time/{id} */
    async readTime(auth: Caller, id: string): Promise<GatewayTime> {
      const row = await requireGateway(auth, id);
      const result = await command(row, 'time.get', {});
      const cloud = clock.now().getTime();
      return {
        gatewayTime: new Date(result.time).toISOString(),
        cloudTime: new Date(cloud).toISOString(),
        driftMs: Math.round(result.time - cloud),
        timezone: result.timezone ?? row.timezone,
      };
    },

    /** GET gateway/v1/sync_gateway_systemtime/{id}: sets the gateway clock to the cloud's. */
    async syncTime(auth: Caller, id: string): Promise<GatewayTime> {
      assertMay(auth, 'control');
      const row = await requireGateway(auth, id);
      const sent = clock.now().getTime();
      const result = await command(row, 'time.set', { time: sent, ...(row.timezone ? { timezone: row.timezone } : {}) });
      const cloud = clock.now().getTime();
      return {
        gatewayTime: new Date(result.time).toISOString(),
        cloudTime: new Date(cloud).toISOString(),
        driftMs: Math.round(result.time - cloud),
        timezone: row.timezone,
      };
    },

    /** GET gateway/v1/re_report/{id}: every device's state again, on up/report. */
    async reReport(auth: Caller, id: string): Promise<ReReport> {
      assertMay(auth, 'control');
      return command(await requireGateway(auth, id), 'devices.report', {});
    },

    /** GET gateway/v1/refresh_all/{id}: the gateway's fields read afresh, and every device re-reported. */
    async refreshAll(auth: Caller, id: string): Promise<Gateway> {
      assertMay(auth, 'control');
      const row = await requireGateway(auth, id);
      const info = await command(row, 'gateway.info', {});
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { info }, at: clock.now() });
      await command(row, 'devices.report', {});
      return reload(auth, row.id);
    },

    /**
     * GET gateway/v1/broadcast?id=&durationS=: opens the gateway's networks for joining (a Zigbee permit-join
     * broadcast) so new devices pair; check/import and import then take them in. 0 closes the networks.
     */
    async broadcast(auth: Caller, q: GatewayBroadcastQuery): Promise<GatewayBroadcast> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, q.id);
      const durationS = q.durationS ?? DEFAULT_PERMIT_JOIN_S;
      await command(row, 'devices.permitJoin', { durationS });
      const openUntil = durationS > 0 ? new Date(clock.now().getTime() + durationS * 1000).toISOString() : null;
      return { id: String(row.id), durationS, openUntil };
    },

    /**
     * GET gateway/v1/sensor_self_oper/{id} (mode independent) and sensor_sync_model/{id} (mode linkage): every
     * sensor of the gateway acts on its own, or drives the linkage of the configuration the gateway runs. The
     * mode is stored as the gateway's sensorMode once the gateway confirms it.
     */
    async setSensorMode(auth: Caller, id: string, mode: SensorMode): Promise<GatewaySensorMode> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const result = await command(row, 'sensors.mode', { mode });
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { sensorMode: result.mode }, at: clock.now() });
      return { id: String(row.id), mode: result.mode, count: result.count };
    },

    /**
     * POST gateway/v1/set_mawa_params: writes hold time, daylight threshold, detection and standby brightness
     * to every microwave motion sensor of the gateway in one command. Each field is checked against its row of
     * spec section 5 first; a bad one answers its own message and nothing is sent.
     */
    async setMicrowaveParams(auth: Caller, body: GatewayMicrowaveBody): Promise<GatewayMicrowaveResult> {
      assertMay(auth, 'write');
      const { id, holdTime, lux, brightness, standbyBrightness } = body;
      if ([holdTime, lux, brightness, standbyBrightness].every((v) => v === undefined)) throw new AppError(100001, 'no parameter given');
      const problem =
        microwaveProblem('holdTime', holdTime) ??
        microwaveProblem('lux', lux) ??
        microwaveProblem('brightness', brightness) ??
        microwaveProblem('standbyBrightness', standbyBrightness);
      if (problem) throw new AppError(problem);
      const row = await requireGateway(auth, id);
      const params: MicrowaveParams = {
        ...(holdTime !== undefined ? { holdS: holdTime } : {}),
        ...(lux !== undefined ? { luxAbove: lux } : {}),
        ...(brightness !== undefined ? { level: percentToLevel(brightness) } : {}),
        ...(standbyBrightness !== undefined ? { standbyLevel: percentToLevel(standbyBrightness) } : {}),
      };
      const result = await command(row, 'sensors.microwave', { params });
      return {
        id: String(row.id),
        count: result.count,
        holdTime: result.params.holdS ?? null,
        lux: result.params.luxAbove ?? null,
        brightness: result.params.level === undefined ? null : levelToPercent(result.params.level),
        standbyBrightness: result.params.standbyLevel === undefined ? null : levelToPercent(result.params.standbyLevel),
      };
    },
  };
}
