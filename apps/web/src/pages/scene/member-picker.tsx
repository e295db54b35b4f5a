import { useMemo, useState } from 'react';
import { Button, Cascader, Segmented, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Device, Gateway, GroupView, TreeBuilding, TreeProject } from '@lumigrid/contract/browser';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { typeName } from '../../features/device-config/columns.tsx';
import { withPaths } from '../../features/projects/tree.ts';
import { isSceneDevice, type MapCatalog } from '../../features/scenes/catalog.ts';
import { memberKey, type EditorMember } from '../../features/scenes/editor-state.ts';
import { defaultAction } from '../../features/scenes/members.ts';

interface Props {
  project: TreeProject | undefined;
  /** building > map of the project. */
  place: [string, string] | undefined;
  onPlaceChange(place: [string, string]): void;
  catalog: MapCatalog;
  gateways: ReadonlyMap<string, Gateway>;
  /** A group schedule takes groups only. */
  groupsOnly: boolean;
  /** Members already in the scene (or the step): listed, but not offered again. */
  taken: ReadonlySet<string>;
  addLabel: string;
  onAdd(members: EditorMember[]): void;
}

/** The building > map options of one project; buildings without maps are disabled. */
function placeOptions(project: TreeProject | undefined) {
  if (!project) return [];
  return withPaths<TreeBuilding>(project.builds).map(({ item, path }) => ({
    value: item.id,
    label: path.join(' / '),
    disabled: item.maps.length === 0 || undefined,
    children: item.maps.map((map) => ({ value: map.id, label: map.name })),
  }));
}

/**
 * The member picker of every scene editor: a building and a map of the scene's project, then the devices
 * (lights, switches, curtains) and groups of that map, ticked and added with a default action each.
 */
