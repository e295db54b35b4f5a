import { useState } from 'react';
import { App, Button, Dropdown, Popconfirm, Space, Tag, Typography } from 'antd';
import { DownOutlined, ExportOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SCENE_KINDS, userMay, type SceneKind, type SceneListBody, type SceneView } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { HeaderProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { sceneApi, useDeleteScene, useScenePage } from '../../features/scenes/api.ts';
import { EDITOR_ROUTE, editPath, runsByHand } from '../../features/scenes/timing.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { LastRunCell, NextRunCell, ScenePartsCell, SceneStateTag } from './scene-parts.tsx';
import { SceneThumb } from './scene-picture.tsx';
import { useRunSceneAction } from './use-run-scene.tsx';
import { tablePaging } from '../../components/table-paging.ts';
import { choiceFilter } from '../../components/search-filters.ts';

interface SearchForm {
  name?: string;
  kind?: SceneKind;
}

/** The kinds the "New scene" menu offers, each opening its editor; a group schedule starts in the schedule editor. */
export const NEW_SCENE_KINDS: readonly SceneKind[] = ['manual', 'schedule', 'groupSchedule', 'sun', 'once', 'sequence'];

export function newScenePath(kind: SceneKind): string {
  return kind === 'groupSchedule' ? `${EDITOR_ROUTE.groupSchedule}?kind=groupSchedule` : EDITOR_ROUTE[kind];
}

/**
 * /scene/list: the scenes of the current project, with where each one lives (its parts per gateway), when it
 * runs next, how its latest run went and whether every gateway holds it yet. Editors create, edit and delete;
 * controllable users run manual scenes and sequences.
 */
export default function SceneListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const controllable = userMay(user, 'control');
  const { projectId, setProjectId, tree } = useCurrentProject();
  const [filters, setFilters] = useState<Omit<SceneListBody, 'projectId'>>({ page: 1, pageSize: 20 });
  const [exporting, setExporting] = useState(false);
  const query = projectId ? { projectId, ...filters } : undefined;
  const scenes = useScenePage(query);
  const remove = useDeleteScene();
  const { run, running } = useRunSceneAction();

  const exportExcel = async () => {
    if (!projectId) return;
    setExporting(true);
    try {
      await sceneApi.export({ projectId, name: filters.name, kind: filters.kind }, `${t('scenes.exportFile')}.xlsx`);
    } catch {
      // The client has shown the failure.
    } finally {
      setExporting(false);
    }
  };

  const deleteScene = async (scene: SceneView) => {
    await remove.mutateAsync(scene.id);
    void message.success(t('scenes.deleted', { name: scene.name }));
  };

  const columns: ProColumns<SceneView>[] = [
    { title: t('scenes.field.name'), dataIndex: 'name', hideInTable: true, fieldProps: { maxLength: 64 } },
    choiceFilter(t('scenes.field.kind'), 'kind', SCENE_KINDS, (k) => t(`scenes.kind.${k}`)),
    {
      title: t('scenes.picture.column'),
      dataIndex: 'image',
      search: false,
      width: 64,
      fixed: 'left',
      render: (_, row) => <SceneThumb url={row.image} name={row.name} />,
    },
    {
      title: t('scenes.field.name'),
      dataIndex: 'name',
      search: false,
      width: 160,
      fixed: 'left',
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Link to={`/scene/detail?id=${row.id}`} style={{ wordBreak: 'break-word' }} data-testid="scene-open">
            {row.name}
          </Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('scenes.deviceCount', { count: row.devices })} · {t('scenes.groupCount', { count: row.groups })}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('scenes.field.kind'),
      dataIndex: 'kind',
      search: false,
      width: 110,
      render: (_, row) => (
        <Tag bordered={false} style={{ whiteSpace: 'normal' }}>
          {t(`scenes.kind.${row.kind}`)}
        </Tag>
      ),
    },
    {
      title: t('scenes.field.gateways'),
      dataIndex: 'parts',
      search: false,
      width: 190,
      render: (_, row) => (
        <Space direction="vertical" size={4}>
          <SceneStateTag t={t} state={row.state} />
          <ScenePartsCell t={t} parts={row.parts} />
        </Space>
      ),
    },
    {
      title: t('scenes.field.nextRun'),
      dataIndex: 'nextRun',
      search: false,
      width: 200,
      render: (_, row) => <NextRunCell t={t} scene={row} />,
    },
    {
      title: t('scenes.field.lastRun'),
      dataIndex: 'lastRun',
      search: false,
      width: 210,
      render: (_, row) => <LastRunCell t={t} run={row.lastRun} parts={row.parts} />,
    },
    {
      title: t('scenes.actions'),
      valueType: 'option',
      fixed: 'right',
      width: 130,
      render: (_, row) => [
        controllable && runsByHand(row.kind) && (
          <Typography.Link key="run" disabled={running === row.id} onClick={() => void run(row)} data-testid="scene-run">
            {t('scenes.runNow')}
          </Typography.Link>
        ),
        editable && (
          <Link key="edit" to={editPath(row)} data-testid="scene-edit">
            {t('scenes.edit')}
          </Link>
        ),
        editable && (
          <Popconfirm
            key="delete"
            title={t('scenes.deleteConfirm', { name: row.name })}
            description={t('scenes.deleteHint')}
            okText={t('scenes.delete')}
            cancelText={t('scenes.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => deleteScene(row).catch(() => undefined)}
          >
            <Typography.Link type="danger" data-testid="scene-delete">
              {t('scenes.delete')}
            </Typography.Link>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <PageContainer
      title={t('scenes.listTitle')}
      content={t('scenes.listHint')}
      extra={
        <HeaderProjectSelect
          label={t('scenes.project')}
          tree={tree.data}
          value={projectId}
          onChange={(id) => {
            setProjectId(id);
            setFilters((current) => ({ ...current, page: 1 }));
          }}
        />
      }
    >
      <ProTable<SceneView, SearchForm>
        rowKey="id"
        locale={{ emptyText: <EmptyHint text={editable ? t('scenes.emptyEditable') : t('scenes.empty')} /> }}
        columns={columns}
        dataSource={scenes.data?.list ?? []}
        loading={(scenes.isFetching && !scenes.data) || tree.isLoading}
        cardBordered
        scroll={{ x: 1060 }}
        search={{ labelWidth: 'auto', span: 8, defaultCollapsed: false, collapseRender: false }}
        onRow={(row) => ({ 'data-testid': `scene-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
        onSubmit={(params) =>
          setFilters((current) => ({
            page: 1,
            pageSize: current.pageSize,
            ...(params.name?.trim() ? { name: params.name.trim() } : {}),
            ...(params.kind ? { kind: params.kind } : {}),
          }))
        }
        onReset={() => setFilters((current) => ({ page: 1, pageSize: current.pageSize }))}
        options={{ reload: () => void scenes.refetch(), density: true, setting: true, fullScreen: false }}
        toolBarRender={() => [
          <Button key="export" icon={<ExportOutlined />} loading={exporting} disabled={!projectId} onClick={() => void exportExcel()}>
            {t('scenes.export')}
          </Button>,
          editable && (
            <Dropdown
              key="new"
              menu={{
                items: NEW_SCENE_KINDS.map((kind) => ({ key: kind, label: t(`scenes.kind.${kind}`), 'data-testid': `new-scene-${kind}` })),
                onClick: ({ key }) => void navigate(newScenePath(key as SceneKind)),
              }}
            >
              <Button type="primary" icon={<PlusOutlined />} data-testid="scene-new">
                {t('scenes.new')} <DownOutlined />
              </Button>
            </Dropdown>
          ),
        ]}
        pagination={tablePaging(filters, setFilters, scenes.data?.total ?? 0)}
      />
    </PageContainer>
  );
}
