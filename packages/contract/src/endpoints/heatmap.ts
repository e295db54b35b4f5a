import { endpoint } from '../endpoint.ts';
import { SpreadsheetSchema, XLSX_MIME } from '../common.ts';
import {
  HeatmapDownloadBodySchema,
  HeatmapGenBodySchema,
  HeatmapGenSchema,
  HeatmapPageBodySchema,
  HeatmapPageSchema,
  HeatmapResetBodySchema,
  HeatmapSettingsBodySchema,
  HeatmapSettingsParamsSchema,
  HeatmapSettingsSchema,
} from '../heatmap.ts';

/** The heatmap calls: spec section 7 names gen, gen_page and gen_download under induction/v1 (prefix /api6). */
export const heatmapEndpoints = {
  gen: endpoint({
    method: 'POST',
    path: '/api6/induction/v1/gen',
    tags: ['heatmap'],
    summary: 'The heat of a map: each placed motion sensor\u2019s activations over local days, and the week by hour',
    description:
      'An activation is a 30-minute window in which a motion sensor reported occupied. Percentages are of the map\u2019s most active sensor. `week` counts by local day of week (Monday first) and hour, of the map or of `sensorId`. A map of another account answers 110011, as does a sensor not on the map; a device of the map that is no sensor of the heatmap (not a motion sensor, no activations in the range) answers 100209; `to` before `from`, an impossible date or a span over 366 days, 100001.',
    access: 'read',
    body: HeatmapGenBodySchema,
    response: HeatmapGenSchema,
  }),
  page: endpoint({
    method: 'POST',
    path: '/api6/induction/v1/gen_page',
    tags: ['heatmap'],
    summary: 'The motion sensors of a project, building or map with their activations, most active first',
    description: 'Percentages are of the place\u2019s most active sensor. A place of another account answers 110011.',
    access: 'read',
    body: HeatmapPageBodySchema,
    response: HeatmapPageSchema,
  }),
  download: endpoint({
    method: 'POST',
    path: '/api6/induction/v1/gen_download',
    tags: ['heatmap'],
    summary: 'The rows of gen_page as an Excel workbook',
    description: 'Every sensor the filters take, most active first; headers in the caller\u2019s language. Streamed.',
    access: 'read',
    body: HeatmapDownloadBodySchema,
    kind: 'raw',
    produces: [XLSX_MIME],
    response: SpreadsheetSchema,
  }),
  settings: endpoint({
    method: 'GET',
    path: '/api6/induction/v1/settings/:projectId',
    tags: ['heatmap'],
    summary: 'A project\u2019s heatmap colour levels (sensing count percentages and colours)',
    description: 'The defaults until a user sets them. A project of another account answers 110011.',
    access: 'read',
    params: HeatmapSettingsParamsSchema,
    response: HeatmapSettingsSchema,
  }),
  saveSettings: endpoint({
    method: 'POST',
    path: '/api6/induction/v1/settings',
    tags: ['heatmap'],
    summary: 'Sets a project\u2019s heatmap colour levels',
    description:
      'Stored in ascending order. Sensing counts are percentages from 1 to 100 (100902) and must differ from each other (100901).',
    access: 'write',
    body: HeatmapSettingsBodySchema,
    response: HeatmapSettingsSchema,
    errors: [100901, 100902],
  }),
  resetSettings: endpoint({
    method: 'POST',
    path: '/api6/induction/v1/settings_reset',
    tags: ['heatmap'],
    summary: 'Puts a project\u2019s heatmap colour levels back to the defaults',
    description: 'The counts are kept: only the levels are reset. The web asks for confirmation first (spec section 5).',
    access: 'write',
    body: HeatmapResetBodySchema,
    response: HeatmapSettingsSchema,
  }),
};
