import type { MenuEntry, MenuLabelKey } from './menu.ts';

export interface Crumb {
  path: string;
  labelKey: MenuLabelKey;
}

/** The breadcrumb of a path: the chain of menu entries leading to it, outermost first. */
export function breadcrumbFor(pathname: string, menu: MenuEntry[]): Crumb[] {
  for (const entry of menu) {
    if (pathname === entry.path) {
      const via = entry.under ? menu.find((sibling) => sibling.path === entry.under) : undefined;
      const own = { path: entry.path, labelKey: entry.labelKey };
      return via ? [{ path: via.path, labelKey: via.labelKey }, own] : [own];
    }
    if (entry.children && pathname.startsWith(`${entry.path}/`)) {
      const inner = breadcrumbFor(pathname, entry.children);
      if (inner.length) return [{ path: entry.path, labelKey: entry.labelKey }, ...inner];
    }
  }
  return [];
}
