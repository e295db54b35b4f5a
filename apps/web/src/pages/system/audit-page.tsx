import { useEffect, useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  ENDPOINT_DOMAINS,
  ENDPOINT_SUMMARIES,
  RESOURCE_KINDS,
  errorMessage,
  isErrorCode,
  type AuditEntry,
  type AuditExportBody,
  type AuditListBody,
  type ResourceKind,
} from '@lumigrid/contract/browser';
import { useDownload } from '../../api/download.ts';
import { auditApi, useAuditPage } from '../../features/audit/api.ts';
import { describeChange } from '../../features/audit/describe.ts';
import { dayRange } from '../../features/emergency/filters.ts';
import { useProjectTree, WHOLE_TREE } from '../../features/projects/api.ts';
import { useAccountTime, useLang } from '../../features/projects/site-time.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { DownloadButton } from '../../components/download-button.tsx';

const DEFAULT_PAGE_SIZE = 20;

interface Filters {
  range?: [Dayjs, Dayjs];
  userId?: string;
  projectId?: string;
  kind?: string;
  targetKind?: ResourceKind;
  targetId?: string;
  outcome?: 'ok' | 'refused';
}

function bodyOf(f: Filters): AuditExportBody {
  return {
    ...dayRange(f.range),
    ...(f.userId ? { userId: f.userId } : {}),
    ...(f.projectId ? { projectId: f.projectId } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.targetKind ? { targetKind: f.targetKind } : {}),
    ...(f.targetId?.trim() ? { targetId: f.targetId.trim() } : {}),
    ...(f.outcome ? { ok: f.outcome === 'ok' } : {}),
  };
}

/**
 * The audit trail: every change and command made through the platform that the caller may see (the server
 * applies the role matrix), with who, when, from where, what and the outcome; filters, paging and the Excel
 * export of what the filters take.
 */
