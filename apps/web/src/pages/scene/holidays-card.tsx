import { useEffect, useState } from 'react';
import { App, Button, Card, DatePicker, Form, Input, InputNumber, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SCENE_LIMITS, type SceneSettings } from '@lumigrid/contract/browser';
import { useSaveSceneSettings, useSceneSettings } from '../../features/scenes/api.ts';
import { useLang } from '../../features/projects/site-time.ts';
import { formatDay } from '../../i18n/time-format.ts';
import { IconButton } from '../../components/icon-button.tsx';

type Holiday = SceneSettings['holidays'][number];

/**
 * A project's holidays (the holiday filter of timed scenes) and its manual override timeout: how long a
 * device switched by hand ignores its schedules (0: until the next scheduled event). Both go to the gateways.
 */
export function HolidaysCard({ projectId, editable }: { projectId: string | undefined; editable: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const settings = useSceneSettings(projectId);
  const save = useSaveSceneSettings();
  const [holidays, setHolidays] = useState<Holiday[]>([]);
  const [overrideMin, setOverrideMin] = useState(0);
  const [picked, setPicked] = useState<Dayjs | null>(null);
  const [name, setName] = useState('');

  useEffect(() => {
    if (!settings.data) return;
    setHolidays([...settings.data.holidays].sort((a, b) => a.date.localeCompare(b.date)));
    setOverrideMin(settings.data.overrideMin);
  }, [settings.data]);

  const dirty =
    settings.data !== undefined &&
    (overrideMin !== settings.data.overrideMin ||
      JSON.stringify(holidays) !== JSON.stringify([...settings.data.holidays].sort((a, b) => a.date.localeCompare(b.date))));

  const addHoliday = () => {
    if (!picked) return;
    const date = picked.format('YYYY-MM-DD');
    const next = [...holidays.filter((h) => h.date !== date), { date, name: name.trim() }].sort((a, b) => a.date.localeCompare(b.date));
    setHolidays(next);
    setPicked(null);
    setName('');
  };

  const submit = async () => {
    if (!projectId) return;
    await save.mutateAsync({ projectId, holidays, overrideMin });
    void message.success(t('scenes.settings.saved'));
  };

  return (
    <Card
      size="small"
      title={t('scenes.settings.title')}
      loading={settings.isLoading}
      extra={
        editable && (
          <Button
            type="primary"
            disabled={!dirty}
            loading={save.isPending}
            onClick={() => void submit().catch(() => undefined)}
            data-testid="settings-save"
          >
            {t('scenes.save')}
          </Button>
        )
      }
      data-testid="scene-settings"
    >
      <Form layout="vertical" component="div">
        <Form.Item label={t('scenes.settings.override')} help={t('scenes.settings.overrideHint')}>
          <InputNumber
            min={0}
            max={SCENE_LIMITS.overrideMin.max}
            precision={0}
            value={overrideMin}
            disabled={!editable}
            addonAfter={t('scenes.settings.minutes')}
            aria-label={t('scenes.settings.override')}
            style={{ width: 180 }}
            onChange={(value) => setOverrideMin(value ?? 0)}
            data-testid="settings-override"
          />
        </Form.Item>
        <Form.Item label={t('scenes.settings.holidays')} help={t('scenes.settings.holidaysHint')}>
          {editable && (
            <Space wrap style={{ marginBottom: 8 }}>
              <DatePicker value={picked} onChange={setPicked} placeholder={t('scenes.settings.date')} data-testid="holiday-date" />
              <Input
                value={name}
                maxLength={50}
                placeholder={t('scenes.settings.holidayName')}
                style={{ width: 220 }}
                onChange={(e) => setName(e.target.value)}
                onPressEnter={addHoliday}
                data-testid="holiday-name"
              />
              <Button
                icon={<PlusOutlined />}
                disabled={!picked || holidays.length >= SCENE_LIMITS.holidays.max}
                onClick={addHoliday}
                data-testid="holiday-add"
              >
                {t('scenes.settings.addHoliday')}
              </Button>
            </Space>
          )}
          <Table<Holiday>
            size="small"
            rowKey="date"
            dataSource={holidays}
            pagination={holidays.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
            locale={{ emptyText: t('scenes.settings.noHolidays') }}
            columns={[
              {
                title: t('scenes.settings.date'),
                dataIndex: 'date',
                width: 160,
                render: (date: string) => formatDay(date, lang, { year: true, weekday: true }),
              },
              {
                title: t('scenes.settings.holidayName'),
                dataIndex: 'name',
                render: (text: string) => text || <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>,
              },
              ...(editable
                ? [
                    {
                      title: '',
                      key: 'remove',
                      width: 56,
                      render: (_: unknown, row: Holiday) => (
                        <IconButton
                          label={t('scenes.settings.removeHoliday')}
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          onClick={() => setHolidays(holidays.filter((h) => h.date !== row.date))}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Form.Item>
      </Form>
    </Card>
  );
}
