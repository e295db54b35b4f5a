import { alarmEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { AlarmsService } from './alarms.service.ts';

/** The alarm calls of the endpoint table (contract endpoints/alarms.ts). */
export function registerAlarmRoutes(route: RouteOf, deps: { alarms: AlarmsService }) {
  const { alarms } = deps;
  route(E.page, ({ auth, body }) => alarms.page(auth, body));
  route(E.summary, ({ auth }) => alarms.summary(auth));
  route(E.acknowledge, ({ auth, body }) => alarms.acknowledge(auth, body));
  route(E.shelve, ({ auth, body }) => alarms.shelve(auth, body));
  route(E.unshelve, ({ auth, body }) => alarms.unshelve(auth, body));
  route(E.settings, ({ auth, query }) => alarms.settings(auth, query));
  route(E.saveSettings, ({ auth, body }) => alarms.saveSettings(auth, body));
}
