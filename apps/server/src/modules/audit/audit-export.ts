import type { AuditEntry, Lang } from '@lumigrid/contract';
import type { SheetColumn } from '../../lib/excel.ts';

interface Texts {
  sheet: string;
  at: string;
  user: string;
  actor: string;
  via: string;
  ip: string;
  endpoint: string;
  path: string;
  project: string;
  targets: string;
  request: string;
  before: string;
  code: string;
}

export const AUDIT_EXPORT_TEXTS: Record<Lang, Texts> = {
  en: {
    sheet: 'Audit trail',
    at: 'Time (UTC)',
    user: 'User',
    actor: 'Role',
    via: 'Through',
    ip: 'Address',
    endpoint: 'Action',
    path: 'Path',
    project: 'Project',
    targets: 'Targets',
    request: 'Request',
    before: 'Before',
    code: 'Outcome code (0 success)',
  },
  cn: {
    sheet: '操作审计',
    at: '时间 (UTC)',
    user: '用户',
    actor: '角色',
    via: '来源',
    ip: '地址',
    endpoint: '操作',
    path: '路径',
    project: '项目',
    targets: '对象',
    request: '请求内容',
    before: '修改前',
    code: '结果代码 (0 为成功)',
  },
  tc: {
    sheet: '操作稽核',
    at: '時間 (UTC)',
    user: '使用者',
    actor: '角色',
    via: '來源',
    ip: '位址',
    endpoint: '操作',
    path: '路徑',
    project: '專案',
    targets: '對象',
    request: '請求內容',
    before: '修改前',
    code: '結果代碼 (0 為成功)',
  },
  ja: {
    sheet: '操作監査ログ',
    at: '日時 (UTC)',
    user: 'ユーザー',
    actor: 'ロール',
    via: '経路',
    ip: 'アドレス',
    endpoint: '操作',
    path: 'パス',
    project: 'プロジェクト',
    targets: '対象',
    request: 'リクエスト内容',
    before: '変更前',
    code: '結果コード (0 は成功)',
  },
};

/** The columns of the export, headers in the reader's language; times in UTC, as the header says. */
export function auditColumns(lang: Lang): SheetColumn<AuditEntry>[] {
  const t = AUDIT_EXPORT_TEXTS[lang];
  return [
    { header: t.at, width: 20, value: (e) => new Date(e.at) },
    { header: t.user, width: 20, value: (e) => e.userName },
    { header: t.actor, width: 12, value: (e) => e.actor },
    { header: t.via, width: 8, value: (e) => e.via },
    { header: t.ip, width: 16, value: (e) => e.ip },
    { header: t.endpoint, width: 24, value: (e) => e.endpoint },
    { header: t.path, width: 36, value: (e) => `${e.method} ${e.path}` },
    { header: t.project, width: 20, value: (e) => e.projectName },
    { header: t.targets, width: 24, value: (e) => e.targets.map((x) => `${x.kind}:${x.id}`).join(', ') },
    { header: t.request, width: 60, value: (e) => (Object.keys(e.request).length > 0 ? JSON.stringify(e.request) : '') },
    { header: t.before, width: 40, value: (e) => (e.before === null || e.before === undefined ? '' : JSON.stringify(e.before)) },
    { header: t.code, width: 12, value: (e) => e.code },
  ];
}
