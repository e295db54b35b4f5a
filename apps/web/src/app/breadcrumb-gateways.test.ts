import { describe, expect, it } from 'vitest';
import { breadcrumbFor } from './breadcrumb.ts';
import { buildMenu } from './menu.ts';

const labels = (pathname: string) => breadcrumbFor(pathname, buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas')).map((c) => c.labelKey);

describe('menu and breadcrumbs of the gateway screens', () => {
  it('lists the gateway list in the menu for every role, the detail hidden under it', () => {
    for (const operate_auth of [0, 2, 3, 4]) {
      const gateway = buildMenu({ user_auth: 3, operate_auth }, 'saas').find((entry) => entry.path === '/gateway');
      expect(gateway?.children?.map((c) => [c.path, Boolean(c.hidden)])).toEqual([
        ['/gateway/list', false],
        ['/gateway/detail', true],
      ]);
    }
  });

  it('leads from the area through the list to the detail', () => {
    expect(labels('/gateway/list')).toEqual(['menu.gateway', 'menu.gatewayList']);
    expect(labels('/gateway/detail')).toEqual(['menu.gateway', 'menu.gatewayList', 'menu.gatewayDetail']);
  });
});
