import {
  DeviceControlRequestSchema,
  DeviceDetailParamsSchema,
  DeviceIdBodySchema,
  DeviceMarkerListSchema,
  DeviceMoveInBodySchema,
  DeviceMoveOutBodySchema,
  DevicePositionsBodySchema,
  DeviceRenameBodySchema,
  DeviceSchema,
  DeviceStateQuerySchema,
  EmptySchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { type Authenticate, requireAuth } from '../../http/guards.ts';
import { ACCESS, signedInDoc } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { registerDeviceConfigRoutes } from './device-config.routes.ts';
import type { TelemetryRepo } from '../device-reports/telemetry.repo.ts';
import { withTelemetry } from './devices.mappers.ts';
import type { DevicesService } from './devices.service.ts';

const tags = ['devices'];
const P = '/api4/device/v1';
const { write: WRITE, control: CONTROL, read: READ } = ACCESS;

/** The device calls of spec section 7 "Devices" for reading, naming, placing and controlling, under /api4. */
export function registerDeviceRoutes(
  app: App,
  deps: { devices: DevicesService; authenticate: Authenticate; telemetry?: Pick<TelemetryRepo, 'ofDevices'> },
) {
  const { devices } = deps;
  const onRequest = requireAuth(deps.authenticate);
  const doc = signedInDoc(tags);
  registerDeviceConfigRoutes(app, deps);

  app.get(`${P}/state`, {
    schema: {
      ...doc(
        'The devices of a map as the floor plan draws them (compact)',
        `Changes arrive on /topic/map/{mapId} as the same markers. ${READ}`,
        DeviceMarkerListSchema,
      ),
      querystring: DeviceStateQuerySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.markers(caller(request), request.query.mapId)),
  });

  app.get(`${P}/details/:mapId/:id`, {
    schema: {
      ...doc('A device with its reported state', `A device not on that map answers 270010. ${READ}`, DeviceSchema),
      params: DeviceDetailParamsSchema,
    },
    onRequest,
    handler: async (request) => {
      const auth = caller(request);
      const device = await devices.detail(auth, request.params.mapId, request.params.id);
      // The last telemetry sample (device_telemetry), read for the device the service already checked.
      const samples = await deps.telemetry?.ofDevices(auth.tenantId, [BigInt(device.id)]);
      return ok(request, withTelemetry(device, samples?.get(device.id)));
    },
  });

  app.post(`${P}/update_name`, {
    schema: {
      ...doc('Rename a device', `1-25 characters; a switch names each channel, joined by "|" (100001, 100011). ${WRITE}`, DeviceSchema),
      body: DeviceRenameBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.rename(caller(request), request.body)),
  });

  app.post(`${P}/move_in`, {
    schema: {
      ...doc(
        'Place devices on a map',
        `Outmap devices or devices of another map, at x, y (fractions 0-1). Answers the map's markers. ${WRITE}`,
        DeviceMarkerListSchema,
      ),
      body: DeviceMoveInBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.moveIn(caller(request), request.body)),
  });

  app.put(`${P}/move`, {
    schema: {
      ...doc(
        'New positions of devices on their map',
        `A device not on the map answers 270010. Answers the map's markers. ${WRITE}`,
        DeviceMarkerListSchema,
      ),
      body: DevicePositionsBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.positions(caller(request), request.body)),
  });

  app.post(`${P}/move_out`, {
    schema: { ...doc('Take devices off their map (outmap)', WRITE, EmptySchema), body: DeviceMoveOutBodySchema },
    onRequest,
    handler: async (request) => ok(request, await devices.moveOut(caller(request), request.body)),
  });

  app.post(`${P}/try_me`, {
    schema: {
      ...doc('Identify a device: it blinks', `Offline gateway or no reply 100101. ${CONTROL}`, EmptySchema),
      body: DeviceIdBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.identify(caller(request), request.body.id)),
  });

  app.post(`${P}/control`, {
    schema: {
      ...doc(
        'Control one device through its gateway',
        `Answers when the gateway confirms; the state changes when the gateway reports it. Offline gateway 100101, no reply its timeout code, an action the type cannot do 100209. ${CONTROL}`,
        EmptySchema,
      ),
      body: DeviceControlRequestSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await devices.control(caller(request), request.body)),
  });
}
