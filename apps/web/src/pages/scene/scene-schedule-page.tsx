import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Space, Spin, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { userMay } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { HeaderProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { useSceneWeek } from '../../features/scenes/api.ts';
import { addDays, mondayOf, runsByDay, sceneColour } from '../../features/scenes/week.ts';
import { HolidaysCard } from './holidays-card.tsx';
import './scene-schedule.css';
import { useLang } from '../../features/projects/site-time.ts';
import { formatDay, weekdayOf } from '../../i18n/time-format.ts';
import { IconButton } from '../../components/icon-button.tsx';

const today = () => dayjs().format('YYYY-MM-DD');

/**
 * /scene/schedule (schedule management): every run the gateways will start in a week, day by day at each
 * gateway's local time, and the project's holidays and manual override timeout.
 */
export default function SceneSchedulePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const { projectId, setProjectId, tree } = useCurrentProject();
  const [from, setFrom] = useState(() => mondayOf(today()));
  const week = useSceneWeek(projectId ? { projectId, from, days: 7 } : undefined);
  const days = useMemo(() => runsByDay(week.data ?? [], from), [week.data, from]);
  const now = today();

  return (
    <PageContainer
      title={t('scenes.week.title')}
      content={t('scenes.week.hint')}
      extra={<HeaderProjectSelect label={t('scenes.project')} tree={tree.data} value={projectId} onChange={setProjectId} />}
    >
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card
          size="small"
          title={
            <Space wrap>
              <IconButton
                label={t('scenes.week.previous')}
                icon={<LeftOutlined />}
                onClick={() => setFrom(addDays(from, -7))}
                data-testid="week-previous"
              />
              <DatePicker
                picker="week"
                allowClear={false}
                value={dayjs(from)}
                format={() => `${from} – ${addDays(from, 6)}`}
                onChange={(value) => value && setFrom(mondayOf(value.format('YYYY-MM-DD')))}
                style={{ width: 230 }}
                data-testid="week-picker"
              />
              <IconButton
                label={t('scenes.week.next')}
                icon={<RightOutlined />}
                onClick={() => setFrom(addDays(from, 7))}
                data-testid="week-next"
              />
              <Button onClick={() => setFrom(mondayOf(today()))} disabled={from === mondayOf(today())}>
                {t('scenes.week.thisWeek')}
              </Button>
            </Space>
          }
          extra={<Typography.Text type="secondary">{t('scenes.week.count', { count: week.data?.length ?? 0 })}</Typography.Text>}
        >
          {week.isLoading ? (
            <Spin style={{ display: 'block', margin: '64px auto' }} />
          ) : (
            <div className="lg-week" data-testid="scene-week">
              {days.map((day) => (
                <div
                  key={day.date}
                  className={`lg-week__day${day.date === now ? ' lg-week__day--today' : ''}`}
                  data-testid={`week-day-${day.date}`}
                >
                  <div className="lg-week__head">
                    <Typography.Text strong>{weekdayOf(day.date, lang)}</Typography.Text>
                    <Typography.Text type="secondary">{formatDay(day.date, lang)}</Typography.Text>
                  </div>
                  {day.runs.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('scenes.week.noRuns')} />}
                  {day.runs.map((run) => (
                    <div
                      key={`${run.sceneId}-${run.gatewayId}-${run.at}-${run.then}`}
                      className="lg-week__run"
                      style={{ borderLeftColor: sceneColour(run.sceneId) }}
                      role="link"
                      tabIndex={0}
                      onClick={() => void navigate(`/scene/detail?id=${run.sceneId}`)}
                      onKeyDown={(e) => e.key === 'Enter' && void navigate(`/scene/detail?id=${run.sceneId}`)}
                      data-testid="week-run"
                    >
                      <Space size={6} wrap>
                        <Typography.Text strong style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {run.time}
                        </Typography.Text>
                        <Tag color={run.then === 'start' ? 'gold' : 'default'} bordered={false} style={{ marginInlineEnd: 0 }}>
                          {t(`scenes.then.${run.then}`)}
                        </Tag>
                      </Space>
                      <div className="lg-week__run-name">{run.name}</div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {run.gatewayName} · {run.timezone}
                      </Typography.Text>
                    </div>
                  ))}
                </div>
              ))}
            </div>
          )}
        </Card>
        <HolidaysCard projectId={projectId} editable={editable} />
      </Space>
    </PageContainer>
  );
}