export default function AuditPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { time } = useAccountTime();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<AuditExportBody>({});
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const body: AuditListBody = { ...filters, ...paging };
  const page = useAuditPage(body);
  const tree = useProjectTree(WHOLE_TREE);
  const excel = useDownload(() => auditApi.export(filters, `${t('audit.file')}.xlsx`));
  // Users the trail has shown so far: the user filter offers them.
  const [users, setUsers] = useState(new Map<string, string>());
  const list = page.data?.list;
  useEffect(() => {
    if (!list?.some((e) => e.userId && !users.has(e.userId))) return;
    const next = new Map(users);
    for (const e of list) if (e.userId) next.set(e.userId, e.userName || e.userId);
    setUsers(next);
  }, [list, users]);

  const apply = (values: Filters) => {
    setFilters(bodyOf(values));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const outcome = (code: number) =>
    code === 0 ? (
      <Tag color="green">{t('audit.ok')}</Tag>
    ) : (
      <Tooltip title={isErrorCode(code) ? errorMessage(code, lang) : undefined}>
        <Tag color="red">{t('audit.refused', { code })}</Tag>
      </Tooltip>
    );

  const columns: ProColumns<AuditEntry>[] = [
    { title: t('audit.time'), dataIndex: 'at', width: 170, render: (_, e) => time(e.at, 'second') },
    {
      title: t('audit.user'),
      dataIndex: 'userName',
      width: 190,
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`audit-user-${e.id}`}>{e.userName || '—'}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`audit.actor.${e.actor}`)} · {t(`audit.via.${e.via}`)}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('audit.address'), dataIndex: 'ip', width: 130 },
    {
      title: t('audit.action'),
      dataIndex: 'endpoint',
      render: (_, e) => {
        const change = describeChange(e);
        return (
          <Space direction="vertical" size={0}>
            <span data-testid={`audit-action-${e.id}`}>{t(change.key, change.values)}</span>
            <Tooltip title={ENDPOINT_SUMMARIES[e.endpoint]}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }} code>
                {e.endpoint}
              </Typography.Text>
            </Tooltip>
          </Space>
        );
      },
    },
    {
      title: t('audit.target'),
      dataIndex: 'targets',
      width: 200,
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          {e.projectName && <span>{e.projectName}</span>}
          {e.targets.map((x) => (
            <Typography.Text key={`${x.kind}:${x.id}`} type="secondary" style={{ fontSize: 12 }}>
              {t(`audit.kindOf.${x.kind}`)} {x.id}
            </Typography.Text>
          ))}
          {e.targets.length === 0 && !e.projectName && '—'}
        </Space>
      ),
    },
    { title: t('audit.outcome'), dataIndex: 'code', width: 130, render: (_, e) => outcome(e.code) },
  ];

  return (
    <PageContainer title={t('audit.title')} content={t('audit.hint')}>
      <Form form={form} layout="inline" onFinish={apply} style={{ marginBottom: 16, rowGap: 8 }} data-testid="audit-filters">
        <Form.Item name="range" label={t('audit.time')}>
          <DatePicker.RangePicker allowEmpty={[false, false]} />
        </Form.Item>
        <Form.Item name="userId" label={t('audit.user')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 180 }}
            options={[...users].map(([value, label]) => ({ value, label }))}
            data-testid="audit-filter-user"
          />
        </Form.Item>
        <Form.Item name="projectId" label={t('audit.project')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 180 }}
            options={(tree.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
        <Form.Item name="kind" label={t('audit.kind')}>
          <Select
            allowClear
            style={{ width: 180 }}
            options={ENDPOINT_DOMAINS.map((d) => ({ value: d, label: t(`audit.domain.${d}` as 'audit.domain.devices') }))}
            data-testid="audit-filter-kind"
          />
        </Form.Item>
        <Form.Item label={t('audit.target')}>
          <Space.Compact>
            <Form.Item name="targetKind" noStyle>
              <Select
                allowClear
                style={{ width: 130 }}
                placeholder={t('audit.targetKind')}
                aria-label={t('audit.targetKind')}
                options={RESOURCE_KINDS.map((k) => ({ value: k, label: t(`audit.kindOf.${k}`) }))}
              />
            </Form.Item>
            <Form.Item name="targetId" noStyle rules={[{ pattern: /^[0-9]{1,19}$/, message: t('audit.targetIdRule') }]}>
              <Input
                style={{ width: 150 }}
                placeholder={t('audit.targetId')}
                aria-label={t('audit.targetId')}
                data-testid="audit-filter-target"
              />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="outcome" label={t('audit.outcome')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={[
              { value: 'ok', label: t('audit.ok') },
              { value: 'refused', label: t('audit.refusedOnly') },
            ]}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="audit-search">
              {t('audit.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                apply({});
              }}
            >
              {t('audit.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <ProTable<AuditEntry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list ?? []}
        loading={page.isFetching && !page.data}
        search={false}
        cardBordered
        locale={{ emptyText: <EmptyHint text={t('audit.empty')} /> }}
        onRow={(e) => ({ 'data-testid': `audit-row-${e.id}` }) as React.HTMLAttributes<HTMLElement>}
        toolBarRender={() => [
          <DownloadButton key="excel" data-testid="audit-excel" download={excel}>
            {t('audit.excel')}
          </DownloadButton>,
        ]}
        options={{ reload: () => void page.refetch(), density: true, setting: true, fullScreen: false }}
        expandable={{
          expandedRowRender: (e) => (
            <Space direction="vertical" size={4} style={{ width: '100%' }}>
              <Typography.Text type="secondary">
                {e.method} {e.path}
              </Typography.Text>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid={`audit-request-${e.id}`}>
                {JSON.stringify(e.request, null, 2)}
              </Typography.Paragraph>
              {e.before !== null && e.before !== undefined && (
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                  {t('audit.before')}: {JSON.stringify(e.before, null, 2)}
                </Typography.Paragraph>
              )}
            </Space>
          ),
        }}
        pagination={tablePaging(paging, setPaging, page.data?.total ?? 0)}
      />
    </PageContainer>
  );
}
