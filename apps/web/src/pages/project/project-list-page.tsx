import { useMemo, useState } from 'react';
import { App, Button, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS, type Project } from '@lumigrid/contract/browser';
import { useDeleteProject, useProjectPage, useProjectTree, WHOLE_TREE } from '../../features/projects/api.ts';
import { ProjectFormModal } from './project-form-modal.tsx';
import { useSiteTimes } from '../../features/projects/site-time.ts';
import { tablePaging } from '../../components/table-paging.ts';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { useUserMay } from '../../components/use-user-may.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

type Dialog = { kind: 'add' } | { kind: 'edit'; project: Project } | undefined;

/** Coordinates as "lon, lat", or a dash. */
function location(project: Project, empty: string): string {
  if (project.longitude === null || project.latitude === null) return empty;
  return `${project.longitude.toFixed(2)}, ${project.latitude.toFixed(2)}`;
}

/** The project list: searched and paged on the server, with add, edit and delete (spec sections 2 and 5). */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const siteTime = useSiteTimes();
  const { message } = App.useApp();
  const notifyOnSuccess = useNotifyOnSuccess();
  const editable = useUserMay('write');
  const [query, setQuery] = useState<{ name: string; page: number; pageSize: number }>({
    name: '',
    page: 1,
    pageSize: PROJECT_LIMITS.pageSize.default,
  });
  const [dialog, setDialog] = useState<Dialog>();
  const projects = useProjectPage(query);
  // The whole tree names parent projects that are not on this page.
  const tree = useProjectTree(WHOLE_TREE);
  const remove = useDeleteProject();
  const empty = t('common.empty');

  const names = useMemo(() => new Map((tree.data?.projects ?? []).map((p) => [p.id, p.name])), [tree.data]);

  const columns: ProColumns<Project>[] = [
    {
      title: t('project.keyword'),
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: t('project.keywordPlaceholder'), maxLength: PROJECT_LIMITS.name.max },
    },
    {
      title: t('project.name'),
      dataIndex: 'name',
      search: false,
      width: 220,
      fixed: 'left',
      render: (_, row) => (
        <Space size={8} wrap={false}>
          <Link to={`/project/detail?id=${row.id}`} style={{ wordBreak: 'break-word' }}>
            {row.name}
          </Link>
          {row.isDefault && (
            <Tag color="blue" bordered={false}>
              {t('installation.default')}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('project.address'), dataIndex: 'address', search: false, ellipsis: true, render: (_, row) => row.address || empty },
    {
      title: t('project.parent'),
      dataIndex: 'parentId',
      search: false,
      width: 160,
      ellipsis: true,
      render: (_, row) => (row.parentId ? (names.get(row.parentId) ?? empty) : empty),
    },
    { title: t('project.location'), dataIndex: 'longitude', search: false, width: 130, render: (_, row) => location(row, empty) },
    { title: t('project.buildings'), dataIndex: 'buildCount', search: false, width: 80, align: 'right' },
    { title: t('project.maps'), dataIndex: 'mapCount', search: false, width: 70, align: 'right' },
    {
      title: t('installation.createdAt'),
      dataIndex: 'createdAt',
      search: false,
      width: 110,
      render: (_, row) => siteTime({ projectId: row.id }, row.createdAt, 'date'),
    },
    {
      title: t('installation.actions'),
      valueType: 'option',
      fixed: 'right',
      width: editable ? 150 : 80,
      render: (_, row) => [
        <Link key="open" to={`/project/detail?id=${row.id}`}>
          {t('installation.open')}
        </Link>,
        editable && (
          <Typography.Link key="edit" onClick={() => setDialog({ kind: 'edit', project: row })}>
            {t('installation.edit')}
          </Typography.Link>
        ),
        editable && (
          <DangerConfirm
            key="delete"
            title={t('project.deleteConfirm', { name: row.name })}
            description={t('project.deleteHint')}
            okText={t('installation.delete')}
            onConfirm={() =>
              // A refusal (default project, buildings inside) was shown in the server's words.
              notifyOnSuccess(remove.mutateAsync(row.id), t('project.deleted'))
            }
          >
            <Typography.Link type="danger">{t('installation.delete')}</Typography.Link>
          </DangerConfirm>
        ),
      ],
    },
  ];

  return (
    <PageContainer title={t('project.title')} content={t('project.hint')}>
      <ProTable<Project, { keyword?: string }>
        rowKey="id"
        columns={columns}
        dataSource={projects.data?.list ?? []}
        loading={projects.isFetching}
        cardBordered
        scroll={{ x: 1100 }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        onSubmit={(params) => setQuery((current) => ({ ...current, name: (params.keyword ?? '').trim(), page: 1 }))}
        onReset={() => setQuery((current) => ({ ...current, name: '', page: 1 }))}
        options={{ reload: () => void projects.refetch(), density: true, setting: true, fullScreen: false }}
        toolBarRender={() =>
          editable
            ? [
                <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })}>
                  {t('project.add')}
                </Button>,
              ]
            : []
        }
        pagination={tablePaging(query, setQuery, projects.data?.total ?? 0)}
      />
      <ProjectFormModal
        open={dialog !== undefined}
        project={dialog?.kind === 'edit' ? dialog.project : undefined}
        onClose={() => setDialog(undefined)}
        onSaved={() => void message.success(t('project.saved'))}
      />
    </PageContainer>
  );
}
