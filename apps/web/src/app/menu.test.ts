import { describe, expect, it } from 'vitest';
import { apiKeyEndpoints, userMay } from '@lumigrid/contract/browser';
import { breadcrumbFor } from './breadcrumb.ts';
import { buildMenu, canOpen, integratorLinks } from './menu.ts';

const paths = (entries: ReturnType<typeof buildMenu>): string[] =>
  entries.flatMap((entry) => [entry.path, ...(entry.children ? paths(entry.children) : [])]);

describe('side menu (spec section 6)', () => {
  it('gives the platform administrator the outbox', () => {
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'saas'))).toContain('/system/outbox');
    expect(canOpen('/system/outbox', { user_auth: 1, operate_auth: 0 })).toBe(true);
  });

  it('gives the fleet firmware rollouts to the platform administrator alone, even by URL', () => {
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'server'))).toContain('/system/rollout');
    expect(canOpen('/system/rollout', { user_auth: 1, operate_auth: 0 })).toBe(true);
    for (const user of [
      { user_auth: 2, operate_auth: 0 },
      { user_auth: 3, operate_auth: 2 },
    ]) {
      expect(paths(buildMenu(user, 'saas'))).not.toContain('/system/rollout');
      expect(canOpen('/system/rollout', user)).toBe(false);
    }
  });

  it('keeps the outbox from accounts, even by URL', () => {
    expect(paths(buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas'))).not.toContain('/system/outbox');
    expect(canOpen('/system/outbox', { user_auth: 2, operate_auth: 0 })).toBe(false);
  });

  it('shows backup and restore to the server administrator in server mode only (spec section 2)', () => {
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'server'))).toContain('/system/data');
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'saas'))).not.toContain('/system/data');
    expect(paths(buildMenu({ user_auth: 2, operate_auth: 0 }, 'server'))).not.toContain('/system/data');
    expect(canOpen('/system/data', { user_auth: 2, operate_auth: 0 })).toBe(false);
  });

  it('hides the system menu from sub-accounts other than editable ones', () => {
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 3 }, 'saas'))).not.toContain('/system');
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas'))).not.toContain('/system');
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 2 }, 'saas'))).toContain('/system/center');
  });

  it('shows an editable sub-account only the library and the user centre of the system menu', () => {
    const system = buildMenu({ user_auth: 3, operate_auth: 2 }, 'saas').find((entry) => entry.path === '/system');
    expect(system?.children?.map((c) => c.path)).toEqual(['/system/library', '/system/center']);
    const owner = buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas').find((entry) => entry.path === '/system');
    expect(owner?.children?.map((c) => c.path).slice(0, 2)).toEqual(['/system/account', '/system/library']);
    expect(canOpen('/system/library', { user_auth: 3, operate_auth: 2 })).toBe(true);
  });

  it('shows the audit trail to the platform administrator and accounts, under System', () => {
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'saas'))).toContain('/system/audit');
    expect(paths(buildMenu({ user_auth: 2, operate_auth: 0 }, 'server'))).toContain('/system/audit');
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 2 }, 'saas'))).not.toContain('/system/audit');
  });

  it('leads every user the key endpoints let in to the API keys and webhooks: sub-accounts from the user dropdown (issue 32)', () => {
    const reached = (user: { user_auth: number; operate_auth: number }) =>
      [...paths(buildMenu(user, 'saas')), ...integratorLinks(user).map((link) => link.path)].filter((path) =>
        ['/system/apiKeys', '/system/webhooks'].includes(path),
      );
    const users = [
      { user_auth: 1, operate_auth: 0 },
      { user_auth: 2, operate_auth: 0 },
      ...[2, 3, 4].map((operate_auth) => ({ user_auth: 3, operate_auth })),
    ];
    for (const user of users) {
      // The pages and the server follow one rule: whoever may call the endpoint that makes keys reaches the page, once.
      expect(userMay(user, apiKeyEndpoints.create.access), JSON.stringify(user)).toBe(true);
      expect(reached(user), JSON.stringify(user)).toEqual(['/system/apiKeys', '/system/webhooks']);
      expect(canOpen('/system/apiKeys', user)).toBe(true);
    }
    expect(integratorLinks({ user_auth: 2, operate_auth: 0 })).toEqual([]);
    const owner = buildMenu({ user_auth: 2, operate_auth: 0 }, 'server').find((entry) => entry.path === '/system');
    const order = owner?.children?.map((c) => c.path) ?? [];
    expect(order.indexOf('/system/apiKeys')).toBe(order.indexOf('/system/audit') + 1);
  });

  it('shows webhooks beside the API keys, to the same users', () => {
    const system = (user: { user_auth: number; operate_auth: number }, mode: 'saas' | 'server') => paths(buildMenu(user, mode));
    const owner = system({ user_auth: 2, operate_auth: 0 }, 'saas');
    expect(owner.indexOf('/system/webhooks')).toBe(owner.indexOf('/system/apiKeys') + 1);
    expect(system({ user_auth: 1, operate_auth: 0 }, 'server')).toContain('/system/webhooks');
    expect(system({ user_auth: 3, operate_auth: 2 }, 'saas')).not.toContain('/system/webhooks');
    expect(canOpen('/system/webhooks', { user_auth: 3, operate_auth: 3 })).toBe(true);
  });

  it('shows single sign-on to account owners alone: it is the account’s, not the platform’s or a sub-account’s', () => {
    expect(paths(buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas'))).toContain('/system/sso');
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'saas'))).not.toContain('/system/sso');
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 2 }, 'server'))).not.toContain('/system/sso');
    expect(canOpen('/system/sso', { user_auth: 3, operate_auth: 2 })).toBe(false);
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
  it('lists the fault statistics first, then the fault list, then the alarms and their settings, for every user', () => {
    const alert = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas').find((entry) => entry.path === '/alert');
    expect(alert?.icon).toBe('alert');
    expect(alert?.children?.map((c) => [c.path, c.labelKey])).toEqual([
      ['/alert/index', 'menu.alertIndex'],
      ['/alert/list', 'menu.alertList'],
      ['/alert/alarms', 'menu.alarmList'],
      ['/alert/alarmSettings', 'menu.alarmSettings'],
    ]);
    expect(canOpen('/alert/index', { user_auth: 3, operate_auth: 4 })).toBe(true);
    expect(canOpen('/alert/list', { user_auth: 3, operate_auth: 4 })).toBe(true);
    expect(canOpen('/alert/alarms', { user_auth: 3, operate_auth: 4 })).toBe(true);
  });
});

