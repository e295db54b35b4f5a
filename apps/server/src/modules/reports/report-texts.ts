import type { Lang, ReportUnit } from '@lumigrid/contract';

/** The words of mailed reports and fault mails, in each product language. */
export interface ReportTexts {
  unit: Record<ReportUnit, string>;
  subject: (unit: string, project: string, period: string) => string;
  faultSubject: (project: string, count: number) => string;
  intro: (name: string, project: string, period: string) => string;
  faultIntro: (project: string) => string;
  energy: string;
  day: string;
  usedKwh: string;
  savedKwh: string;
  savingRate: string;
  total: string;
  noEnergy: string;
  faults: string;
  faultCount: (count: number) => string;
  moreFaults: (shown: number, total: number) => string;
  raisedAt: string;
  device: string;
  gateway: string;
  code: string;
  fault: string;
  clearedAt: string;
  emergency: string;
  noEmergency: string;
  /** Headers of the emergency sheet: started, task, test, result, luminaires, passed, failed. */
  emergencyColumns: [string, string, string, string, string, string, string];
  /** A run still under way. */
  testing: string;
  attached: string;
  timeZone: string;
}

export const REPORT_TEXTS: Record<Lang, ReportTexts> = {
  en: {
    unit: { year: 'Annual', month: 'Monthly', week: 'Weekly', day: 'Daily' },
    subject: (unit, project, period) => `Lumigrid ${unit.toLowerCase()} report: ${project}, ${period}`,
    faultSubject: (project, count) => `Lumigrid fault alert: ${project} (${count})`,
    intro: (name, project, period) => `Hello ${name}, this is the report of ${project} for ${period}.`,
    faultIntro: (project) => `Faults were raised in ${project}:`,
    energy: 'Energy',
    day: 'Day',
    usedKwh: 'Used (kWh)',
    savedKwh: 'Saved (kWh)',
    savingRate: 'Saving rate',
    total: 'Total',
    noEnergy: 'No energy was recorded in this period.',
    faults: 'Faults',
    faultCount: (count) => `${count} fault(s) raised`,
    moreFaults: (shown, total) => `The first ${shown} of ${total} faults are listed.`,
    raisedAt: 'Raised at',
    device: 'Device',
    gateway: 'Gateway',
    code: 'Code',
    fault: 'Fault',
    clearedAt: 'Cleared at',
    emergency: 'Emergency tests',
    noEmergency: 'No emergency tests recorded.',
    emergencyColumns: ['Started', 'Task', 'Test', 'Result', 'Luminaires', 'Passed', 'Failed'],
    testing: 'Testing',
    attached: 'The details are in the attached workbook.',
    timeZone: 'Times are in',
  },
  cn: {
    unit: { year: '年度', month: '月度', week: '每周', day: '每日' },
    subject: (unit, project, period) => `Lumigrid ${unit}报表：${project}，${period}`,
    faultSubject: (project, count) => `Lumigrid 故障告警：${project}（${count}）`,
    intro: (name, project, period) => `${name}，您好：以下是 ${project} 在 ${period} 的报表。`,
    faultIntro: (project) => `${project} 出现以下故障：`,
    energy: '能耗',
    day: '日期',
    usedKwh: '用电量（kWh）',
    savedKwh: '节电量（kWh）',
    savingRate: '节能率',
    total: '合计',
    noEnergy: '本期间没有能耗记录。',
    faults: '故障',
    faultCount: (count) => `共 ${count} 条故障`,
    moreFaults: (shown, total) => `列出了 ${total} 条故障中的前 ${shown} 条。`,
    raisedAt: '发生时间',
    device: '设备',
    gateway: '网关',
    code: '代码',
    fault: '故障',
    clearedAt: '恢复时间',
    emergency: '应急测试',
    noEmergency: '没有应急测试记录。',
    emergencyColumns: ['开始时间', '任务', '测试', '结果', '灯具数', '通过', '失败'],
    testing: '测试中',
    attached: '详细内容见附件中的表格。',
    timeZone: '时间所在时区',
  },
  tc: {
    unit: { year: '年度', month: '月度', week: '每週', day: '每日' },
    subject: (unit, project, period) => `Lumigrid ${unit}報表：${project}，${period}`,
    faultSubject: (project, count) => `Lumigrid 故障告警：${project}（${count}）`,
    intro: (name, project, period) => `${name}，您好：以下是 ${project} 在 ${period} 的報表。`,
    faultIntro: (project) => `${project} 出現以下故障：`,
    energy: '能耗',
    day: '日期',
    usedKwh: '用電量（kWh）',
    savedKwh: '節電量（kWh）',
    savingRate: '節能率',
    total: '合計',
    noEnergy: '本期間沒有能耗記錄。',
    faults: '故障',
    faultCount: (count) => `共 ${count} 筆故障`,
    moreFaults: (shown, total) => `列出了 ${total} 筆故障中的前 ${shown} 筆。`,
    raisedAt: '發生時間',
    device: '設備',
    gateway: '閘道',
    code: '代碼',
    fault: '故障',
    clearedAt: '恢復時間',
    emergency: '應急測試',
    noEmergency: '沒有應急測試記錄。',
    emergencyColumns: ['開始時間', '任務', '測試', '結果', '燈具數', '通過', '失敗'],
    testing: '測試中',
    attached: '詳細內容見附件中的表格。',
    timeZone: '時間所在時區',
  },
  ja: {
    unit: { year: '年次', month: '月次', week: '週次', day: '日次' },
    subject: (unit, project, period) => `Lumigrid ${unit}レポート：${project}、${period}`,
    faultSubject: (project, count) => `Lumigrid 故障アラート：${project}（${count}件）`,
    intro: (name, project, period) => `${name} 様、${project} の ${period} のレポートです。`,
    faultIntro: (project) => `${project} で次の故障が発生しました：`,
    energy: 'エネルギー',
    day: '日付',
    usedKwh: '使用量（kWh）',
    savedKwh: '削減量（kWh）',
    savingRate: '削減率',
    total: '合計',
    noEnergy: 'この期間のエネルギー記録はありません。',
    faults: '故障',
    faultCount: (count) => `故障 ${count} 件`,
    moreFaults: (shown, total) => `${total} 件のうち最初の ${shown} 件を表示しています。`,
    raisedAt: '発生日時',
    device: 'デバイス',
    gateway: 'ゲートウェイ',
    code: 'コード',
    fault: '故障',
    clearedAt: '復旧日時',
    emergency: '非常用点検',
    noEmergency: '非常用点検の記録はありません。',
    emergencyColumns: ['開始', 'タスク', '点検', '結果', '器具数', '合格', '不合格'],
    testing: '点検中',
    attached: '詳細は添付のワークブックをご覧ください。',
    timeZone: '時刻のタイムゾーン',
  },
};
