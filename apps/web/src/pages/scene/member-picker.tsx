import { useMemo, useState } from 'react';
import { Button, Cascader, Segmented, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DisplayState, Gateway, TreeBuilding, TreeProject } from '@lumigrid/contract/browser';
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

  /** A ticked device or group as a new member, with the default action of what it can do. */
  const asMember = (
    type: EditorMember['type'],
    item: Pick<EditorMember, 'id' | 'name' | 'gatewayId' | 'mapId'>,
    deviceType: number | null,
  ): EditorMember => ({
    type,
    id: item.id,
    name: item.name,
    gatewayId: item.gatewayId,
    mapId: item.mapId,
    deviceType,
    action: defaultAction(catalog.controlsOf({ type, id: item.id, deviceType })),
  });

  const add = () => {
    const picked =
      shown === 'devices'
        ? devices.filter((d) => selected.includes(memberKey({ type: 'device', id: d.id }))).map((d) => asMember('device', d, d.type))
        : groups.filter((g) => selected.includes(memberKey({ type: 'group', id: g.id }))).map((g) => asMember('group', g, null));
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

  /** One list of the picker; a row already in the scene shows "added" in place of its state and cannot be ticked. */
  const memberTable = <R extends { key: string; name: string; display: DisplayState }>(
    rows: R[],
    emptyText: string,
    columns: TableColumnsType<R>,
    displayText: (display: DisplayState) => string,
    testId: string,
  ) => (
    <Table<R>
      size="small"
      rowKey="key"
      loading={!catalog.ready}
      dataSource={rows}
      pagination={rows.length > 8 ? { pageSize: 8, showSizeChanger: false, size: 'small' } : false}
      rowSelection={selection}
      locale={{ emptyText }}
      onRow={(row) => ({ 'data-testid': `pick-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        ...columns,
        {
          title: t('scenes.picker.state'),
          dataIndex: 'display',
          width: 170,
          render: (display: DisplayState, row) =>
            taken.has(row.key) ? (
              <Tag bordered={false}>{t('scenes.picker.added')}</Tag>
            ) : (
              <Tag color={DISPLAY_TAG_COLOUR[display]}>{displayText(display)}</Tag>
            ),
        },
      ]}
      data-testid={testId}
    />
  );

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
      {shown === 'devices'
        ? memberTable(
            devices.map((d) => ({ ...d, key: memberKey({ type: 'device', id: d.id }) })),
            mapId ? t('scenes.picker.noDevices') : t('scenes.picker.chooseMap'),
            [
              { title: t('scenes.picker.device'), dataIndex: 'name', ellipsis: true },
              { title: t('scenes.picker.type'), dataIndex: 'type', width: 200, render: (type: number) => typeName(t, type) },
              { title: t('scenes.members.gateway'), dataIndex: 'gatewayId', width: 160, ellipsis: true, render: gatewayName },
            ],
            (display) => t(`deviceControl.display.${display}`),
            'member-picker-devices',
          )
        : memberTable(
            groups.map((g) => ({ ...g, key: memberKey({ type: 'group', id: g.id }) })),
            mapId ? t('scenes.picker.noGroups') : t('scenes.picker.chooseMap'),
            [
              { title: t('scenes.picker.group'), dataIndex: 'name', ellipsis: true },
              { title: t('scenes.members.gateway'), dataIndex: 'gatewayId', width: 160, ellipsis: true, render: gatewayName },
              {
                title: t('scenes.picker.groupMembers'),
                dataIndex: 'deviceIds',
                width: 110,
                align: 'right',
                render: (ids: string[]) => ids.length,
              },
            ],
            (display) => t(`groups.display.${display}`),
            'member-picker-groups',
          )}
    </div>
  );
}