describe('the energy menu (spec section 2)', () => {
  it('lists statistics, the records and report management for every user, between scenes and faults', () => {
    const menu = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas');
    const groups = menu.map((entry) => entry.path);
    expect(groups.indexOf('/energy')).toBe(groups.indexOf('/scene') + 1);
    expect(groups.indexOf('/alert')).toBeGreaterThan(groups.indexOf('/energy'));
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

describe('the emergency menu (spec section 2)', () => {
  const menu = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas');
  const emergency = menu.find((entry) => entry.path === '/emergency');

  it('sits between energy and faults, in the order of the spec route table, for every user', () => {
    const groups = menu.map((entry) => entry.path);
    expect(groups.indexOf('/emergency')).toBe(groups.indexOf('/energy') + 1);
    expect(groups.indexOf('/alert')).toBe(groups.indexOf('/emergency') + 1);
    expect(emergency?.icon).toBe('emergency');
  });

  it('shows detection management and the reports; the task form and the details stay in the breadcrumb', () => {
    expect(emergency?.children?.filter((c) => !c.hidden).map((c) => c.path)).toEqual(['/emergency/set', '/emergency/report']);
    expect(breadcrumbFor('/emergency/set/add', menu).map((c) => c.labelKey)).toEqual([
      'menu.emergency',
      'menu.emergencySet',
      'menu.emergencyTask',
    ]);
    expect(breadcrumbFor('/emergency/report/details', menu).map((c) => c.labelKey)).toEqual([
      'menu.emergency',
      'menu.emergencyReport',
      'menu.emergencyReportDetail',
    ]);
    expect(canOpen('/emergency/set/details', { user_auth: 3, operate_auth: 4 })).toBe(true);
  });
});

describe('the Push menu (spec section 6)', () => {
  const owner = { user_auth: 2, operate_auth: 0 };
  const reviewer = { user_auth: 1, operate_auth: 0, push_auth: true };
  const push = (user: Parameters<typeof buildMenu>[0], mode: 'saas' | 'server') => buildMenu(user, mode).find((e) => e.path === '/push');

  it('shows Push only to operate_auth 0 in SaaS mode, with news and apps and categories', () => {
    expect(
      push(owner, 'saas')
        ?.children?.filter((c) => !c.hidden)
        .map((c) => c.path),
    ).toEqual(['/push/index', '/push/child/index']);
    expect(push(owner, 'server')).toBeUndefined();
    expect(push(reviewer, 'server')).toBeUndefined();
    for (const operate_auth of [2, 3, 4]) expect(push({ user_auth: 3, operate_auth }, 'saas')).toBeUndefined();
  });

  it('adds the pushed review screen for administrators with the push permission only', () => {
    expect(paths(buildMenu(reviewer, 'saas'))).toContain('/push/review');
    expect(paths(buildMenu({ ...reviewer, push_auth: false }, 'saas'))).not.toContain('/push/review');
    expect(paths(buildMenu({ ...owner, push_auth: true }, 'saas'))).not.toContain('/push/review');
  });

  it('keeps push pages shut by URL to everyone the menu hides them from', () => {
    expect(canOpen('/push/index', owner, 'saas')).toBe(true);
    expect(canOpen('/push/editNews', owner, 'saas')).toBe(true);
    expect(canOpen('/push/index', owner, 'server')).toBe(false);
    expect(canOpen('/push/index', owner)).toBe(false);
    expect(canOpen('/push/index', { user_auth: 3, operate_auth: 2 }, 'saas')).toBe(false);
    expect(canOpen('/push/review', owner, 'saas')).toBe(false);
    expect(canOpen('/push/review', reviewer, 'saas')).toBe(true);
  });

  it('puts the editors and the details under their lists in the breadcrumb', () => {
    const menu = buildMenu(owner, 'saas');
    expect(breadcrumbFor('/push/editNews', menu).map((c) => c.labelKey)).toEqual(['menu.push', 'menu.pushNews', 'menu.pushEditNews']);
    expect(breadcrumbFor('/push/addApp', menu).map((c) => c.labelKey)).toEqual(['menu.push', 'menu.pushApps', 'menu.pushAddApp']);
  });
});
