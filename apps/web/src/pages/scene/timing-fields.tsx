import { Button, Checkbox, DatePicker, InputNumber, Select, Space, TimePicker, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SCENE_LIMITS } from '@lumigrid/contract/browser';
import { slotProblems, slotsToTriggers, WEEKDAYS_MONDAY_FIRST, type SunRow, type TimeSlot } from '../../features/scenes/timing.ts';
import { IconButton } from '../../components/icon-button.tsx';

const TIME = 'HH:mm';
const DATE = 'YYYY-MM-DD';
const asTime = (value: string | null) => (value ? dayjs(value, TIME) : null);
const asDate = (value: string | null) => (value ? dayjs(value, DATE) : null);

/** The time slots of a schedule: a start and an optional end each; at most eight times in all. */
export function SlotsEditor({
  slots,
  onChange,
  showProblems,
}: {
  slots: TimeSlot[];
  onChange(slots: TimeSlot[]): void;
  showProblems: boolean;
}) {
  const { t } = useTranslation();
  const problems = slotProblems(slots);
  const full = slotsToTriggers(slots).length + 2 > SCENE_LIMITS.triggers.max;
  const set = (index: number, patch: Partial<TimeSlot>) => onChange(slots.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="scene-slots">
      {slots.map((slot, index) => (
        <div key={index}>
          <Space wrap>
            <Typography.Text type="secondary" style={{ display: 'inline-block', minWidth: 56 }}>
              {t('scenes.timing.slot', { n: index + 1 })}
            </Typography.Text>
            <TimePicker
              format={TIME}
              value={asTime(slot.start)}
              placeholder={t('scenes.timing.start')}
              needConfirm={false}
              status={showProblems && problems[index] === 'noStart' ? 'error' : undefined}
              onChange={(value: Dayjs | null) => set(index, { start: value ? value.format(TIME) : null })}
              data-testid={`slot-start-${index}`}
            />
            <span>–</span>
            <TimePicker
              format={TIME}
              value={asTime(slot.end)}
              placeholder={t('scenes.timing.endOptional')}
              needConfirm={false}
              status={showProblems && problems[index] === 'endBeforeStart' ? 'error' : undefined}
              onChange={(value: Dayjs | null) => set(index, { end: value ? value.format(TIME) : null })}
              data-testid={`slot-end-${index}`}
            />
            <IconButton
              label={t('scenes.timing.removeSlot')}
              type="text"
              danger
              icon={<DeleteOutlined />}
              disabled={slots.length <= 1}
              onClick={() => onChange(slots.filter((_, i) => i !== index))}
            />
          </Space>
          {showProblems && problems[index] && (
            <div>
              <Typography.Text type="danger">{t(`scenes.timing.problem.${problems[index]}`)}</Typography.Text>
            </div>
          )}
        </div>
      ))}
      <Button
        icon={<PlusOutlined />}
        disabled={full}
        onClick={() => onChange([...slots, { start: null, end: null }])}
        data-testid="slot-add"
      >
        {t('scenes.timing.addSlot')}
      </Button>
      <Typography.Text type="secondary">{t('scenes.timing.slotHint')}</Typography.Text>
    </Space>
  );
}

const SUN_PARTS = ['then', 'minutes', 'direction', 'event'] as const;
type SunPart = (typeof SUN_PARTS)[number];

/** The parts of a sun row chosen from a list: each value with its text, and the width the longest text needs. */
const SUN_CHOICES = {
  then: { width: 150, labels: { start: 'scenes.then.start', end: 'scenes.then.end' } },
  direction: { width: 110, labels: { before: 'scenes.timing.before', after: 'scenes.timing.after' } },
  event: { width: 120, labels: { sunset: 'scenes.timing.sunset', sunrise: 'scenes.timing.sunrise' } },
} as const;