export function MemberPicker({ project, place, onPlaceChange, catalog, gateways, groupsOnly, taken, addLabel, onAdd }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'devices' | 'groups'>(groupsOnly ? 'groups' : 'devices');
  const [selected, setSelected] = useState<string[]>([]);
  const shown = groupsOnly ? 'groups' : tab;
  const mapId = place?.[1];
  const options = useMemo(() => placeOptions(project), [project]);

  const devices = useMemo(
    () => [...catalog.devices.values()].filter((d) => d.mapId === mapId && isSceneDevice(d.type)),
    [catalog.devices, mapId],
  );
  const groups = useMemo(() => [...catalog.groups.values()].filter((g) => g.mapId === mapId), [catalog.groups, mapId]);

  const gatewayName = (gatewayId: string) => {
    const gateway = gateways.get(gatewayId);
    return gateway ? `${gateway.name}${gateway.online ? '' : ` (${t('scenes.offline')})`}` : t('common.empty');
  };

  const add = () => {
    const picked: EditorMember[] =
      shown === 'devices'
        ? devices
            .filter((d) => selected.includes(memberKey({ type: 'device', id: d.id })))
            .map((d) => ({
              type: 'device',
              id: d.id,
              name: d.name,
              gatewayId: d.gatewayId,
              mapId: d.mapId,
              deviceType: d.type,
              action: defaultAction(catalog.controlsOf({ type: 'device', id: d.id, deviceType: d.type })),
            }))
        : groups
            .filter((g) => selected.includes(memberKey({ type: 'group', id: g.id })))
            .map((g) => ({
              type: 'group',
              id: g.id,
              name: g.name,
              gatewayId: g.gatewayId,
              mapId: g.mapId,
              deviceType: null,
              action: defaultAction(catalog.controlsOf({ type: 'group', id: g.id, deviceType: null })),
            }));
    onAdd(picked);
    setSelected([]);
  };

  const selection = {
    selectedRowKeys: selected,
    onChange: (keys: React.Key[]) => setSelected(keys.map(String)),
    getCheckboxProps: (row: { key: string; name: string }) => ({
      disabled: taken.has(row.key),
      name: row.name,
      'aria-label': t('common.selectRow', { name: row.name }),
    }),
  };

  return (
    <div data-testid="member-picker">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 12 }}>
        <Typography.Text>{t('scenes.picker.map')}</Typography.Text>
        <Cascader
          style={{ width: 320, maxWidth: '100%' }}
          options={options}
          value={place}
          allowClear={false}
          expandTrigger="hover"
          placeholder={t('scenes.picker.mapPlaceholder')}
          onChange={(value) => {
            if (Array.isArray(value) && value.length === 2) {
              onPlaceChange([String(value[0]), String(value[1])]);
              setSelected([]);
            }
          }}
          data-testid="member-picker-map"
        />
        {!groupsOnly && (
          <Segmented
            value={tab}
            onChange={(value) => {
              setTab(value as 'devices' | 'groups');
              setSelected([]);
            }}
            options={[
              { value: 'devices', label: t('scenes.picker.devices', { count: devices.length }) },
              { value: 'groups', label: t('scenes.picker.groups', { count: groups.length }) },
            ]}
            data-testid="member-picker-tab"
          />
        )}
        <div style={{ flex: 1 }} />
        <Button type="primary" ghost icon={<PlusOutlined />} disabled={selected.length === 0} onClick={add} data-testid="member-picker-add">
          {addLabel}
          {selected.length > 0 ? ` (${selected.length})` : ''}
        </Button>
      </div>
      {shown === 'devices' ? (
        <Table<Device & { key: string }>
          size="small"
          rowKey="key"
          loading={!catalog.ready}
          dataSource={devices.map((d) => ({ ...d, key: memberKey({ type: 'device', id: d.id }) }))}
          pagination={devices.length > 8 ? { pageSize: 8, showSizeChanger: false, size: 'small' } : false}
          rowSelection={selection}
          locale={{ emptyText: mapId ? t('scenes.picker.noDevices') : t('scenes.picker.chooseMap') }}
          onRow={(row) => ({ 'data-testid': `pick-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('scenes.picker.device'), dataIndex: 'name', ellipsis: true },
            { title: t('scenes.picker.type'), dataIndex: 'type', width: 200, render: (type: number) => typeName(t, type) },
            { title: t('scenes.members.gateway'), dataIndex: 'gatewayId', width: 160, ellipsis: true, render: gatewayName },
            {
              title: t('scenes.picker.state'),
              dataIndex: 'display',
              width: 170,
              render: (display: Device['display'], row) =>
                taken.has(row.key) ? (
                  <Tag bordered={false}>{t('scenes.picker.added')}</Tag>
                ) : (
                  <Tag color={DISPLAY_TAG_COLOUR[display]}>{t(`deviceControl.display.${display}`)}</Tag>
                ),
            },
          ]}
          data-testid="member-picker-devices"
        />
      ) : (
        <Table<GroupView & { key: string }>
          size="small"
          rowKey="key"
          loading={!catalog.ready}
          dataSource={groups.map((g) => ({ ...g, key: memberKey({ type: 'group', id: g.id }) }))}
          pagination={groups.length > 8 ? { pageSize: 8, showSizeChanger: false, size: 'small' } : false}
          rowSelection={selection}
          locale={{ emptyText: mapId ? t('scenes.picker.noGroups') : t('scenes.picker.chooseMap') }}
          onRow={(row) => ({ 'data-testid': `pick-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('scenes.picker.group'), dataIndex: 'name', ellipsis: true },
            { title: t('scenes.members.gateway'), dataIndex: 'gatewayId', width: 160, ellipsis: true, render: gatewayName },
            {
              title: t('scenes.picker.groupMembers'),
              dataIndex: 'deviceIds',
              width: 110,
              align: 'right',
              render: (ids: string[]) => ids.length,
            },
            {
              title: t('scenes.picker.state'),
              dataIndex: 'display',
              width: 170,
              render: (display: GroupView['display'], row) =>
                taken.has(row.key) ? (
                  <Tag bordered={false}>{t('scenes.picker.added')}</Tag>
                ) : (
                  <Tag color={DISPLAY_TAG_COLOUR[display]}>{t(`groups.display.${display}`)}</Tag>
                ),
            },
          ]}
          data-testid="member-picker-groups"
        />
      )}
    </div>
  );
}
