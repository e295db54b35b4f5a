import type { ReactNode } from 'react';
import { Badge, Button, Empty, List, Tag } from 'antd';
import { Card } from '../../components/card.tsx';
import { Paragraph, Text } from '../../components/text.tsx';
import { useTranslation } from 'react-i18next';
import type { Gateway, GatewayDevice } from '@lumigrid/contract/browser';
import { useOutmapDevices } from '../gateways/api.ts';
import { markerKind } from '../../components/device-markers/marker-model.ts';

/** The drag-and-drop type an outmap device travels as, from this list onto the floor plan. */
export const OUTMAP_DRAG_TYPE = 'application/x-lumigrid-device';
/** The drag-and-drop type a gateway not yet on the plan travels as. */
export const GATEWAY_DRAG_TYPE = 'application/x-lumigrid-gateway';

export interface OutmapListProps {
  mapId: string;
  gateways: Gateway[];
  /** Editors may drag devices onto the plan; everyone else only sees the list. */
  canEdit: boolean;
  /** Places a device at the middle of the plan (the keyboard's way to do what dropping does). */
  onPlace: (device: GatewayDevice) => void;
  /** Places a gateway that is not on the plan yet at its middle. */
  onPlaceGateway: (gateway: Gateway) => void;
}

/**
 * Devices of this map's gateways that are on no map yet ("outmap"), per gateway, and the gateways not drawn
 * on the plan yet. An editor drags one onto the plan to place it there.
 */
export function OutmapList({ mapId, gateways, canEdit, onPlace, onPlaceGateway }: OutmapListProps) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('deviceControl.outmap.title')}
      styles={{ body: { padding: 0, maxHeight: 'calc(100vh - 360px)', minHeight: 200, overflow: 'auto' } }}
      data-testid="outmap-list"
    >
      {canEdit && (
        <Paragraph type="secondary" style={{ margin: '8px 12px 0', fontSize: 12 }}>
          {t('deviceControl.outmap.hint')}
        </Paragraph>
      )}
      {gateways.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deviceControl.outmap.noGateways')} />
      ) : (
        gateways.map((gateway) => (
          <GatewayOutmap
            key={gateway.id}
            mapId={mapId}
            gateway={gateway}
            canEdit={canEdit}
            onPlace={onPlace}
            onPlaceGateway={onPlaceGateway}
          />
        ))
      )}
    </Card>
  );
}

/** One row of the list: what it is, its name (cut short with an ellipsis), and the Place action, never pushed out. */
function OutmapRow({ kind, name, action }: { kind: ReactNode; name: ReactNode; action?: ReactNode }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 6, width: '100%', minWidth: 0 }}>
      {kind}
      <div style={{ flex: 1, minWidth: 0 }}>{name}</div>
      {action}
    </div>
  );
}

function GatewayOutmap({
  mapId,
  gateway,
  canEdit,
  onPlace,
  onPlaceGateway,
}: Pick<OutmapListProps, 'mapId' | 'canEdit' | 'onPlace' | 'onPlaceGateway'> & { gateway: Gateway }) {
  const { t } = useTranslation();
  const outmap = useOutmapDevices(mapId, gateway.id);
  const devices = outmap.data ?? [];
  const placeable = canEdit && gateway.x === null;
  return (
    <div style={{ padding: '8px 12px' }}>
      <div
        draggable={placeable}
        onDragStart={(event) => {
          event.dataTransfer.setData(GATEWAY_DRAG_TYPE, gateway.id);
          event.dataTransfer.setData('text/plain', gateway.name);
          event.dataTransfer.effectAllowed = 'move';
        }}
        style={{ marginBottom: 4, cursor: placeable ? 'grab' : undefined }}
        data-testid={`outmap-gateway-${gateway.id}`}
      >
        <OutmapRow
          kind={<Badge status={gateway.online ? 'success' : 'default'} />}
          name={
            <Text strong ellipsis>
              {gateway.name} <Text type="secondary">({devices.length})</Text>
            </Text>
          }
          action={
            placeable ? (
              <Button type="link" size="small" onClick={() => onPlaceGateway(gateway)}>
                {t('deviceControl.outmap.place')}
              </Button>
            ) : undefined
          }
        />
        {gateway.x === null && (
          <Text type="secondary" style={{ fontSize: 12, display: 'block', paddingLeft: 14 }}>
            {t('deviceControl.outmap.gatewayNotPlaced')}
          </Text>
        )}
        {!outmap.isLoading && devices.length === 0 && (
          // One quiet line instead of an empty list per gateway.
          <Text type="secondary" style={{ fontSize: 12, display: 'block', paddingLeft: 14 }}>
            {t('deviceControl.outmap.none')}
          </Text>
        )}
      </div>
      {(outmap.isLoading || devices.length > 0) && (
        <List
          size="small"
          loading={outmap.isLoading}
          dataSource={devices}
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
            >
              <OutmapRow
                kind={<Tag style={{ marginInlineEnd: 0, flex: 'none' }}>{t(`deviceControl.kinds.${markerKind(device.type)}`)}</Tag>}
                name={<Text ellipsis={{ tooltip: device.name }}>{device.name}</Text>}
                action={
                  canEdit ? (
                    <Button type="link" size="small" style={{ flex: 'none' }} onClick={() => onPlace(device)}>
                      {t('deviceControl.outmap.place')}
                    </Button>
                  ) : undefined
                }
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
