import { useState } from 'react';
import { Progress, Space, Tag, Typography } from 'antd';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { EMERGENCY_TEST_KINDS, type EmergencyRun, type EmergencyRunListBody, type EmergencyTestKind } from '@lumigrid/contract/browser';
import { useDownload } from '../../api/download.ts';
import { emergencyApi, useEmergencyRuns } from '../../features/emergency/api.ts';
import { dayRange } from '../../features/emergency/filters.ts';
import { durationText } from '../../features/emergency/texts.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { RESULT_COLOUR, runPath } from './emergency-links.ts';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { tablePaging } from '../../components/table-paging.ts';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { DownloadButton } from '../../components/download-button.tsx';
import { queryTableRows } from '../../components/query-table-rows.ts';
import { choiceFilter, dayRangeFilter } from '../../components/search-filters.ts';

interface RunSearch {
  test?: EmergencyTestKind;
  startedAt?: [Dayjs | string, Dayjs | string];
}

/**
 * Test records: every run of the project's tasks (by hand or by their recurrence), newest first, filterable by
 * test and time, downloadable as the Excel report with each light's measurements.
 */
export function RunTable({ projectId }: { projectId: string | undefined }) {
  const { t } = useTranslation();
  const { time: stamp } = useSiteTime({ projectId });
  const [filters, setFilters] = useState<Omit<EmergencyRunListBody, 'projectId'>>({ page: 1, pageSize: 20 });
  const runs = useEmergencyRuns(projectId ? { projectId, ...filters } : undefined);
  const report = useDownload(() =>
    emergencyApi.report({ projectId, from: filters.from, to: filters.to }, `${t('emergency.report.file')}.xlsx`),
  );

  const columns: ProColumns<EmergencyRun, 'text'>[] = [
    choiceFilter(t('emergency.field.test'), 'test', EMERGENCY_TEST_KINDS, (k) => t(`emergency.test.${k}`)),
    dayRangeFilter(t('emergency.field.startedAt'), 'startedAt', [t('emergency.rangeFrom'), t('emergency.rangeTo')]),
    {
      title: t('emergency.field.task'),
      dataIndex: 'taskName',
      search: false,
      render: (_, run) => (
        <Space direction="vertical" size={0}>
          <Link to={runPath(run.id)} data-testid={`emergency-run-link-${run.taskName}`}>
            {run.taskName}
          </Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {[run.mapName, run.gatewayName].join(' / ')}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('emergency.field.test'),
      dataIndex: 'test',
      search: false,
      render: (_, run) => (
        <WithSecondLine
          first={t(`emergency.test.${run.test}`)}
          second={`${durationText(t, run.test, run.duration)} · ${t(`emergency.trigger.${run.trigger}`)}`}
        />
      ),
    },
    { title: t('emergency.field.startedAt'), dataIndex: 'startedAt', search: false, render: (_, run) => stamp(run.startedAt) },
    { title: t('emergency.field.finishedAt'), dataIndex: 'finishedAt', search: false, render: (_, run) => stamp(run.finishedAt) },
    { title: t('emergency.field.quantity'), dataIndex: 'total', search: false, align: 'right' },
    { title: t('emergency.field.passed'), dataIndex: 'passed', search: false, align: 'right' },
    {
      title: t('emergency.field.failed'),
      dataIndex: 'failed',
      search: false,
      align: 'right',
      render: (_, run) => <Typography.Text type={run.failed ? 'danger' : undefined}>{run.failed}</Typography.Text>,
    },
    {
      title: t('emergency.field.result'),
      dataIndex: 'result',
      search: false,
      width: 150,
      render: (_, run) =>
        run.result ? (
          <Tag color={RESULT_COLOUR[run.result]} data-testid={`emergency-run-result-${run.taskName}`}>
            {t(`emergency.result.${run.result}`)}
          </Tag>
        ) : (
          <Progress aria-label={`${t('emergency.field.progress')}: ${run.taskName}`} percent={run.progress} size="small" status="active" />
        ),
    },
  ];

  return (
    <ProTable<EmergencyRun, RunSearch>
      rowKey="id"
      size="middle"
      columns={columns}
      {...queryTableRows(runs)}
      locale={{ emptyText: <EmptyHint text={t('emergency.report.empty')} /> }}
      search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
      onRow={(run) => ({ 'data-testid': `emergency-run-row-${run.taskName}` }) as React.HTMLAttributes<HTMLElement>}
      toolBarRender={() => [
        <DownloadButton key="report" disabled={!projectId} data-testid="emergency-report-download" download={report}>
          {t('emergency.report.download')}
        </DownloadButton>,
      ]}
      onSubmit={(params) =>
        setFilters((current) => ({
          page: 1,
          pageSize: current.pageSize,
          ...(params.test ? { test: params.test } : {}),
          ...dayRange(params.startedAt),
        }))
      }
      onReset={() => setFilters((current) => ({ page: 1, pageSize: current.pageSize }))}
      options={{ reload: () => void runs.refetch(), density: false, setting: true, fullScreen: false }}
      pagination={tablePaging(filters, setFilters, runs.data?.total ?? 0)}
    />
  );
}
