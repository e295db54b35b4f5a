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
    {
      path: '/project',
      labelKey: 'menu.project',
      icon: 'project',
      children: [
        { path: '/project/list', labelKey: 'menu.projectList' },
        { path: '/project/detail', labelKey: 'menu.projectDetail', hidden: true, under: '/project/list' },
      ],
    },
    {
      path: '/device',
      labelKey: 'menu.device',
      icon: 'device',
      children: [
        { path: '/device/control', labelKey: 'menu.deviceControl' },
        { path: '/device/list/list', labelKey: 'menu.deviceList' },
        { path: '/device/list/status', labelKey: 'menu.deviceListStatus' },
        { path: '/device/config/list', labelKey: 'menu.deviceConfig' },
        { path: '/device/config/detail', labelKey: 'menu.deviceConfigDetail', hidden: true, under: '/device/config/list' },
        { path: '/device/group', labelKey: 'menu.deviceGroup' },
      ],
    },
    // Spec section 2: reached from the device map, hidden from the menu; the breadcrumb puts it under devices.
    { path: '/heatmap', labelKey: 'menu.heatmap', hidden: true, under: '/device' },
    {
      path: '/gateway',
      labelKey: 'menu.gateway',
      icon: 'gateway',
      children: [
        { path: '/gateway/list', labelKey: 'menu.gatewayList' },
        { path: '/gateway/detail', labelKey: 'menu.gatewayDetail', hidden: true, under: '/gateway/list' },
      ],
    },
    {
      path: '/scene',
      labelKey: 'menu.scene',
      icon: 'scene',
      children: [
        { path: '/scene/list', labelKey: 'menu.sceneList' },
        { path: '/scene/schedule', labelKey: 'menu.sceneSchedule' },
        { path: '/scene/detail', labelKey: 'menu.sceneDetail', hidden: true, under: '/scene/list' },
        { path: '/scene/add/manual', labelKey: 'menu.sceneAddManual', hidden: true, under: '/scene/list' },
        { path: '/scene/add/schedule', labelKey: 'menu.sceneAddSchedule', hidden: true, under: '/scene/list' },
        { path: '/scene/add/sunriseSunset', labelKey: 'menu.sceneAddSun', hidden: true, under: '/scene/list' },
        { path: '/scene/add/reportonce', labelKey: 'menu.sceneAddOnce', hidden: true, under: '/scene/list' },
        { path: '/scene/add/sequence', labelKey: 'menu.sceneAddSequence', hidden: true, under: '/scene/list' },
      ],
    },
    {
      path: '/energy',
      labelKey: 'menu.energy',
      icon: 'energy',
      children: [
        { path: '/energy/index', labelKey: 'menu.energyIndex' },
        { path: '/energy/detail', labelKey: 'menu.energyDetail' },
        { path: '/energy/report', labelKey: 'menu.energyReport' },
      ],
    },
    {
      path: '/emergency',
      labelKey: 'menu.emergency',
      icon: 'emergency',
      children: [
        { path: '/emergency/set', labelKey: 'menu.emergencySet' },
        { path: '/emergency/set/add', labelKey: 'menu.emergencyTask', hidden: true, under: '/emergency/set' },
        { path: '/emergency/set/details', labelKey: 'menu.emergencyTaskDetail', hidden: true, under: '/emergency/set' },
        { path: '/emergency/report', labelKey: 'menu.emergencyReport' },
        { path: '/emergency/report/details', labelKey: 'menu.emergencyReportDetail', hidden: true, under: '/emergency/report' },
      ],
    },
    {
      path: '/alert',
      labelKey: 'menu.alert',
      icon: 'alert',
      children: [
        { path: '/alert/index', labelKey: 'menu.alertIndex' },
        { path: '/alert/list', labelKey: 'menu.alertList' },
        { path: '/alert/alarms', labelKey: 'menu.alarmList' },
        { path: '/alert/alarmSettings', labelKey: 'menu.alarmSettings' },
      ],
    },
  ];
  const push = pushMenu(user, mode);
  if (push) menu.push(push);
  const scope = systemMenuScope(user);
  if (scope !== 'none') {
    const children: MenuEntry[] = [];
    if (scope === 'all' && managesAccounts(user)) children.push({ path: '/system/account', labelKey: 'menu.account' });
    children.push({ path: '/system/library', labelKey: 'menu.library' });
    // Parameter sets belong to the account's configuration: not for sub-accounts limited to the library and centre.
    if (scope === 'all') {
      children.push({ path: '/system/functionParameter', labelKey: 'menu.functionParameter' });
      children.push({ path: '/system/interfaceParameter', labelKey: 'menu.interfaceParameter' });
    }
    // The audit trail: what each caller sees of it the server decides (its own and its sub-accounts' entries).
    if (scope === 'all') children.push({ path: '/system/audit', labelKey: 'menu.audit' });
    // API keys and webhooks: each user makes its own within its authority (the server checks). Spec section 6's
    // menu for sub-accounts (library and centre only) holds; they reach both from the user dropdown (integratorLinks).
    if (scope === 'all') {
      children.push({ path: '/system/apiKeys', labelKey: 'menu.apiKeys' });
      children.push({ path: '/system/webhooks', labelKey: 'menu.webhooks' });
    }
    // Single sign-on is the account's: its owner sets it up.
    if (ownsAccount(user)) children.push({ path: '/system/sso', labelKey: 'menu.sso' });
    children.push({ path: '/system/center', labelKey: 'menu.center' });
    if (scope === 'all' && canSeeAdministrators(user)) children.push({ path: '/system/outbox', labelKey: 'menu.outbox' });
    // Fleet firmware rollouts run across every tenant: the platform administrator's alone.
    if (scope === 'all' && canSeeAdministrators(user)) children.push({ path: '/system/rollout', labelKey: 'menu.rollout' });
    // Backup and restore are the on-premise server's (spec section 2: not shown in SaaS mode).
    if (scope === 'all' && canSeeAdministrators(user) && mode === 'server') children.push({ path: '/system/data', labelKey: 'menu.data' });
    menu.push({ path: '/system', labelKey: 'menu.system', icon: 'system', children });
  }
  return menu;
}

