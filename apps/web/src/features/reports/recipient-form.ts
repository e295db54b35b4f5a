import dayjs, { type Dayjs } from 'dayjs';
import type { Lang, MonthDay, Recipient, RecipientAddBody, ReportContent, ReportUnit } from '@lumigrid/contract/browser';
import { browserZone } from '../../i18n/time-format.ts';

/** The recipient dialog's fields; the send time is a picker's value. */
export interface RecipientForm {
  name: string;
  mail: string;
  unit: ReportUnit;
  monthDay?: MonthDay;
  weekday?: number;
  sendTime: Dayjs;
  timeZone: string;
  contents: ReportContent[];
  realtimeFaults: boolean;
  lang: Lang;
}

const TIME = 'HH:mm';

/** The days a weekly report may go out on: 1 Monday ... 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The dialog's starting values: the recipient's, or a monthly energy report on the 1st at 08:00 here. */
export function recipientForm(recipient: Recipient | undefined, lang: Lang, timeZone = browserZone()): RecipientForm {
  if (!recipient)
    return {
      name: '',
      mail: '',
      unit: 'month',
      monthDay: 'first',
      sendTime: dayjs(`2000-01-01T08:00`),
      timeZone,
      contents: ['energy'],
      realtimeFaults: false,
      lang,
    };
  return {
    name: recipient.name,
    mail: recipient.mail,
    unit: recipient.unit,
    ...(recipient.monthDay ? { monthDay: recipient.monthDay } : {}),
    ...(recipient.weekday ? { weekday: recipient.weekday } : {}),
    sendTime: dayjs(`2000-01-01T${recipient.sendTime}`),
    timeZone: recipient.timeZone,
    contents: [...recipient.contents],
    realtimeFaults: recipient.realtimeFaults,
    lang: recipient.lang,
  };
}

/** The fields add_mail_rec and edit_mail_rec take: the day of the month or week only where the unit has one. */
export function recipientFields(form: RecipientForm): Omit<RecipientAddBody, 'projectId'> {
  return {
    name: form.name.trim(),
    mail: form.mail.trim(),
    unit: form.unit,
    ...(form.unit === 'month' && form.monthDay ? { monthDay: form.monthDay } : {}),
    ...(form.unit === 'week' && form.weekday ? { weekday: form.weekday } : {}),
    sendTime: form.sendTime.format(TIME),
    timeZone: form.timeZone,
    contents: [...form.contents],
    realtimeFaults: form.realtimeFaults,
    lang: form.lang,
  };
}
