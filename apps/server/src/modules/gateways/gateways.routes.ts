import {
  BridgeParamsSchema,
  EmptySchema,
  FirmwareCheckSchema,
  FirmwareParamsSchema,
  FirmwareProgressViewSchema,
  GatewayBindBodySchema,
  GatewayBroadcastQuerySchema,
  GatewayBroadcastSchema,
  GatewayDeviceListSchema,
  GatewayIdParamsSchema,
  GatewayListQuerySchema,
  GatewayLonLatBodySchema,
  GatewayLookupSchema,
  GatewayMacBodySchema,
  GatewayMicrowaveBodySchema,
  GatewayMicrowaveResultSchema,
  GatewayPageSchema,
  GatewayParamsBodySchema,
  GatewayPlaceBodySchema,
  GatewayRenameBodySchema,
  GatewaySchema,
  GatewaySensorModeSchema,
  GatewaySyncListSchema,
  GatewaySyncResultSchema,
  GatewayTimeSchema,
  ImportCheckSchema,
  ImportResultSchema,
  OutmapParamsSchema,
  ReReportSchema,
  SuperGatewayDevicesSchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { type Authenticate, requireAuth } from '../../http/guards.ts';
import { ACCESS, signedInDoc } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import type { GatewaysService } from './gateways.service.ts';

const tags = ['gateways'];
const P = '/api4/gateway/v1';
const { write: WRITE, control: CONTROL, read: READ } = ACCESS;
const COMMAND =
  'The gateway must answer: offline answers 100101, silence the timeout code of the command (docs/api.md "Gateway command codes").';

/** The gateway calls of spec section 7 "Gateways" and the sync helpers of "Configuration and real-time", under /api4. */
export function registerGatewayRoutes(app: App, deps: { gateways: GatewaysService; authenticate: Authenticate }) {
  const { gateways } = deps;
  const onRequest = requireAuth(deps.authenticate);
  const doc = signedInDoc(tags);

  app.get(`${P}/gateways`, {
    schema: {
      ...doc(
        'The gateways of the account, optionally within a project, building or map',
        `Searched by part of the name or MAC, paged. ${READ}`,
        GatewayPageSchema,
      ),
      querystring: GatewayListQuerySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.list(caller(request), request.query)),
  });

  app.get(`${P}/detail/:id`, {
    schema: {
      ...doc('A gateway with every field of spec section 3, its place, presence and sync state', READ, GatewaySchema),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.detail(caller(request), request.params.id)),
  });

  app.post(`${P}/search_device_for_mac`, {
    schema: {
      ...doc(
        'What binding a MAC would do: in the pool, yours, another account\u2019s, or unknown',
        `Tells only "other" for another account\u2019s gateway, nothing about it. ${READ}`,
        GatewayLookupSchema,
      ),
      body: GatewayMacBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.lookup(caller(request), request.body.mac)),
  });

  app.post(`${P}/move`, {
    schema: {
      ...doc(
        'Bind a gateway to a map by its MAC',
        `A provisioned gateway bound to nobody (the pool) is bound to the map; one bound to another account answers 110011; a MAC never provisioned answers 100110; one already yours moves to the map. Its configuration is then not synced until a sync. ${WRITE}`,
        GatewaySchema,
      ),
      body: GatewayBindBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.bind(caller(request), request.body)),
  });

  app.post(`${P}/update_name`, {
    schema: { ...doc('Rename a gateway', `Names are 1-50 characters. ${WRITE}`, GatewaySchema), body: GatewayRenameBodySchema },
    onRequest,
    handler: async (request) => ok(request, await gateways.rename(caller(request), request.body)),
  });

  app.post(`${P}/change_place`, {
    schema: {
      ...doc('Move a gateway to another map of the account', `Its devices placed on a map move with it. ${WRITE}`, GatewaySchema),
      body: GatewayPlaceBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.changePlace(caller(request), request.body)),
  });

  app.post(`${P}/set_params`, {
    schema: {
      ...doc(
        'Set gateway parameters (time zone, report interval, channel, large group number, sensor mode)',
        `Stored when the gateway confirms; a timeout answers 100104. ${COMMAND} ${WRITE}`,
        GatewaySchema,
      ),
      body: GatewayParamsBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.setParams(caller(request), request.body)),
  });

  app.post(`${P}/set_lon_lat`, {
    schema: {
      ...doc(
        'Set the gateway\u2019s longitude and latitude (sunrise and sunset)',
        `At most two decimals (100017). Stored when the gateway confirms. ${COMMAND} ${WRITE}`,
        GatewaySchema,
      ),
      body: GatewayLonLatBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.setLonLat(caller(request), request.body)),
  });

  app.get(`${P}/tryme/:id`, {
    schema: { ...doc('Identify: the gateway blinks its LED', `${COMMAND} ${CONTROL}`, EmptySchema), params: GatewayIdParamsSchema },
    onRequest,
    handler: async (request) => {
      await gateways.identify(caller(request), request.params.id);
      return ok(request, null);
    },
  });

  app.get(`${P}/restart_gateway/:id`, {
    schema: {
      ...doc(
        'Restart a gateway',
        `Answers when the gateway accepted; it then goes offline (activity "restarting") and comes back in 1-2 minutes. ${COMMAND} ${CONTROL}`,
        EmptySchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => {
      await gateways.restart(caller(request), request.params.id);
      return ok(request, null);
    },
  });

  app.get(`${P}/read_gateway_time/:id`, {
    schema: {
      ...doc('Read the gateway clock against the cloud\u2019s', `${COMMAND} ${READ}`, GatewayTimeSchema),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.readTime(caller(request), request.params.id)),
  });

  app.get(`${P}/sync_gateway_systemtime/:id`, {
    schema: {
      ...doc('Set the gateway clock to the cloud\u2019s', `A timeout answers 100104. ${COMMAND} ${CONTROL}`, GatewayTimeSchema),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.syncTime(caller(request), request.params.id)),
  });

  app.get(`${P}/re_report/:id`, {
    schema: {
      ...doc('Ask the gateway to report every device\u2019s state again', `${COMMAND} ${CONTROL}`, ReReportSchema),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.reReport(caller(request), request.params.id)),
  });

  app.get(`${P}/refresh_all/:id`, {
    schema: {
      ...doc('Read the gateway\u2019s fields afresh and have every device re-reported', `${COMMAND} ${CONTROL}`, GatewaySchema),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.refreshAll(caller(request), request.params.id)),
  });

  app.get(`${P}/broadcast`, {
    schema: {
      ...doc(
        'Open the gateway\u2019s networks for joining (permit-join broadcast)',
        `?id= the gateway, durationS= 0-254 seconds (default 60; 0 closes). Devices that pair meanwhile appear in check/import. A timeout answers 100104. ${COMMAND} ${WRITE}`,
        GatewayBroadcastSchema,
      ),
      querystring: GatewayBroadcastQuerySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.broadcast(caller(request), request.query)),
  });

  app.get(`${P}/sensor_self_oper/:id`, {
    schema: {
      ...doc(
        'Sensors self-operate: every sensor of the gateway acts on its own (sensor mode independent)',
        `The gateway\u2019s sensorMode becomes independent once it confirms. A timeout answers 100104. ${COMMAND} ${WRITE}`,
        GatewaySensorModeSchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.setSensorMode(caller(request), request.params.id, 'independent')),
  });

  app.get(`${P}/sensor_sync_model/:id`, {
    schema: {
      ...doc(
        'Sensors follow the synced linkage: every sensor of the gateway drives the configured linkage (sensor mode linkage)',
        `The linkage is the one of the configuration the gateway acknowledged (sync/{id}). The gateway\u2019s sensorMode becomes linkage once it confirms; a timeout answers 100104. ${COMMAND} ${WRITE}`,
        GatewaySensorModeSchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.setSensorMode(caller(request), request.params.id, 'linkage')),
  });

  app.post(`${P}/set_mawa_params`, {
    schema: {
      ...doc(
        'Set the parameters of every microwave motion sensor of the gateway',
        `holdTime 10-2540 s in steps of 10 (100221), lux 0-4000 (100227), brightness 0-100 % (100220), standbyBrightness 0-30 % (100232), whole numbers (100246); at least one. A timeout answers 100104, a refusal 100106. ${COMMAND} ${WRITE}`,
        GatewayMicrowaveResultSchema,
      ),
      body: GatewayMicrowaveBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.setMicrowaveParams(caller(request), request.body)),
  });

  app.get(`${P}/check/import/:id`, {
    schema: {
      ...doc(
        'The devices that joined the gateway, and which are not imported yet',
        `A timeout answers 100105. ${COMMAND} ${WRITE}`,
        ImportCheckSchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.checkImport(caller(request), request.params.id)),
  });

  app.get(`${P}/import/:id`, {
    schema: {
      ...doc(
        'Import the devices that joined the gateway',
        `New devices start outside any map (devices/outmap); importing again adds nothing twice. ${COMMAND} ${WRITE}`,
        ImportResultSchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.importDevices(caller(request), request.params.id)),
  });

  app.get(`${P}/devices/outmap/:mapId/:gatewayId`, {
    schema: {
      ...doc(
        'The gateway\u2019s devices not placed on any map',
        `{mapId}: the map being edited; {gatewayId}: the gateway. ${READ}`,
        GatewayDeviceListSchema,
      ),
      params: OutmapParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.outmapDevices(caller(request), request.params.mapId, request.params.gatewayId)),
  });

  app.get(`${P}/delete/:id`, {
    schema: {
      ...doc(
        'Unbind (delete) a gateway',
        `Refused while any of its devices is on a map (260013). Its other devices are removed and the gateway returns to the pool, where any account may bind it. ${WRITE}`,
        EmptySchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => {
      await gateways.unbind(caller(request), request.params.id);
      return ok(request, null);
    },
  });

  app.get(`${P}/super_gateway_devices/:id/:bridgeId`, {
    schema: {
      ...doc(
        'The bridges of a super gateway (bridgeId 0), or the devices behind one bridge',
        `Bridges are the bridge devices imported from the super gateway. ${READ}`,
        SuperGatewayDevicesSchema,
      ),
      params: BridgeParamsSchema,
    },
    onRequest,
    handler: async (request) =>
      ok(request, await gateways.superGatewayDevices(caller(request), request.params.id, request.params.bridgeId)),
  });

  app.get(`${P}/delete_bridge/:id/:bridgeId`, {
    schema: {
      ...doc(
        'Unbind a bridge of a super gateway (Lumigrid\u2019s own path)',
        `Refused while the bridge or a device behind it is on a map (260021); otherwise the bridge and its devices are freed. ${WRITE}`,
        EmptySchema,
      ),
      params: BridgeParamsSchema,
    },
    onRequest,
    handler: async (request) => {
      await gateways.unbindBridge(caller(request), request.params.id, request.params.bridgeId);
      return ok(request, null);
    },
  });

  app.get(`${P}/sync_status`, {
    schema: doc(
      'Every gateway of the account whose configuration is not synced (the header banner)',
      `Name, project, building, map and status (1 not synced, 2 syncing, 4 failed). ${READ}`,
      GatewaySyncListSchema,
    ),
    onRequest,
    handler: async (request) => ok(request, await gateways.syncStatus(caller(request))),
  });

  app.get(`${P}/sync/:id`, {
    schema: {
      ...doc(
        'Sync a gateway\u2019s configuration',
        `Sends the configuration with its version and answers when the gateway acknowledged it (status 3). A refusal answers 100107, no acknowledgement within 25 s 100109 (status 4). ${COMMAND} ${CONTROL}`,
        GatewaySyncResultSchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.sync(caller(request), request.params.id)),
  });

  app.get(`${P}/check_gateway_version/:id/:target`, {
    schema: {
      ...doc(
        'Is a firmware update available for a part of the gateway',
        `{target}: gateway, zigbee, zigbee2, zigbee3, wisun or plc. No file for the part answers 260007. ${READ}`,
        FirmwareCheckSchema,
      ),
      params: FirmwareParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.checkVersion(caller(request), request.params)),
  });

  app.get(`${P}/post_gateway_update/:id/:target`, {
    schema: {
      ...doc(
        'Start a firmware update of a part of the gateway',
        `Takes 10-20 minutes: poll gateway_upgrade_progress; the result also arrives as a type 1 notice on /topic/global_message_notice/{userId}. No file answers 260007, a refusal 100102. ${COMMAND} ${WRITE}`,
        FirmwareProgressViewSchema,
      ),
      params: FirmwareParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.startUpdate(caller(request), request.params)),
  });

  app.get(`${P}/gateway_upgrade_progress/:id`, {
    schema: {
      ...doc(
        'Progress of the gateway\u2019s firmware update',
        `State idle, updating, success, failed or timeout, with the percent. ${READ}`,
        FirmwareProgressViewSchema,
      ),
      params: GatewayIdParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await gateways.updateProgress(caller(request), request.params.id)),
  });
}
