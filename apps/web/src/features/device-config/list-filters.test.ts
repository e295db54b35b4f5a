import { describe, expect, it } from 'vitest';
import { deviceListFilters, placeQuery, reportFilters, stateScope } from './list-filters.ts';

describe('device list filters', () => {
  it('narrows to the last place chosen', () => {
    expect(placeQuery(undefined)).toEqual({});
    expect(placeQuery(['p'])).toEqual({ projectId: 'p' });
    expect(placeQuery(['p', 'b'])).toEqual({ buildId: 'b' });
    expect(placeQuery(['p', 'b', 'm'])).toEqual({ mapId: 'm' });
  });

  it('reads the search form, selects as numbers, blanks as nothing', () => {
    expect(deviceListFilters({ keyword: '  lamp ', type: '3', fault: '8', display: 'failure', gatewayId: 'g', place: ['p', 'b'] })).toEqual(
      {
        name: 'lamp',
        type: 3,
        fault: 8,
        display: 'failure',
        gatewayId: 'g',
        buildId: 'b',
      },
    );
    expect(deviceListFilters({ keyword: '  ', fault: '' })).toEqual({});
  });

  it('drops the paging for the report', () => {
    expect(reportFilters({ page: 3, pageSize: 50, mapId: 'm', fault: 2 })).toEqual({ mapId: 'm', fault: 2 });
  });

  it('counts the summary over the place and gateway only', () => {
    expect(stateScope({ page: 1, pageSize: 20, mapId: 'm', gatewayId: 'g', type: 3, fault: 8, name: 'x', groupId: 'k' })).toEqual({
      mapId: 'm',
      gatewayId: 'g',
    });
    expect(stateScope({ page: 1, pageSize: 20 })).toEqual({});
  });
});
