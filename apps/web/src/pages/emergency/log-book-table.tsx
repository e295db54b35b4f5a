import { useMemo, useState } from 'react';
import { App, Button, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { CheckOutlined, FilePdfOutlined, ToolOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  durationClock,
  EMERGENCY_LIMITS,
  LOG_BOOK_TYPES,
  type LogBookEntry,
  type LogBookListBody,
  type LogBookType,
} from '@lumigrid/contract/browser';
import { useDownload } from '../../api/download.ts';
import { emergencyApi, useAcknowledgeFailure, useEmergencyTree, useLogBook, useRecordRepair } from '../../features/emergency/api.ts';
import { dayRange } from '../../features/emergency/filters.ts';
import { faultKey } from '../../features/device-config/param-fields.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { RESULT_COLOUR } from './emergency-links.ts';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { WithSecondLine } from '../../components/two-line-cell.tsx';
import { DownloadButton } from '../../components/download-button.tsx';
import { queryTableRows } from '../../components/query-table-rows.ts';
import { choiceFilter, dayRangeFilter } from '../../components/search-filters.ts';

interface LogSearch {
  type?: LogBookType;
  at?: [Dayjs | string, Dayjs | string];
}

const TYPE_COLOUR: Record<LogBookType, string> = { test: 'blue', failure: 'red', repair: 'purple', acknowledgement: 'green' };

/**
 * The site's log book (EN 50172): every test, failure, repair and acknowledgement, numbered, newest first.
 * Entries are only ever appended: acknowledging a failure and recording a repair add entries naming who. The
 * PDF is what an inspector signs; the workbook is for the maintenance contractor.
 */
export function LogBookTable({ projectId, controllable }: { projectId: string | undefined; controllable: boolean }) {
  const { t } = useTranslation();
  const { time } = useSiteTime({ projectId });
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Omit<LogBookListBody, 'projectId'>>({ page: 1, pageSize: 20 });
  const log = useLogBook(projectId ? { projectId, ...filters } : undefined);
  const reportBody = () => ({ projectId: projectId ?? '', type: filters.type, from: filters.from, to: filters.to });
  const pdf = useDownload(() => emergencyApi.logBookPdf(reportBody(), `${t('emergency.logBook.file')}.pdf`));
  const excel = useDownload(() => emergencyApi.logBookExcel(reportBody(), `${t('emergency.logBook.file')}.xlsx`));
  const acknowledge = useAcknowledgeFailure();
  const repair = useRecordRepair();
  const [acknowledging, setAcknowledging] = useState<LogBookEntry>();
  const [repairing, setRepairing] = useState(false);
  const [note, setNote] = useState('');

  const columns: ProColumns<LogBookEntry, 'text'>[] = [
    choiceFilter(t('emergency.logBook.type'), 'type', LOG_BOOK_TYPES, (k) => t(`emergency.logType.${k}`)),
    dayRangeFilter(t('emergency.logBook.date'), 'at', [t('emergency.rangeFrom'), t('emergency.rangeTo')]),
    { title: t('emergency.logBook.seq'), dataIndex: 'seq', search: false, width: 64, align: 'right' },
    {
      title: t('emergency.logBook.date'),
      dataIndex: 'at',
      search: false,
      width: 150,
      render: (_, e) => time(e.at),
    },
    {
      title: t('emergency.logBook.type'),
      dataIndex: 'type',
      search: false,
      render: (_, e) => (
        <Tag color={TYPE_COLOUR[e.type]} data-testid={`emergency-log-type-${e.seq}`}>
          {t(`emergency.logType.${e.type}`)}
        </Tag>
      ),
    },
    {
      title: t('emergency.logBook.luminaire'),
      dataIndex: 'deviceName',
      search: false,
      render: (_, e) =>
        e.deviceName ? (
          <WithSecondLine
            first={e.deviceName}
            second={[[e.buildName, e.mapName].filter(Boolean).join(' / '), e.addr].filter(Boolean).join(' · ')}
          />
        ) : (
          '—'
        ),
    },
    {
      title: t('emergency.logBook.result'),
      dataIndex: 'result',
      search: false,
      render: (_, e) => (
        <Space direction="vertical" size={2}>
          {e.test && <span>{t(`emergency.test.${e.test}`)}</span>}
          {e.result && <Tag color={RESULT_COLOUR[e.result]}>{t(`emergency.result.${e.result}`)}</Tag>}
          {e.faultCode !== null && (
            <Typography.Text type={e.type === 'repair' ? 'secondary' : 'danger'}>{t(faultKey(e.faultCode))}</Typography.Text>
          )}
          {e.ratedDurationS !== null && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`emergency-log-duration-${e.seq}`}>
              {t('emergency.logBook.duration', {
                achieved: e.durationS === null ? '—' : durationClock(e.durationS),
                rated: durationClock(e.ratedDurationS),
              })}
            </Typography.Text>
          )}
          {e.note && <Typography.Text type="secondary">{e.note}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('emergency.logBook.by'),
      dataIndex: 'by',
      search: false,
      render: (_, e) => {
        // Who ran the test: started by hand (or by its recurrence), stopped by hand.
        const run = (e.trigger !== null || e.stoppedBy) && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`emergency-log-run-by-${e.seq}`}>
            {[
              e.trigger === 'schedule'
                ? t('emergency.logBook.scheduled')
                : e.startedBy && t('emergency.logBook.startedBy', { name: e.startedBy }),
              e.stoppedBy && t('emergency.logBook.stoppedBy', { name: e.stoppedBy }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography.Text>
        );
        if (e.type === 'failure') {
          if (e.acknowledged)
            return (
              <Space direction="vertical" size={0}>
                <span>{e.acknowledged.by}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('emergency.logBook.acknowledgedAt', { at: time(e.acknowledged.at) })}
                </Typography.Text>
                {run}
              </Space>
            );
          return (
            <Space direction="vertical" size={2}>
              {controllable ? (
                <Button
                  size="small"
                  icon={<CheckOutlined />}
                  onClick={() => setAcknowledging(e)}
                  data-testid={`emergency-acknowledge-${e.seq}`}
                >
                  {t('emergency.logBook.acknowledge')}
                </Button>
              ) : (
                <Typography.Text type="warning">{t('emergency.logBook.unacknowledged')}</Typography.Text>
              )}
              {run}
            </Space>
          );
        }
        return (
          <Space direction="vertical" size={0}>
            {e.by || <Typography.Text type="secondary">{t('emergency.logBook.system')}</Typography.Text>}
            {run}
          </Space>
        );
      },
    },
  ];

  const submitAcknowledge = async () => {
    if (!acknowledging) return;
    await acknowledge.mutateAsync({ entryId: acknowledging.id, ...(note.trim() ? { note: note.trim() } : {}) });
    void message.success(t('emergency.logBook.acknowledged'));
    setAcknowledging(undefined);
    setNote('');
  };

  return (
    <>
      <ProTable<LogBookEntry, LogSearch>
        rowKey="id"
        size="middle"
        columns={columns}
        {...queryTableRows(log)}
        locale={{ emptyText: <EmptyHint text={t('emergency.logBook.empty')} /> }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        onRow={(e) => ({ 'data-testid': `emergency-log-row-${e.seq}` }) as React.HTMLAttributes<HTMLElement>}
        toolBarRender={() => [
          ...(controllable
            ? [
                <Button
                  key="repair"
                  icon={<ToolOutlined />}
                  disabled={!projectId}
                  onClick={() => setRepairing(true)}
                  data-testid="emergency-repair"
                >
                  {t('emergency.logBook.recordRepair')}
                </Button>,
              ]
            : []),
          <DownloadButton key="excel" disabled={!projectId} data-testid="emergency-log-excel" download={excel}>
            {t('emergency.logBook.excel')}
          </DownloadButton>,
          <Button
            key="pdf"
            type="primary"
            icon={<FilePdfOutlined />}
            loading={pdf.isPending}
            disabled={!projectId}
            onClick={() => pdf.mutate()}
            data-testid="emergency-log-pdf"
          >
            {t('emergency.logBook.pdf')}
          </Button>,
        ]}
        onSubmit={(params) =>
          setFilters((current) => ({
            page: 1,
            pageSize: current.pageSize,
            ...(params.type ? { type: params.type } : {}),
            ...dayRange(params.at),
          }))
        }
        onReset={() => setFilters((current) => ({ page: 1, pageSize: current.pageSize }))}
        options={{ reload: () => void log.refetch(), density: false, setting: true, fullScreen: false }}
        pagination={tablePaging(filters, setFilters, log.data?.total ?? 0)}
      />
      <FormModal
        open={Boolean(acknowledging)}
        title={t('emergency.logBook.acknowledgeTitle', { name: acknowledging?.deviceName ?? '' })}
        okText={t('emergency.logBook.acknowledge')}
        confirmLoading={acknowledge.isPending}
        onSubmit={submitAcknowledge}
        onCancel={() => setAcknowledging(undefined)}
      >
        <Typography.Paragraph type="secondary">{t('emergency.logBook.appendOnly')}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={EMERGENCY_LIMITS.note.max}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder={t('emergency.logBook.notePlaceholder')}
          data-testid="emergency-acknowledge-note"
        />
      </FormModal>
      <RepairModal
        projectId={repairing ? projectId : undefined}
        onClose={() => setRepairing(false)}
        saving={repair.isPending}
        save={repair.mutateAsync}
      />
    </>
  );
}

/** Records a repair of one of the project's emergency lights, with what was done (appended to the log book). */
function RepairModal({
  projectId,
  onClose,
  saving,
  save,
}: {
  projectId: string | undefined;
  onClose: () => void;
  saving: boolean;
  save: ReturnType<typeof useRecordRepair>['mutateAsync'];
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ deviceId: string; note: string }>();
  const tree = useEmergencyTree(projectId, '0');
  const lights = useMemo(
    () =>
      (tree.data?.builds ?? []).flatMap((b) =>
        b.maps.flatMap((m) => m.gateways.flatMap((g) => g.devices.map((d) => ({ value: d.id, label: `${d.name} · ${m.name}` })))),
      ),
    [tree.data],
  );
  const submit = async () => {
    const values = await form.validateFields();
    await save({ deviceId: values.deviceId, note: values.note.trim() });
    void message.success(t('emergency.logBook.repairRecorded'));
    form.resetFields();
    onClose();
  };
  return (
    <FormModal
      open={Boolean(projectId)}
      title={t('emergency.logBook.recordRepair')}
      okText={t('emergency.logBook.save')}
      confirmLoading={saving}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t('emergency.logBook.appendOnly')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          label={t('emergency.logBook.luminaire')}
          name="deviceId"
          rules={[{ required: true, message: t('emergency.logBook.lightRequired') }]}
        >
          <Select showSearch optionFilterProp="label" options={lights} loading={tree.isLoading} data-testid="emergency-repair-light" />
        </Form.Item>
        <Form.Item
          label={t('emergency.logBook.work')}
          name="note"
          rules={[{ required: true, whitespace: true, message: t('emergency.logBook.workRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={EMERGENCY_LIMITS.note.max} placeholder={t('emergency.logBook.workPlaceholder')} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
