import { Badge, Button, Card, Empty, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { useOutmapDevices } from '../gateways/api.ts';
import { markerKind } from '../../components/device-markers/marker-model.ts';

/** The drag-and-drop type an outmap device travels as, from this list onto the floor plan. */
export const OUTMAP_DRAG_TYPE = 'application/x-lumigrid-device';

export interface OutmapListProps {
  mapId: string;
  gateways: Gateway[];
  /** Editors may drag devices onto the plan; everyone else only sees the list. */
  canEdit: boolean;
  /** Places a device at the middle of the plan (the keyboard's way to do what dropping does). */
  onPlace: (device: GatewayDevice) => void;
}

/**
 * Devices of this map's gateways that are on no map yet ("outmap"), per gateway. An editor drags one onto
 * the plan to place it there.
 */
export function OutmapList({ mapId, gateways, canEdit, onPlace }: OutmapListProps) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('deviceControl.outmap.title')}
      styles={{ body: { padding: 0, maxHeight: 'calc(100vh - 360px)', minHeight: 200, overflow: 'auto' } }}
      data-testid="outmap-list"
    >
      {canEdit && (
        <Typography.Paragraph type="secondary" style={{ margin: '8px 12px 0', fontSize: 12 }}>
          {t('deviceControl.outmap.hint')}
        </Typography.Paragraph>
      )}
      {gateways.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deviceControl.outmap.noGateways')} />
      ) : (
        gateways.map((gateway) => <GatewayOutmap key={gateway.id} mapId={mapId} gateway={gateway} canEdit={canEdit} onPlace={onPlace} />)
      )}
    </Card>
  );
}

function GatewayOutmap({
  mapId,
  gateway,
  canEdit,
  onPlace,
}: {
  mapId: string;
  gateway: Gateway;
  canEdit: boolean;
  onPlace: (d: GatewayDevice) => void;
}) {
  const { t } = useTranslation();
  const outmap = useOutmapDevices(mapId, gateway.id);
  const devices = outmap.data ?? [];
  return (
    <div style={{ padding: '8px 12px' }}>
      <Space style={{ marginBottom: 4 }}>
        <Badge status={gateway.online ? 'success' : 'default'} />
        <Typography.Text strong>{gateway.name}</Typography.Text>
        <Typography.Text type="secondary">({devices.length})</Typography.Text>
      </Space>
      <List
        size="small"
        loading={outmap.isLoading}
        dataSource={devices}
        locale={{ emptyText: t('deviceControl.outmap.none') }}
        renderItem={(device) => (
          <List.Item
            draggable={canEdit}
            onDragStart={(event) => {
              event.dataTransfer.setData(OUTMAP_DRAG_TYPE, device.id);
              event.dataTransfer.setData('text/plain', device.name);
              event.dataTransfer.effectAllowed = 'move';
            }}
            style={{ cursor: canEdit ? 'grab' : undefined, padding: '4px 0' }}
            data-testid={`outmap-${device.id}`}
            actions={
              canEdit
                ? [
                    <Button key="place" type="link" size="small" onClick={() => onPlace(device)}>
                      {t('deviceControl.outmap.place')}
                    </Button>,
                  ]
                : undefined
            }
          >
            <Space size={6}>
              <Tag style={{ marginInlineEnd: 0 }}>{t(`deviceControl.kinds.${markerKind(device.type)}`)}</Tag>
              <Typography.Text ellipsis style={{ maxWidth: 130 }}>
                {device.name}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </div>
  );
}