/** The rows of a sunrise/sunset scene: "switch on 15 minutes before sunset", "switch off 10 minutes after sunrise". */
export function SunRowsEditor({ rows, onChange }: { rows: SunRow[]; onChange(rows: SunRow[]): void }) {
  const { t } = useTranslation();
  const set = (index: number, patch: Partial<SunRow>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  // Each language reads the row in its own order ("switch on 15 min before sunset", "日没の15分前に点灯").
  const sunOrder = t('scenes.timing.sunOrder')
    .split(' ')
    .filter((part): part is SunPart => (SUN_PARTS as readonly string[]).includes(part));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="scene-sun-rows">
      {rows.map((row, index) => (
        <Space key={index} wrap data-testid={`sun-row-${index}`}>
          {sunOrder.map((part) =>
            part === 'minutes' ? (
              <InputNumber
                key={part}
                style={{ width: 130 }}
                min={0}
                max={SCENE_LIMITS.offsetMin.max}
                precision={0}
                value={row.minutes}
                addonAfter={t('scenes.timing.minutes')}
                onChange={(minutes) => set(index, { minutes: minutes ?? 0 })}
                data-testid={`sun-minutes-${index}`}
              />
            ) : (
              <Select
                key={part}
                style={{ width: SUN_CHOICES[part].width }}
                value={row[part]}
                onChange={(value: SunRow[typeof part]) => set(index, { [part]: value })}
                options={Object.entries(SUN_CHOICES[part].labels).map(([value, label]) => ({ value, label: t(label) }))}
                data-testid={`sun-${part}-${index}`}
              />
            ),
          )}
          <IconButton
            label={t('scenes.timing.removeRow')}
            type="text"
            danger
            icon={<DeleteOutlined />}
            disabled={rows.length <= 1}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          />
        </Space>
      ))}
      <Button
        icon={<PlusOutlined />}
        disabled={rows.length >= SCENE_LIMITS.triggers.max}
        onClick={() => onChange([...rows, { event: 'sunset', direction: 'after', minutes: 0, then: 'start' }])}
      >
        {t('scenes.timing.addRow')}
      </Button>
    </Space>
  );
}

/** Repeat days, Monday first; at least one (310006). */
export function DaysField({ days, onChange }: { days: number[]; onChange(days: number[]): void }) {
  const { t } = useTranslation();
  return (
    <Space wrap size={[4, 4]}>
      <Checkbox.Group
        value={days}
        onChange={(values) => onChange(values.map(Number))}
        options={WEEKDAYS_MONDAY_FIRST.map((day) => ({ value: day, label: t(`scenes.weekday.${day}`) }))}
        data-testid="scene-days"
      />
      <Button size="small" type="link" onClick={() => onChange([0, 1, 2, 3, 4, 5, 6])}>
        {t('scenes.timing.everyDay')}
      </Button>
      <Button size="small" type="link" onClick={() => onChange([1, 2, 3, 4, 5])}>
        {t('scenes.timing.workdays')}
      </Button>
    </Space>
  );
}

/** The first and last date a scene runs; either may stay open. */
export function DateRangeField({
  from,
  to,
  onChange,
}: {
  from: string | null;
  to: string | null;
  onChange(range: { from: string | null; to: string | null }): void;
}) {
  const { t } = useTranslation();
  return (
    <DatePicker.RangePicker
      value={[asDate(from), asDate(to)]}
      allowEmpty={[true, true]}
      style={{ width: 300 }}
      placeholder={[t('scenes.timing.fromOpen'), t('scenes.timing.toOpen')]}
      onChange={(values) => onChange({ from: values?.[0]?.format(DATE) ?? null, to: values?.[1]?.format(DATE) ?? null })}
      data-testid="scene-dates"
    />
  );
}

/** The date and time a "run once" scene runs. */
export function OnceFields({
  date,
  time,
  onChange,
  showProblems,
}: {
  date: string | null;
  time: string | null;
  onChange(value: { date: string | null; time: string | null }): void;
  showProblems: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <DatePicker
        value={asDate(date)}
        placeholder={t('scenes.timing.date')}
        status={showProblems && !date ? 'error' : undefined}
        disabledDate={(day) => day.isBefore(dayjs().startOf('day'))}
        onChange={(value: Dayjs | null) => onChange({ date: value ? value.format(DATE) : null, time })}
        data-testid="once-date"
      />
      <TimePicker
        format={TIME}
        value={asTime(time)}
        placeholder={t('scenes.timing.time')}
        needConfirm={false}
        status={showProblems && !time ? 'error' : undefined}
        onChange={(value: Dayjs | null) => onChange({ date, time: value ? value.format(TIME) : null })}
        data-testid="once-time"
      />
    </Space>
  );
}
