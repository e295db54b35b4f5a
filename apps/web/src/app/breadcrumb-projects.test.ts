import { describe, expect, it } from 'vitest';
import { breadcrumbFor } from './breadcrumb.ts';
import { buildMenu } from './menu.ts';

const labels = (pathname: string) => breadcrumbFor(pathname, buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas')).map((c) => c.labelKey);

describe('breadcrumbs of the installation screens', () => {
  it('leads from the area to the page', () => {
    expect(labels('/project/list')).toEqual(['menu.project', 'menu.projectList']);
    expect(labels('/device/control')).toEqual(['menu.device', 'menu.deviceControl']);
  });

  it('puts the project detail, hidden from the menu, under the project list', () => {
    expect(labels('/project/detail')).toEqual(['menu.project', 'menu.projectList', 'menu.projectDetail']);
    const menu = buildMenu({ user_auth: 3, operate_auth: 4 }, 'saas');
    expect(menu.find((entry) => entry.path === '/project')?.children?.find((c) => c.path === '/project/detail')?.hidden).toBe(true);
  });
});
