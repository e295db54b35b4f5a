import { endpoint } from '../endpoint.ts';
import {
  AlertCountSchema,
  AlertDeleteBodySchema,
  AlertHandleBodySchema,
  AlertListBodySchema,
  AlertPageSchema,
  AlertStatisticsBodySchema,
  AlertStatisticsSchema,
} from '../alerts.ts';

/** The fault calls of spec section 7 "Status and faults", and the alert list Lumigrid adds. */
export const alertEndpoints = {
  page: endpoint({
    method: 'POST',
    path: '/api4/status/v1/page_alerts',
    tags: ['alerts'],
    summary: 'The account\u2019s alerts, newest first',
    description:
      'Filtered by project, building, map, gateway, fault code, state (pending, handled), open or cleared, and the time raised. `next` pages on by the index however deep (keyset); `page` counts from the start.',
    access: 'read',
    body: AlertListBodySchema,
    response: AlertPageSchema,
  }),
  statistics: endpoint({
    method: 'POST',
    path: '/api4/status/v1/statistics',
    tags: ['alerts'],
    summary: 'Fault statistics: totals, by code, by map, over time, mean time to clear',
    description:
      'Of the alerts raised between `from` and `to` in the account (or a project, building or map), bucketed by day, week or month in the reader\u2019s offset from UTC. `open` counts faults lasting now.',
    access: 'read',
    body: AlertStatisticsBodySchema,
    response: AlertStatisticsSchema,
  }),
  handle: endpoint({
    method: 'POST',
    path: '/api4/status/v1/handle',
    tags: ['alerts'],
    summary: 'Mark alerts handled, with a note',
    description:
      'Records who handled them and when; alerts already handled keep their first handler. Ids of another account answer 110011 and change nothing.',
    access: 'control',
    body: AlertHandleBodySchema,
    response: AlertCountSchema,
  }),
  remove: endpoint({
    method: 'POST',
    path: '/api4/status/v1/delete',
    tags: ['alerts'],
    summary: 'Delete alerts',
    description:
      'The records go; a fault that lasts is not raised again until it clears and comes back. Ids of another account answer 110011 and change nothing.',
    access: 'write',
    body: AlertDeleteBodySchema,
    response: AlertCountSchema,
  }),
};
