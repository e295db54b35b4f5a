import { useMemo, useState, type ReactNode } from 'react';
import { App, Button, Card, Col, Descriptions, Empty, List, Result, Row, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { ApartmentOutlined, DeleteOutlined, EditOutlined, PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { useUserMay } from '../../components/use-user-may.ts';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { nestByParent, type Building, type MapInfo, type Nested, type TreeBuilding } from '@lumigrid/contract/browser';
import { useDeleteBuilding, useDeleteProject, useProjectDetail, useProjectTree } from '../../features/projects/api.ts';
import { BuildingFormModal } from './building-form-modal.tsx';
import { MapFormModal } from './map-form-modal.tsx';
import { MapPanel } from './map-panel.tsx';
import { ProjectFormModal } from './project-form-modal.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';
import { useSearchParam } from '../../components/use-search-param.ts';

type Selection = { kind: 'build'; id: string } | { kind: 'map'; id: string } | undefined;
type Dialog =
  | { kind: 'project' }
  | { kind: 'addBuilding'; parentId?: string }
  | { kind: 'editBuilding'; building: Building }
  | { kind: 'addMap'; buildId?: string }
  | { kind: 'editMap'; map: MapInfo }
  | undefined;

const buildKey = (id: string) => `b:${id}`;
const mapKey = (id: string) => `m:${id}`;

/** A building or map in the tree: its name, a tag when it is the default one, and its count. */
function NodeTitle({ icon, name, count, isDefault }: { icon: ReactNode; name: string; count: string; isDefault: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="lg-tree-node">
      {icon}
      <span>{name}</span>
      {isDefault && (
        <Tag color="blue" bordered={false} style={{ marginInlineEnd: 0 }}>
          {t('installation.default')}
        </Tag>
      )}
      <span className="lg-tree-node__count">{count}</span>
    </span>
  );
}

/** A project with its buildings and maps as a tree with counts; buildings and maps are managed here. */
export default function ProjectDetailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const projectId = useSearchParam('id');
  const editable = useUserMay('write');
  const detail = useProjectDetail(projectId);
  const tree = useProjectTree(projectId);
  const removeBuilding = useDeleteBuilding();
  const removeProject = useDeleteProject();
  const [selection, setSelection] = useState<Selection>();
  const [dialog, setDialog] = useState<Dialog>();
  // Buildings start expanded, new ones too; the user's collapsing is remembered while the page is open.
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const empty = t('common.empty');

  const treeProject = tree.data?.projects.find((p) => p.id === projectId);
  const { time } = useSiteTime({ projectId });
  const builds: TreeBuilding[] = useMemo(() => treeProject?.builds ?? [], [treeProject]);
  const maps = useMemo(() => builds.flatMap((b) => b.maps), [builds]);

  // Without a choice, the project's default map (or its first) is shown.
  const effective: Selection = useMemo(() => {
    if (selection?.kind === 'build' && builds.some((b) => b.id === selection.id)) return selection;
    if (selection?.kind === 'map' && maps.some((m) => m.id === selection.id)) return selection;
    const first = maps.find((m) => m.isDefault) ?? maps[0];
    if (first) return { kind: 'map', id: first.id };
    return builds[0] ? { kind: 'build', id: builds[0].id } : undefined;
  }, [selection, builds, maps]);

  const treeData: DataNode[] = useMemo(() => {
    const toNode = (build: Nested<TreeBuilding>): DataNode => ({
      key: buildKey(build.id),
      title: (
        <NodeTitle
          icon={<ApartmentOutlined />}
          name={build.name}
          count={t('building.mapCount', { count: build.mapCount })}
          isDefault={build.isDefault}
        />
      ),
      children: [
        ...build.children.map(toNode),
        ...build.maps.map((map) => ({
          key: mapKey(map.id),
          isLeaf: true,
          title: (
            <NodeTitle
              icon={<PictureOutlined />}
              name={map.name}
              count={t('map.deviceCount', { count: map.deviceCount })}
              isDefault={map.isDefault}
            />
          ),
        })),
      ],
    });
    return nestByParent(builds).map(toNode);
  }, [builds, t]);

  if (!projectId || detail.isError) {
    return (
      <Result
        status="404"
        title={t('project.notFound')}
        extra={
          <Link to="/project/list">
            <Button type="primary">{t('project.backToList')}</Button>
          </Link>
        }
      />
    );
  }
  if (!detail.data) return <Spin style={{ display: 'block', margin: '96px auto' }} />;

  const { project, children } = detail.data;
  const parentName = project.parentId ? tree.data?.projects.find((p) => p.id === project.parentId)?.name : undefined;
  const selectedBuild = effective?.kind === 'build' ? builds.find((b) => b.id === effective.id) : undefined;
  const selectedMap = effective?.kind === 'map' ? maps.find((m) => m.id === effective.id) : undefined;
  const buildName = (id: string) => builds.find((b) => b.id === id)?.name ?? empty;

  const deleteProject = async () => {
    await removeProject.mutateAsync(project.id);
    void message.success(t('project.deleted'));
    void navigate('/project/list', { replace: true });
  };

  const deleteBuilding = async (building: Building) => {
    await removeBuilding.mutateAsync(building.id);
    void message.success(t('building.deleted'));
    setSelection(undefined);
  };

  const buildingPanel = selectedBuild && (
    <Card
      data-testid="building-panel"
      title={
        <Space>
          <ApartmentOutlined />
          <span>{selectedBuild.name}</span>
          {selectedBuild.isDefault && (
            <Tag color="blue" bordered={false}>
              {t('installation.default')}
            </Tag>
          )}
        </Space>
      }
      extra={
        editable && (
          <Space wrap>
            <Button icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'addMap', buildId: selectedBuild.id })}>
              {t('map.add')}
            </Button>
            <Button icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'addBuilding', parentId: selectedBuild.id })}>
              {t('building.addChild')}
            </Button>
            <Button icon={<EditOutlined />} onClick={() => setDialog({ kind: 'editBuilding', building: selectedBuild })}>
              {t('installation.edit')}
            </Button>
            <DangerConfirm
              title={t('building.deleteConfirm', { name: selectedBuild.name })}
              description={t('building.deleteHint')}
              okText={t('installation.delete')}
              onConfirm={() => deleteBuilding(selectedBuild).catch(() => undefined)}
            >
              <Button danger icon={<DeleteOutlined />} loading={removeBuilding.isPending}>
                {t('installation.delete')}
              </Button>
            </DangerConfirm>
          </Space>
        )
      }
    >
      <Descriptions column={{ xs: 1, md: 2 }} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('building.parent')}>
          {selectedBuild.parentId ? buildName(selectedBuild.parentId) : empty}
        </Descriptions.Item>
        <Descriptions.Item label={t('installation.createdAt')}>{time(selectedBuild.createdAt)}</Descriptions.Item>
      </Descriptions>
      <List
        header={<Typography.Text strong>{t('project.maps')}</Typography.Text>}
        dataSource={selectedBuild.maps}
        locale={{ emptyText: t('building.noMaps') }}
        renderItem={(map) => (
          <List.Item
            actions={[
              <Typography.Link key="open" onClick={() => setSelection({ kind: 'map', id: map.id })}>
                {t('installation.open')}
              </Typography.Link>,
            ]}
          >
            <List.Item.Meta
              avatar={<PictureOutlined />}
              title={map.name}
              description={`${t('map.deviceCount', { count: map.deviceCount })} · ${map.image ? t('map.hasImage') : t('map.noImage')}`}
            />
          </List.Item>
        )}
      />
    </Card>
  );

  return (
    <PageContainer
      title={
        <Space>
          <span>{project.name}</span>
          {project.isDefault && (
            <Tag color="blue" bordered={false}>
              {t('installation.default')}
            </Tag>
          )}
        </Space>
      }
      onBack={() => void navigate('/project/list')}
      extra={
        editable
          ? [
              <DangerConfirm
                key="delete"
                title={t('project.deleteConfirm', { name: project.name })}
                description={t('project.deleteHint')}
                okText={t('installation.delete')}
                // A refusal (the default project, buildings inside) was shown in the server's words.
                onConfirm={() => deleteProject().catch(() => undefined)}
              >
                <Button danger icon={<DeleteOutlined />} loading={removeProject.isPending}>
                  {t('project.delete')}
                </Button>
              </DangerConfirm>,
              <Button key="edit" icon={<EditOutlined />} onClick={() => setDialog({ kind: 'project' })}>
                {t('project.editTitle')}
              </Button>,
              <Button
                key="map"
                icon={<PlusOutlined />}
                disabled={builds.length === 0}
                onClick={() => setDialog({ kind: 'addMap', buildId: selectedBuild?.id ?? selectedMap?.buildId })}
              >
                {t('map.add')}
              </Button>,
              <Button key="build" type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'addBuilding' })}>
                {t('building.add')}
              </Button>,
            ]
          : []
      }
    >
      <Card variant="borderless" style={{ marginBottom: 24 }}>
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} data-testid="project-summary">
          <Descriptions.Item label={t('project.address')}>{project.address || empty}</Descriptions.Item>
          <Descriptions.Item label={t('project.parent')}>
            {project.parentId ? <Link to={`/project/detail?id=${project.parentId}`}>{parentName ?? empty}</Link> : empty}
          </Descriptions.Item>
          <Descriptions.Item label={t('project.location')}>
            {project.longitude !== null && project.latitude !== null
              ? `${project.longitude.toFixed(2)}, ${project.latitude.toFixed(2)}`
              : empty}
          </Descriptions.Item>
          <Descriptions.Item label={t('project.buildings')}>{project.buildCount}</Descriptions.Item>
          <Descriptions.Item label={t('project.maps')}>{project.mapCount}</Descriptions.Item>
          <Descriptions.Item label={t('installation.createdAt')}>{time(project.createdAt)}</Descriptions.Item>
          {children.length > 0 && (
            <Descriptions.Item label={t('project.children')} span={3}>
              <Space wrap>
                {children.map((child) => (
                  <Link key={child.id} to={`/project/detail?id=${child.id}`}>
                    {child.name}
                  </Link>
                ))}
              </Space>
            </Descriptions.Item>
          )}
        </Descriptions>
      </Card>

      <Row gutter={[24, 24]}>
        <Col xs={24} lg={9} xl={8}>
          <Card title={t('project.tree')} variant="borderless" loading={tree.isLoading} data-testid="project-tree">
            {treeData.length ? (
              <Tree
                showLine
                blockNode
                expandedKeys={builds.map((b) => buildKey(b.id)).filter((key) => !collapsed.has(key))}
                onExpand={(keys) => setCollapsed(new Set(builds.map((b) => buildKey(b.id)).filter((key) => !keys.includes(key))))}
                treeData={treeData}
                selectedKeys={effective ? [effective.kind === 'build' ? buildKey(effective.id) : mapKey(effective.id)] : []}
                onSelect={(keys) => {
                  const key = String(keys[0] ?? '');
                  if (key.startsWith('b:')) setSelection({ kind: 'build', id: key.slice(2) });
                  else if (key.startsWith('m:')) setSelection({ kind: 'map', id: key.slice(2) });
                }}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('project.noBuildings')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={15} xl={16}>
          {selectedMap ? (
            <MapPanel
              map={selectedMap}
              buildingName={buildName(selectedMap.buildId)}
              editable={editable}
              onEdit={() => setDialog({ kind: 'editMap', map: selectedMap })}
              onDeleted={() => setSelection(undefined)}
            />
          ) : (
            (buildingPanel ?? (
              <Card variant="borderless">
                <Empty description={t('project.noBuildings')} />
              </Card>
            ))
          )}
        </Col>
      </Row>

      <ProjectFormModal
        open={dialog?.kind === 'project'}
        project={project}
        onClose={() => setDialog(undefined)}
        onSaved={() => void message.success(t('project.saved'))}
      />
      <BuildingFormModal
        open={dialog?.kind === 'addBuilding' || dialog?.kind === 'editBuilding'}
        projectId={project.id}
        buildings={builds}
        building={dialog?.kind === 'editBuilding' ? dialog.building : undefined}
        parentId={dialog?.kind === 'addBuilding' ? dialog.parentId : undefined}
        onClose={() => setDialog(undefined)}
        onSaved={(saved) => {
          void message.success(t('building.saved'));
          setSelection({ kind: 'build', id: saved.id });
        }}
      />
      <MapFormModal
        open={dialog?.kind === 'addMap' || dialog?.kind === 'editMap'}
        buildings={builds}
        map={dialog?.kind === 'editMap' ? dialog.map : undefined}
        buildId={dialog?.kind === 'addMap' ? dialog.buildId : undefined}
        onClose={() => setDialog(undefined)}
        onSaved={(saved) => {
          void message.success(t('map.saved'));
          setSelection({ kind: 'map', id: saved.id });
        }}
      />
    </PageContainer>
  );
}
