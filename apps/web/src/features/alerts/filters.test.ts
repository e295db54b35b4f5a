import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { alertFilters, alertReportFilters } from './filters.ts';

describe('fault list filters', () => {
  it('sends nothing for an empty form', () => {
    expect(alertFilters({})).toEqual({});
  });

  it('reads the fault code select as a number and the ongoing select as a flag', () => {
    expect(alertFilters({ code: '8', state: 'pending', open: 'open' })).toEqual({ code: 8, state: 'pending', open: true });
    expect(alertFilters({ open: 'cleared' })).toEqual({ open: false });
  });

  it('covers the chosen days whole, in local time', () => {
    const { from, to } = alertFilters({ raisedAt: ['2026-03-01', '2026-03-02'] });
    expect(from).toBe(dayjs('2026-03-01T00:00:00').toISOString());
    expect(to).toBe(dayjs('2026-03-02T23:59:59.999').toISOString());
  });
});

describe('the failure report', () => {
  it('takes the page\u2019s filters without its paging', () => {
    expect(alertReportFilters({ projectId: 'p', code: 8, open: true, page: 2, pageSize: 50, after: 'x' })).toEqual({
      projectId: 'p',
      code: 8,
      open: true,
    });
  });
});
