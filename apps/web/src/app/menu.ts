import {
  canManageAccounts,
  canManageApiKeys,
  canSeeAdministrators,
  isAccountOwner,
  canSeePush,
  canSeePushReview,
  systemMenuScope,
  type Mode,
} from '@lumigrid/contract/browser';

interface MenuSubject {
  user_auth: number;
  operate_auth: number;
  push_auth?: boolean;
  demo?: boolean;
}

export type MenuLabelKey =
  | 'menu.home'
  | 'menu.project'
  | 'menu.projectList'
  | 'menu.projectDetail'
  | 'menu.device'
  | 'menu.deviceControl'
  | 'menu.deviceList'
  | 'menu.deviceListStatus'
  | 'menu.deviceConfig'
  | 'menu.deviceConfigDetail'
  | 'menu.deviceGroup'
  | 'menu.heatmap'
  | 'menu.gateway'
  | 'menu.gatewayList'
  | 'menu.gatewayDetail'
  | 'menu.scene'
  | 'menu.sceneList'
  | 'menu.sceneSchedule'
  | 'menu.sceneDetail'
  | 'menu.sceneAddManual'
  | 'menu.sceneAddSchedule'
  | 'menu.sceneAddSun'
  | 'menu.sceneAddOnce'
  | 'menu.sceneAddSequence'
  | 'menu.energy'
  | 'menu.energyIndex'
  | 'menu.energyDetail'
  | 'menu.energyReport'
  | 'menu.emergency'
  | 'menu.emergencySet'
  | 'menu.emergencyTask'
  | 'menu.emergencyTaskDetail'
  | 'menu.emergencyReport'
  | 'menu.emergencyReportDetail'
  | 'menu.push'
  | 'menu.pushNews'
  | 'menu.pushApps'
  | 'menu.pushReview'
  | 'menu.pushAddApp'
  | 'menu.pushEditApp'
  | 'menu.pushAddNews'
  | 'menu.pushEditNews'
  | 'menu.pushDetails'
  | 'menu.alert'
  | 'menu.alertIndex'
  | 'menu.alertList'
  | 'menu.alarmList'
  | 'menu.alarmSettings'
  | 'menu.system'
  | 'menu.account'
  | 'menu.center'
  | 'menu.library'
  | 'menu.functionParameter'
  | 'menu.interfaceParameter'
  | 'menu.data'
  | 'menu.outbox'
  | 'menu.rollout'
  | 'menu.audit'
  | 'menu.apiKeys'
  | 'menu.webhooks'
  | 'menu.sso';
export type MenuIcon = 'home' | 'project' | 'device' | 'gateway' | 'scene' | 'energy' | 'emergency' | 'alert' | 'push' | 'system';

/** One side-menu entry; labels are catalogue keys so the menu follows the language. */
export interface MenuEntry {
  path: string;
  labelKey: MenuLabelKey;
  icon?: MenuIcon;
  /** A page reached from another one (a detail): in the breadcrumb, not in the side menu. */
  hidden?: boolean;
  /** For a hidden page: the sibling it is opened from, shown before it in the breadcrumb. */
  under?: string;
  children?: MenuEntry[];
}

/**
 * The side menu for a user: only screens that exist. The system menu follows spec section 6 through the
 * contract's systemMenuScope (sub-accounts other than editable ones get none of it; editable ones the library and
 * the user centre). The outbox is the platform administrator's (user_auth 1).
 */
