import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Cascader, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import { PageContainer } from '../../components/page-container.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { mapDestination, type GroupView } from '@lumigrid/contract/browser';
import { ALL_GATEWAYS, useGatewayPage } from '../../features/gateways/api.ts';
import { groupKeys, useDeleteGroup, useDeleteGroupAndSync, useMapGroups } from '../../features/groups/api.ts';
import { groupStateNotes, throttle } from '../../features/groups/group-state.ts';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { useCurrentMapPath } from '../../features/projects/use-current-map-path.ts';
import { useRealtime } from '../../app/realtime-provider.tsx';
import { GroupControlDrawer } from '../../features/devices/group-control-drawer.tsx';
import { GroupFormModal } from './group-form-modal.tsx';
import { SensorLinkageCard } from './sensor-linkage-card.tsx';
import { EmptyLead } from '../../components/empty-hint.tsx';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { useUserMay } from '../../components/use-user-may.ts';

/**
 * Groups (zones) of a map (/device/group): the groups of the map chosen as on the device map (the same
 * remembered project > building > map), each with its gateway, group number, members and truthful state.
 * Editors create, rename, change members and delete; controllable users open a group's control panel.
 * Member reports arrive on the map's real-time topic and refresh the list.
 */
export default function GroupPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const editable = useUserMay('write');
  const controllable = useUserMay('control');
  const queryClient = useQueryClient();
  const { tree, fresh, path, options, choose } = useCurrentMapPath();
  const [editing, setEditing] = useState<{ group?: GroupView } | undefined>();
  const [controlled, setControlled] = useState<string>();
  const remove = useDeleteGroup();
  const removeAndSync = useDeleteGroupAndSync();

  const mapId = path?.[2];
  const groups = useMapGroups(mapId);
  const gateways = useGatewayPage(ALL_GATEWAYS);

  // Member states arrive on the map's one topic; a burst of reports refreshes the groups a few times at most.
  const refresh = useMemo(() => throttle(() => void queryClient.invalidateQueries({ queryKey: groupKeys.all }), 400), [queryClient]);
  useRealtime(mapId ? mapDestination(mapId) : undefined, refresh, refresh);
  useEffect(() => setControlled(undefined), [mapId]);

  const deleteGroup = async (group: GroupView, sync: boolean) => {
    if (sync) {
      await removeAndSync.mutateAsync(group.id);
      void message.success(t('groups.deletedSynced', { name: group.name }));
    } else {
      await remove.mutateAsync(group.id);
      void message.success(t('groups.deleted', { name: group.name }));
    }
  };

  const body = () => {
    if (!fresh && !tree.isError) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
    if (!options.length || !path) {
      return <EmptyLead description={t('groups.noMaps')} to="/project/list" action={t('groups.goProjects')} />;
    }
    return (
      <Table<GroupView>
        rowKey="id"
        loading={groups.isLoading}
        dataSource={groups.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('groups.empty')} /> }}
        onRow={(row) => ({ 'data-testid': `group-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('groups.name'),
            dataIndex: 'name',
            render: (name: string, row) => (
              <Typography.Link onClick={() => setControlled(row.id)} data-testid="group-open">
                {name}
              </Typography.Link>
            ),
          },
          {
            title: t('groups.gateway'),
            dataIndex: 'gatewayName',
            render: (name: string, row) => `${name}${row.gatewayOnline ? '' : ` (${t('groups.offline')})`}`,
          },
          { title: t('groups.number'), dataIndex: 'number', width: 90, align: 'right' },
          { title: t('groups.members'), dataIndex: 'deviceIds', width: 100, align: 'right', render: (ids: string[]) => ids.length },
          {
            title: t('groups.state'),
            dataIndex: 'display',
            render: (display: GroupView['display'], row) => (
              <Space size={4} wrap>
                <Tag color={DISPLAY_TAG_COLOUR[display]} data-testid="group-row-state">
                  {t(`groups.display.${display}`)}
                </Tag>
                {groupStateNotes(row).map((note) => (
                  <Typography.Text key={note.key} type="warning">
                    {t(note.key, { count: note.count })}
                  </Typography.Text>
                ))}
              </Space>
            ),
          },
          {
            title: t('groups.sync'),
            dataIndex: 'onGateway',
            render: (on: boolean) =>
              on ? <Tag color="green">{t('groups.onGateway')}</Tag> : <Tag color="blue">{t('groups.waitingSync')}</Tag>,
          },
          {
            title: t('groups.actions'),
            key: 'actions',
            render: (_value, row) => (
              <Space size={4} wrap>
                <Button size="small" type="link" onClick={() => setControlled(row.id)}>
                  {controllable ? t('groups.control') : t('groups.view')}
                </Button>
                {editable && (
                  <Button size="small" type="link" onClick={() => setEditing({ group: row })} data-testid="group-edit">
                    {t('groups.edit')}
                  </Button>
                )}
                {editable && (
                  <DangerConfirm
                    title={t('groups.deleteConfirm', { name: row.name })}
                    description={row.gatewayOnline ? t('groups.deleteHintOnline') : t('groups.deleteHintOffline')}
                    okText={t('groups.delete')}
                    // An online gateway drops the group at once; an offline one at its next sync (the banner offers it).
                    onConfirm={() => deleteGroup(row, row.gatewayOnline).catch(() => undefined)}
                  >
                    <Button size="small" type="link" danger data-testid="group-delete">
                      {t('groups.delete')}
                    </Button>
                  </DangerConfirm>
                )}
              </Space>
            ),
          },
        ]}
        data-testid="group-table"
      />
    );
  };

  return (
    <PageContainer title={t('groups.title')}>
      <Card variant="borderless" styles={{ body: { padding: 16 } }}>
        <div
          style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 16, marginBottom: 16 }}
        >
          <Space>
            <Typography.Text>{t('groups.select')}</Typography.Text>
            <Cascader
              style={{ width: 420, maxWidth: '70vw' }}
              options={options}
              value={path}
              allowClear={false}
              expandTrigger="hover"
              placeholder={t('groups.selectPlaceholder')}
              aria-label={t('groups.select')}
              onChange={choose}
              data-testid="group-map-selector"
            />
          </Space>
          {editable && mapId && (
            <Button type="primary" onClick={() => setEditing({})} data-testid="group-add">
              {t('groups.add')}
            </Button>
          )}
        </div>
        {body()}
      </Card>
      {mapId && path && (
        <SensorLinkageCard mapId={mapId} groups={groups.data ?? []} gateways={gateways.data?.list ?? []} editable={editable} />
      )}
      {mapId && (
        <GroupFormModal
          open={editing !== undefined}
          mapId={mapId}
          group={editing?.group}
          gateways={gateways.data?.list ?? []}
          onClose={() => setEditing(undefined)}
        />
      )}
      <GroupControlDrawer groupId={controlled} canControl={controllable} onClose={() => setControlled(undefined)} />
    </PageContainer>
  );
}
