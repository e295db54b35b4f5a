import { lazy, useState } from 'react';
import { App, Button, Empty, List, Popconfirm, Tag } from 'antd';
import { Card } from '../../components/card.tsx';
import { Paragraph, Text } from '../../components/text.tsx';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { VirtualDevice } from '@lumigrid/contract/browser';
import type { MapPath } from '../projects/tree.ts';
import { useRelatedVirtuals, useUnrelate } from './api.ts';
import { typeLabel } from '../device-config/param-fields.ts';
import { OnceOpened } from '../../components/once-opened.tsx';

// The form to build one (its fields and checks) loads when first opened, not with the plan beside it.
const BuildVirtualModal = lazy(() => import('./build-virtual-modal.tsx').then((m) => ({ default: m.BuildVirtualModal })));

/**
 * Beside the plan: the map's virtual devices (click to open one, "Place" for one not on the plan yet), the
 * related ones with the real device that took their place and an unrelate button, and "Add virtual devices".
 */
export function VirtualDevicesCard({
  path,
  devices,
  canEdit,
  selectedId,
  onSelect,
  onPlace,
}: {
  path: MapPath;
  /** The map's virtual devices that are not related. */
  devices: readonly VirtualDevice[];
  canEdit: boolean;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  onPlace: (device: VirtualDevice) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [building, setBuilding] = useState(false);
  const related = useRelatedVirtuals(path[2]);
  const unrelate = useUnrelate();

  return (
    <Card
      size="small"
      style={{ marginTop: 16 }}
      title={
        <span>
          {t('virtualDevices.title')} <Text type="secondary">({devices.length})</Text>
        </span>
      }
      extra={
        canEdit && (
          <Button size="small" type="primary" ghost icon={<PlusOutlined />} onClick={() => setBuilding(true)} data-testid="virtual-add">
            {t('virtualDevices.addShort')}
          </Button>
        )
      }
      styles={{ body: { padding: 0, maxHeight: 320, overflow: 'auto' } }}
      data-testid="virtual-list"
    >
      <Paragraph type="secondary" style={{ margin: '8px 12px 0', fontSize: 12 }}>
        {t('virtualDevices.hint')}
      </Paragraph>
      {devices.length === 0 && (related.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('virtualDevices.none')} />
      ) : (
        <List
          size="small"
          dataSource={[...devices]}
          renderItem={(device) => (
            <List.Item
              style={{ cursor: 'pointer', padding: '6px 12px', background: device.id === selectedId ? '#f9f0ff' : undefined }}
              onClick={() => onSelect(device.id)}
              data-testid={`virtual-item-${device.name}`}
              actions={
                canEdit && device.x === null
                  ? [
                      <Button
                        key="place"
                        size="small"
                        type="link"
                        onClick={(e) => {
                          e.stopPropagation();
                          onPlace(device);
                        }}
                      >
                        {t('virtualDevices.place')}
                      </Button>,
                    ]
                  : undefined
              }
            >
              <List.Item.Meta
                title={
                  <span>
                    <Tag color="purple" bordered={false} style={{ marginRight: 6 }}>
                      {t('virtualDevices.tag')}
                    </Tag>
                    {device.name}
                  </span>
                }
                description={
                  <Text type="secondary" style={{ fontSize: 12 }}>
                    {typeLabel(t, device.type)} · {device.gatewayName}
                    {device.x === null ? ` · ${t('virtualDevices.notPlaced')}` : ''}
                  </Text>
                }
              />
            </List.Item>
          )}
        />
      )}
      {(related.data ?? []).length > 0 && (
        <>
          <Text strong style={{ display: 'block', margin: '8px 12px 0' }}>
            {t('virtualDevices.related')}
          </Text>
          <List
            size="small"
            dataSource={related.data ?? []}
            renderItem={(device) => (
              <List.Item
                style={{ padding: '6px 12px' }}
                data-testid={`virtual-related-${device.name}`}
                actions={
                  canEdit
                    ? [
                        <Popconfirm
                          key="unrelate"
                          title={t('virtualDevices.unrelateConfirm', { name: device.related?.deviceName ?? '' })}
                          onConfirm={async () => {
                            await unrelate.mutateAsync(device.id);
                            void message.success(t('virtualDevices.unrelatedDone'));
                          }}
                        >
                          <Button size="small" type="link" danger data-testid={`virtual-unrelate-${device.name}`}>
                            {t('virtualDevices.unrelate')}
                          </Button>
                        </Popconfirm>,
                      ]
                    : undefined
                }
              >
                <List.Item.Meta
                  title={device.name}
                  description={
                    <Text type="secondary" style={{ fontSize: 12 }}>
                      {t('virtualDevices.relatedTo', { name: device.related?.deviceName ?? '' })}
                    </Text>
                  }
                />
              </List.Item>
            )}
          />
        </>
      )}
      <OnceOpened open={building}>
        <BuildVirtualModal
          open={building}
          path={path}
          onClose={(created) => {
            setBuilding(false);
            if (created?.length) void message.success(t('virtualDevices.created', { count: created.length }));
          }}
        />
      </OnceOpened>
    </Card>
  );
}
