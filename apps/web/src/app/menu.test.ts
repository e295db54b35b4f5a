import { describe, expect, it } from 'vitest';
import { breadcrumbFor } from './breadcrumb.ts';
import { buildMenu, canOpen } from './menu.ts';

const paths = (entries: ReturnType<typeof buildMenu>): string[] =>
  entries.flatMap((entry) => [entry.path, ...(entry.children ? paths(entry.children) : [])]);

describe('side menu (spec section 6)', () => {
  it('gives the platform administrator the outbox', () => {
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'saas'))).toContain('/system/outbox');
    expect(canOpen('/system/outbox', { user_auth: 1, operate_auth: 0 })).toBe(true);
  });

  it('keeps the outbox from accounts, even by URL', () => {
    expect(paths(buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas'))).not.toContain('/system/outbox');
    expect(canOpen('/system/outbox', { user_auth: 2, operate_auth: 0 })).toBe(false);
  });

  it('hides the system menu from sub-accounts other than editable ones', () => {
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 3 }, 'saas'))).not.toContain('/system');
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 2 }, 'saas'))).toContain('/system/center');
  });
});

describe('the scene menu (spec section 2)', () => {
  const scene = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas').find((entry) => entry.path === '/scene');

  it('lists the scene list and schedule management for every user, even view-only ones', () => {
    expect(scene?.children?.filter((c) => !c.hidden).map((c) => c.path)).toEqual(['/scene/list', '/scene/schedule']);
  });

  it('keeps the detail and every editor out of the side menu, under the scene list in the breadcrumb', () => {
    const hidden = scene?.children?.filter((c) => c.hidden) ?? [];
    expect(hidden.map((c) => c.path)).toEqual([
      '/scene/detail',
      '/scene/add/manual',
      '/scene/add/schedule',
      '/scene/add/sunriseSunset',
      '/scene/add/reportonce',
      '/scene/add/sequence',
    ]);
    expect(hidden.every((c) => c.under === '/scene/list')).toBe(true);
    const menu = buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas');
    expect(breadcrumbFor('/scene/add/sunriseSunset', menu).map((c) => c.labelKey)).toEqual([
      'menu.scene',
      'menu.sceneList',
      'menu.sceneAddSun',
    ]);
  });
});

describe('the fault menu (spec section 2)', () => {
  it('lists the fault statistics first, then the fault list, for every user', () => {
    const alert = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas').find((entry) => entry.path === '/alert');
    expect(alert?.icon).toBe('alert');
    expect(alert?.children?.map((c) => [c.path, c.labelKey])).toEqual([
      ['/alert/index', 'menu.alertIndex'],
      ['/alert/list', 'menu.alertList'],
    ]);
    expect(canOpen('/alert/index', { user_auth: 3, operate_auth: 4 })).toBe(true);
    expect(canOpen('/alert/list', { user_auth: 3, operate_auth: 4 })).toBe(true);
  });
});

describe('the energy menu (spec section 2)', () => {
  it('lists statistics, the records and report management for every user, between scenes and faults', () => {
    const menu = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas');
    const groups = menu.map((entry) => entry.path);
    expect(groups.indexOf('/energy')).toBe(groups.indexOf('/scene') + 1);
    expect(groups.indexOf('/alert')).toBe(groups.indexOf('/energy') + 1);
    const energy = menu.find((entry) => entry.path === '/energy');
    expect(energy?.icon).toBe('energy');
    expect(energy?.children?.map((c) => [c.path, c.labelKey])).toEqual([
      ['/energy/index', 'menu.energyIndex'],
      ['/energy/detail', 'menu.energyDetail'],
      ['/energy/report', 'menu.energyReport'],
    ]);
    expect(canOpen('/energy/report', { user_auth: 3, operate_auth: 4 })).toBe(true);
  });
});