/**
 * Spec section 6: Push only for operate_auth 0 in SaaS mode; its pushed review screen only for reviewers (the
 * separate push permission, docs/roles.md). The editors and the details open from the lists.
 */
function pushMenu(user: MenuSubject, mode: Mode): MenuEntry | undefined {
  if (!canSeePush(user, mode)) return undefined;
  const children: MenuEntry[] = [
    { path: '/push/index', labelKey: 'menu.pushNews' },
    { path: '/push/child/index', labelKey: 'menu.pushApps' },
    { path: '/push/addNews', labelKey: 'menu.pushAddNews', hidden: true, under: '/push/index' },
    { path: '/push/editNews', labelKey: 'menu.pushEditNews', hidden: true, under: '/push/index' },
    { path: '/push/details', labelKey: 'menu.pushDetails', hidden: true, under: '/push/index' },
    { path: '/push/addApp', labelKey: 'menu.pushAddApp', hidden: true, under: '/push/child/index' },
    { path: '/push/editApp', labelKey: 'menu.pushEditApp', hidden: true, under: '/push/child/index' },
  ];
  if (canSeePushReview(user, mode)) children.push({ path: '/push/review', labelKey: 'menu.pushReview' });
  return { path: '/push', labelKey: 'menu.push', icon: 'push', children };
}

/**
 * The integrator pages a user manages but the system menu does not list (sub-accounts: spec section 6 gives them
 * the library and the user centre at most), offered in the user dropdown instead.
 */
export function integratorLinks(user: MenuSubject): MenuEntry[] {
  if (!canManageApiKeys(user) || systemMenuScope(user) === 'all') return [];
  return [
    { path: '/system/apiKeys', labelKey: 'menu.apiKeys' },
    { path: '/system/webhooks', labelKey: 'menu.webhooks' },
  ];
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