export function buildMenu(user: MenuSubject, mode: Mode): MenuEntry[] {
  const menu: MenuEntry[] = [
    { path: '/home', labelKey: 'menu.home', icon: 'home' },
    section('/project', 'menu.project', 'project', [
      page('/project/list', 'menu.projectList'),
      ...openedFrom('/project/list', [['/project/detail', 'menu.projectDetail']]),
    ]),
    section('/device', 'menu.device', 'device', [
      page('/device/control', 'menu.deviceControl'),
      page('/device/list/list', 'menu.deviceList'),
      page('/device/list/status', 'menu.deviceListStatus'),
      page('/device/config/list', 'menu.deviceConfig'),
      ...openedFrom('/device/config/list', [['/device/config/detail', 'menu.deviceConfigDetail']]),
      page('/device/group', 'menu.deviceGroup'),
    ]),
    // Spec section 2: reached from the device map, hidden from the menu; the breadcrumb puts it under devices.
    ...openedFrom('/device', [['/heatmap', 'menu.heatmap']]),
    section('/gateway', 'menu.gateway', 'gateway', [
      page('/gateway/list', 'menu.gatewayList'),
      ...openedFrom('/gateway/list', [['/gateway/detail', 'menu.gatewayDetail']]),
    ]),
    section('/scene', 'menu.scene', 'scene', [
      page('/scene/list', 'menu.sceneList'),
      page('/scene/schedule', 'menu.sceneSchedule'),
      ...openedFrom('/scene/list', [
        ['/scene/detail', 'menu.sceneDetail'],
        ['/scene/add/manual', 'menu.sceneAddManual'],
        ['/scene/add/schedule', 'menu.sceneAddSchedule'],
        ['/scene/add/sunriseSunset', 'menu.sceneAddSun'],
        ['/scene/add/reportonce', 'menu.sceneAddOnce'],
        ['/scene/add/sequence', 'menu.sceneAddSequence'],
      ]),
    ]),
    section('/energy', 'menu.energy', 'energy', [
      page('/energy/index', 'menu.energyIndex'),
      page('/energy/detail', 'menu.energyDetail'),
      page('/energy/report', 'menu.energyReport'),
    ]),
    section('/emergency', 'menu.emergency', 'emergency', [
      page('/emergency/set', 'menu.emergencySet'),
      ...openedFrom('/emergency/set', [
        ['/emergency/set/add', 'menu.emergencyTask'],
        ['/emergency/set/details', 'menu.emergencyTaskDetail'],
      ]),
      page('/emergency/report', 'menu.emergencyReport'),
      ...openedFrom('/emergency/report', [['/emergency/report/details', 'menu.emergencyReportDetail']]),
    ]),
    section('/alert', 'menu.alert', 'alert', [
      page('/alert/index', 'menu.alertIndex'),
      page('/alert/list', 'menu.alertList'),
      page('/alert/alarms', 'menu.alarmList'),
      page('/alert/alarmSettings', 'menu.alarmSettings'),
    ]),
  ];
  const push = pushMenu(user, mode);
  if (push) menu.push(push);
  const system = systemMenu(user, mode);
  if (system) menu.push(system);
  return menu;
}

function page(path: string, labelKey: MenuLabelKey): MenuEntry {
  return { path, labelKey };
}

function section(path: string, labelKey: MenuLabelKey, icon: MenuIcon, children: MenuEntry[]): MenuEntry {
  return { path, labelKey, icon, children };
}

/** Pages opened from `under` (details, editors): in the breadcrumb after it, not in the side menu. */
function openedFrom(under: string, pages: [path: string, labelKey: MenuLabelKey][]): MenuEntry[] {
  return pages.map(([path, labelKey]) => ({ path, labelKey, hidden: true, under }));
}

