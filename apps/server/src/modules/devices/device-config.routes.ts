import {
  BroadControlRequestSchema,
  BroadControlResultSchema,
  DeviceBatchTypeBodySchema,
  DeviceBatchTypeResultSchema,
  DeviceDeleteBodySchema,
  DeviceDeleteResultSchema,
  DeviceDelSucceedBodySchema,
  DeviceDelSucceedParamsSchema,
  DeviceIdBodySchema,
  DeviceIdParamsSchema,
  DeviceListBodySchema,
  DevicePageSchema,
  DeviceParamsBodySchema,
  DeviceParamsReadSchema,
  DeviceSchema,
  DeviceTypeTableSchema,
  EmptySchema,
  SensorOnOffBodySchema,
  TemperatureListSchema,
  TemperatureParamsSchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { type Authenticate, requireAuth } from '../../http/guards.ts';
import { ACCESS, signedInDoc } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import type { TelemetryRepo } from '../device-reports/telemetry.repo.ts';
import type { DeviceConfigService, ParamsCall } from './device-config.service.ts';
import { withTelemetry } from './devices.mappers.ts';

const P = '/api4/device/v1';
const { write: WRITE, control: CONTROL, read: READ } = ACCESS;
const RANGES =
  'Each field is checked against the parameter table of spec section 5 for the device type; the first bad field answers its range message (100220-100246, 100210) naming the field, a field the type lacks 100209.';

/**
 * The device list, parameters, deletion, batch type change and the other device calls of spec section 7
 * "Devices", and the device type table ("Device types"), under /api4.
 */
export function registerDeviceConfigRoutes(
  app: App,
  deps: { devices: DeviceConfigService; authenticate: Authenticate; telemetry?: Pick<TelemetryRepo, 'ofDevices'> },
) {
  const { devices } = deps;
  const onRequest = requireAuth(deps.authenticate);
  const doc = signedInDoc(['devices']);

  app.post(`${P}/list`, {
    schema: {
      ...doc(
        'The device list and status view, filtered and paged',
        `Filters: project, building, map, gateway, group, type, display state, part of the name or MAC; each row carries its groups. ${READ}`,
        DevicePageSchema,
      ),
      body: DeviceListBodySchema,
    },
    onRequest,
    handler: async (request) => {
      const auth = caller(request);
      const page = await devices.list(auth, request.body);
      // The last telemetry sample of each row on the page (device_telemetry).
      const samples = await deps.telemetry?.ofDevices(
        auth.tenantId,
        page.list.map((d) => BigInt(d.id)),
      );
      if (samples) page.list = page.list.map((d) => withTelemetry(d, samples.get(d.id)));
      return ok(request, page);
    },
  });

  const readParams = (path: string, summary: string, call: ParamsCall) =>
    app.post(`${P}/${path}`, {
      schema: {
        ...doc(
          summary,
          `Read from the device through its gateway: no reply 100105, a refusal 100108, a device type without parameters 100209. ${READ}`,
          DeviceParamsReadSchema,
        ),
        body: DeviceIdBodySchema,
      },
      onRequest,
      handler: async (request) => ok(request, await devices.readParams(caller(request), request.body.id, call)),
    });
  readParams('read_params', 'Read the parameters a device runs', 'any');
  readParams('get_daylight_params', 'Read the parameters of a daylight sensor', 'daylight');

  const setParams = (path: string, summary: string, call: ParamsCall, extra: string) =>
    app.post(`${P}/${path}`, {
      schema: {
        ...doc(
          summary,
          `${RANGES} ${extra} Written through the gateway: no reply 100104, a refusal 100106. Answers every parameter after the change. ${WRITE}`,
          DeviceParamsReadSchema,
        ),
        body: DeviceParamsBodySchema,
      },
      onRequest,
      handler: async (request) => ok(request, await devices.setParams(caller(request), request.body, call)),
    });
  setParams('set_device_params', 'Set parameters of a device', 'any', '');
  setParams('set_motion_params', 'Set parameters of a motion sensor', 'motion', 'Only motion sensors (else 100209).');
  setParams('set_daylight_params', 'Set parameters of a daylight sensor', 'daylight', 'Only daylight sensors (else 100209).');
  setParams(
    'set_stairs_mode',
    'Set the stairs mode of a motion sensor',
    'stairs',
    'Only stairsMode and stairsHoldTime of a motion sensor (else 100209).',
  );

  app.post(`${P}/control_sensor_onoff`, {
    schema: {
      ...doc("Switch a sensor's sensing on or off", `Not a sensor 100209; no reply 100101. ${CONTROL}`, EmptySchema),
      body: SensorOnOffBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.sensorOnOff(caller(request), request.body)),
  });

  app.post(`${P}/broad_control`, {
    schema: {
      ...doc(
        'Broadcast one action to every device of a gateway',
        `onOff, brightness, cct or rgb; a gateway without devices 110009; no reply 100101. ${CONTROL}`,
        BroadControlResultSchema,
      ),
      body: BroadControlRequestSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.broadControl(caller(request), request.body)),
  });

  app.post(`${P}/delete`, {
    schema: {
      ...doc(
        'Delete devices from the map only, or from the gateway as well',
        `fromGateway tells each device to leave the network first; when its gateway fails or does not answer, that device stays and the answer is 100205 ("device deletion failed, confirm to continue"): confirm with force, or del_device_succeed. A bridge with devices behind it that are not deleted too answers 260021. ${WRITE}`,
        DeviceDeleteResultSchema,
      ),
      body: DeviceDeleteBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.remove(caller(request), request.body)),
  });

  app.post(`${P}/del_device_succeed/:gatewayId/:id`, {
    schema: {
      ...doc(
        'Confirm the deletion of a device its gateway did not confirm',
        `The cloud forgets the device. A device of another gateway or account 110011. ${WRITE}`,
        DeviceDeleteResultSchema,
      ),
      params: DeviceDelSucceedParamsSchema,
      body: DeviceDelSucceedBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.removeConfirmed(caller(request), request.params.gatewayId, request.params.id)),
  });

  app.post(`${P}/batch_alter_devices`, {
    schema: {
      ...doc(
        'Change the type of devices in one go',
        `Only between batch-changeable types (type/v1/list, family batchChangeable), else 100207; each gateway is told first (no reply 100104). ${WRITE}`,
        DeviceBatchTypeResultSchema,
      ),
      body: DeviceBatchTypeBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.batchType(caller(request), request.body)),
  });

  app.post(`${P}/update_device_nwk`, {
    schema: {
      ...doc(
        "Refresh a device's network address, firmware and part number from its gateway",
        `A device the gateway no longer lists 100108; no reply 100105. ${WRITE}`,
        DeviceSchema,
      ),
      body: DeviceIdBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.refreshNetwork(caller(request), request.body.id)),
  });

  app.get(`${P}/input_status/:id`, {
    schema: { ...doc("A device's current state as last reported", READ, DeviceSchema), params: DeviceIdParamsSchema },
    onRequest,
    handler: async (request) => ok(request, await devices.inputStatus(caller(request), request.params.id)),
  });

  app.get(`${P}/get_all_temperature/:mapId/:gatewayId`, {
    schema: {
      ...doc(
        'The temperature sensors of a map with their last reading',
        `gatewayId 0 for every gateway of the map. ${READ}`,
        TemperatureListSchema,
      ),
      params: TemperatureParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.temperatures(caller(request), request.params)),
  });

  app.get('/api4/type/v1/list', {
    schema: {
      ...doc(
        'The device type code table',
        `Every type code with its capabilities and the families of spec section 3 it belongs to. ${READ}`,
        DeviceTypeTableSchema,
      ),
    },
    onRequest,
    handler: async (request) => ok(request, devices.typeTable()),
  });
}
