import { useState } from 'react';
import { Card, Col, DatePicker, Descriptions, Drawer, Result, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { PageContainer } from '../../components/page-container.tsx';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import type { EmergencyRecord } from '@lumigrid/contract/browser';
import { useDownload } from '../../api/download.ts';
import { emergencyApi, useEmergencyDeviceRecords, useEmergencyRunDetails, useEmergencyTask } from '../../features/emergency/api.ts';
import { dayRange } from '../../features/emergency/filters.ts';
import { resultColour } from '../../features/emergency/task-form.ts';
import { durationText, measured, resultText, stateText } from '../../features/emergency/texts.ts';
import { RESULT_COLOUR, taskPath } from './emergency-links.ts';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { DownloadButton } from '../../components/download-button.tsx';
import { useSearchParam } from '../../components/use-search-param.ts';

/** The per-light measurements of spec section 3, as columns shared by a run's records and a light's history. */
function measurementColumns(t: TFunction) {
  return [
    {
      title: t('emergency.field.result'),
      dataIndex: 'result',
      width: 120,
      render: (_: unknown, r: EmergencyRecord) => {
        const text = resultText(t, r.test, r.result);
        return (
          <Space direction="vertical" size={2}>
            {text ? <Tag color={resultColour(r.test, r.result)}>{text}</Tag> : '—'}
            {r.failures.map((f) => (
              <Typography.Text key={f} type="danger" style={{ fontSize: 12 }}>
                {t(`emergency.failure.${f}`)}
              </Typography.Text>
            ))}
          </Space>
        );
      },
    },
    {
      title: t('emergency.field.voltageBefore'),
      dataIndex: 'voltageBefore',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => measured(v),
    },
    {
      title: t('emergency.field.voltageAfter'),
      dataIndex: 'voltageAfter',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => measured(v),
    },
    {
      title: t('emergency.field.testDuration'),
      dataIndex: 'durationS',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => (v === null ? '—' : t('emergency.unit.seconds', { count: Math.round(v) })),
    },
    {
      title: t('emergency.field.batteryVoltage'),
      dataIndex: 'batteryVoltage',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => measured(v),
    },
    {
      title: t('emergency.field.batteryCurrent'),
      dataIndex: 'batteryCurrent',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => measured(v, 3),
    },
    {
      title: t('emergency.field.batteryTemperature'),
      dataIndex: 'batteryTemperature',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => measured(v, 1),
    },
    {
      title: t('emergency.field.batteryCells'),
      dataIndex: 'batteryCells',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => v ?? '—',
    },
    {
      title: t('emergency.field.power'),
      dataIndex: 'powerW',
      width: 92,
      align: 'right' as const,
      render: (v: number | null) => measured(v),
    },
  ];
}

/**
 * /emergency/report/details?id=<run>: one run's records, a line per light with the measurements of spec
 * section 3 (voltage before and after, test duration, battery voltage, current and temperature, cells, power),
 * downloadable as Excel; a light's name opens its own history.
 */
export default function ReportDetailsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const runId = useSearchParam('id');
  const [paging, setPaging] = useState({ page: 1, pageSize: 50 });
  const records = useEmergencyRunDetails(runId, paging.page, paging.pageSize);
  const first = records.data?.list[0];
  // The run's summary comes with its task; a deleted task leaves the records to speak for themselves.
  const detail = useEmergencyTask(first?.taskId ?? undefined, runId);
  const run = detail.data?.run;
  // A run whose task is deleted has no site left to ask: its times show in the browser's zone, named.
  const siteGone = !run && records.isSuccess && (!first?.taskId || detail.isError);
  const { time } = useSiteTime(siteGone ? null : { projectId: run?.projectId });
  const when = (iso: string | null) => time(iso, 'second');
  const [device, setDevice] = useState<{ id: string; name: string }>();
  const report = useDownload(() => emergencyApi.report({ runId }, `${t('emergency.report.file')}.xlsx`));

  if (!runId) return <Result status="404" title={t('emergency.detail.runMissing')} />;
  const taskName = run?.taskName ?? first?.taskName ?? '';

  const columns = [
    {
      title: t('emergency.field.light'),
      dataIndex: 'deviceName',
      fixed: 'left' as const,
      width: 170,
      render: (_: unknown, r: EmergencyRecord) => (
        <Space direction="vertical" size={0}>
          {r.deviceId ? (
            <Typography.Link
              onClick={() => setDevice({ id: r.deviceId!, name: r.deviceName })}
              data-testid={`emergency-record-light-${r.deviceName}`}
            >
              {r.deviceName}
            </Typography.Link>
          ) : (
            <span>{r.deviceName}</span>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.addr}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('emergency.field.state'),
      dataIndex: 'state',
      width: 130,
      render: (_: unknown, r: EmergencyRecord) => (
        <WithSecondLine first={stateText(t, r.state)} second={t('emergency.waveN', { wave: r.wave })} />
      ),
    },
    ...measurementColumns(t),
  ];

  return (
    <PageContainer
      title={taskName ? t('emergency.detail.recordsOf', { name: taskName }) : t('emergency.detail.recordsTitle')}
      onBack={() => void navigate('/emergency/report')}
      extra={
        <DownloadButton download={report} data-testid="emergency-run-download">
          {t('emergency.report.download')}
        </DownloadButton>
      }
    >
      {run && (
        <Card variant="borderless" style={{ marginBottom: 16 }}>
          <Row gutter={16} align="middle">
            <Col xs={24} lg={12}>
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('emergency.field.task')}>
                  {run.taskId ? <Link to={taskPath({ id: run.taskId, projectId: run.projectId })}>{run.taskName}</Link> : run.taskName}
                </Descriptions.Item>
                <Descriptions.Item label={t('emergency.field.place')}>
                  {[run.projectName, run.mapName, run.gatewayName].join(' / ')}
                </Descriptions.Item>
                <Descriptions.Item label={t('emergency.field.test')}>
                  {t(`emergency.test.${run.test}`)} · {durationText(t, run.test, run.duration)} · {t(`emergency.trigger.${run.trigger}`)}
                </Descriptions.Item>
                <Descriptions.Item label={t('emergency.field.startedAt')}>
                  {when(run.startedAt)} – {when(run.finishedAt)}
                </Descriptions.Item>
              </Descriptions>
            </Col>
            <Col xs={8} lg={4}>
              <Statistic title={t('emergency.field.quantity')} value={run.total} />
            </Col>
            <Col xs={8} lg={4}>
              <Statistic
                title={t('emergency.field.failed')}
                value={run.failed}
                valueStyle={{ color: run.failed ? '#cf1322' : undefined }}
              />
            </Col>
            <Col xs={8} lg={4}>
              <Typography.Text type="secondary">{t('emergency.field.result')}</Typography.Text>
              <div style={{ marginTop: 6 }}>
                {run.result ? (
                  <Tag color={RESULT_COLOUR[run.result]} style={{ fontSize: 14, padding: '2px 10px' }} data-testid="emergency-run-result">
                    {t(`emergency.result.${run.result}`)}
                  </Tag>
                ) : (
                  <Tag color="processing">{t('emergency.status.running')}</Tag>
                )}
              </div>
            </Col>
          </Row>
        </Card>
      )}
      <Card variant="borderless" title={t('emergency.detail.perLight')}>
        <Table<EmergencyRecord>
          rowKey="id"
          size="small"
          loading={records.isLoading}
          columns={columns}
          dataSource={records.data?.list ?? []}
          scroll={{ x: 1150 }}
          onRow={(r) => ({ 'data-testid': `emergency-record-row-${r.deviceName}` }) as React.HTMLAttributes<HTMLElement>}
          pagination={{
            current: paging.page,
            pageSize: paging.pageSize,
            total: records.data?.total ?? 0,
            hideOnSinglePage: true,
            onChange: (page, pageSize) => setPaging({ page, pageSize }),
          }}
        />
      </Card>
      <DeviceHistory device={device} when={when} onClose={() => setDevice(undefined)} />
    </PageContainer>
  );
}

/** One light's records over time, newest first, filterable by date and downloadable. */
function DeviceHistory({
  device,
  when,
  onClose,
}: {
  device: { id: string; name: string } | undefined;
  when: (iso: string | null) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const span = dayRange(range ?? undefined);
  const history = useEmergencyDeviceRecords(device ? { deviceId: device.id, ...span, page, pageSize: 10 } : undefined);
  const report = useDownload(() =>
    device ? emergencyApi.report({ deviceId: device.id, ...span }, `${t('emergency.report.file')}.xlsx`) : Promise.resolve(),
  );
  const columns = [
    {
      title: t('emergency.field.startedAt'),
      dataIndex: 'startedAt',
      width: 150,
      render: (_: unknown, r: EmergencyRecord) => (
        <WithSecondLine first={when(r.startedAt)} second={`${t(`emergency.test.${r.test}`)} · ${r.taskName}`} />
      ),
    },
    ...measurementColumns(t),
  ];
  return (
    <Drawer
      open={Boolean(device)}
      onClose={onClose}
      width="min(1180px, 96vw)"
      title={t('emergency.detail.history', { name: device?.name ?? '' })}
      extra={
        <Space>
          <DatePicker.RangePicker
            value={range}
            onChange={(next) => {
              setRange(next && next[0] && next[1] ? [next[0], next[1]] : null);
              setPage(1);
            }}
            placeholder={[t('emergency.rangeFrom'), t('emergency.rangeTo')]}
          />
          <DownloadButton download={report}>{t('emergency.report.download')}</DownloadButton>
        </Space>
      }
      data-testid="emergency-device-history"
    >
      <Table<EmergencyRecord>
        rowKey="id"
        size="small"
        loading={history.isLoading}
        columns={columns}
        dataSource={history.data?.list ?? []}
        scroll={{ x: 1010 }}
        pagination={{ current: page, pageSize: 10, total: history.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
      />
    </Drawer>
  );
}