/** The system menu, each page beside the condition that shows it. */
function systemMenu(user: MenuSubject, mode: Mode): MenuEntry | undefined {
  const scope = systemMenuScope(user);
  if (scope === 'none') return undefined;
  const all = scope === 'all';
  const administrator = all && canSeeAdministrators(user);
  const pages: [shown: boolean, path: string, labelKey: MenuLabelKey][] = [
    [all && managesAccounts(user), '/system/account', 'menu.account'],
    [true, '/system/library', 'menu.library'],
    // Parameter sets belong to the account's configuration: not for sub-accounts limited to the library and centre.
    [all, '/system/functionParameter', 'menu.functionParameter'],
    [all, '/system/interfaceParameter', 'menu.interfaceParameter'],
    // The audit trail: what each caller sees of it the server decides (its own and its sub-accounts' entries).
    [all, '/system/audit', 'menu.audit'],
    // API keys and webhooks: each user makes its own within its authority (the server checks). Spec section 6's
    // menu for sub-accounts (library and centre only) holds; they reach both from the user dropdown (integratorLinks).
    [all, '/system/apiKeys', 'menu.apiKeys'],
    [all, '/system/webhooks', 'menu.webhooks'],
    // Single sign-on is the account's: its owner sets it up.
    [ownsAccount(user), '/system/sso', 'menu.sso'],
    [true, '/system/center', 'menu.center'],
    [administrator, '/system/outbox', 'menu.outbox'],
    // Fleet firmware rollouts run across every tenant: the platform administrator's alone.
    [administrator, '/system/rollout', 'menu.rollout'],
    // Backup and restore are the on-premise server's (spec section 2: not shown in SaaS mode).
    [administrator && mode === 'server', '/system/data', 'menu.data'],
  ];
  const children = pages.filter(([shown]) => shown).map(([, path, labelKey]) => page(path, labelKey));
  return section('/system', 'menu.system', 'system', children);
}

/**
 * Spec section 6: Push only for operate_auth 0 in SaaS mode; its pushed review screen only for reviewers (the
 * separate push permission, docs/roles.md). The editors and the details open from the lists.
 */
function pushMenu(user: MenuSubject, mode: Mode): MenuEntry | undefined {
  if (!canSeePush(user, mode)) return undefined;
  const children: MenuEntry[] = [
    page('/push/index', 'menu.pushNews'),
    page('/push/child/index', 'menu.pushApps'),
    ...openedFrom('/push/index', [
      ['/push/addNews', 'menu.pushAddNews'],
      ['/push/editNews', 'menu.pushEditNews'],
      ['/push/details', 'menu.pushDetails'],
    ]),
    ...openedFrom('/push/child/index', [
      ['/push/addApp', 'menu.pushAddApp'],
      ['/push/editApp', 'menu.pushEditApp'],
    ]),
  ];
  if (canSeePushReview(user, mode)) children.push(page('/push/review', 'menu.pushReview'));
  return section('/push', 'menu.push', 'push', children);
}

/**
 * The integrator pages a user manages but the system menu does not list (sub-accounts: spec section 6 gives them
 * the library and the user centre at most), offered in the user dropdown instead.
 */
export function integratorLinks(user: MenuSubject): MenuEntry[] {
  if (!canManageApiKeys(user) || systemMenuScope(user) === 'all') return [];
  return [page('/system/apiKeys', 'menu.apiKeys'), page('/system/webhooks', 'menu.webhooks')];
}

/** The platform administrator and account owners manage accounts (/system/account). */
function managesAccounts(user: MenuSubject): boolean {
  return canManageAccounts({ userAuth: user.user_auth, operateAuth: user.operate_auth });
}

function ownsAccount(user: MenuSubject): boolean {
  return isAccountOwner({ userAuth: user.user_auth, operateAuth: user.operate_auth });
}

/**
 * Whether a signed-in user may open a route. The user centre stays reachable from the user dropdown even
 * when the system menu is hidden, because everyone may change their own password.
 */
export function canOpen(pathname: string, user: MenuSubject, mode?: Mode): boolean {
  if (pathname === '/system/apiKeys') return canManageApiKeys(user);
  // Without the mode nothing of push opens: it exists in SaaS mode only.
  if (pathname === '/push/review') return mode !== undefined && canSeePushReview(user, mode);
  if (pathname === '/push' || pathname.startsWith('/push/')) return mode !== undefined && canSeePush(user, mode);
  if (pathname === '/system/account' || pathname.startsWith('/system/account/')) return managesAccounts(user);
  if (pathname === '/system/outbox' || pathname.startsWith('/system/outbox/')) return canSeeAdministrators(user);
  if (pathname === '/system/data') return canSeeAdministrators(user);
  if (pathname === '/system/rollout') return canSeeAdministrators(user);
  if (pathname === '/system/sso') return ownsAccount(user);
  return true;
}
