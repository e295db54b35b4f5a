import { useEffect, useState } from 'react';
import { App, Button, Card, Descriptions, Empty, Slider, Space, Tag, Typography } from 'antd';
import { DangerConfirm } from '../../components/danger-confirm.tsx';
import { CloudUploadOutlined, DeleteOutlined, EditOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS, type MapInfo } from '@lumigrid/contract/browser';
import { useDeleteMap, useRemoveMapImage, useUpdateMap, useUploadMap } from '../../features/projects/api.ts';
import { createCurrentMapStore } from '../../features/projects/current-map.ts';
import { FloorPlanPicker } from './floor-plan-picker.tsx';
import { useSiteTime } from '../../features/projects/site-time.ts';

export interface MapPanelProps {
  map: MapInfo;
  buildingName: string;
  editable: boolean;
  onEdit(): void;
  onDeleted(): void;
}

/** One map of the project detail: its floor plan with preview, upload, opacity, and the map's actions. */
export function MapPanel({ map, buildingName, editable, onEdit, onDeleted }: MapPanelProps) {
  const { t } = useTranslation();
  const { time } = useSiteTime({ projectId: map.projectId });
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [opacity, setOpacity] = useState(map.opacity);
  const upload = useUploadMap();
  const update = useUpdateMap();
  const removeImage = useRemoveMapImage();
  const remove = useDeleteMap();

  // Another map, or the same one refreshed from the server: start from what is stored.
  useEffect(() => setOpacity(map.opacity), [map.id, map.opacity]);
  useEffect(() => setFile(undefined), [map.id]);

  const sendFile = async () => {
    if (!file) return;
    await upload.mutateAsync({ file, mapId: map.id });
    setFile(undefined);
    void message.success(t('map.uploaded'));
  };

  const saveOpacity = async (value: number) => {
    if (value === map.opacity) return;
    await update.mutateAsync({ id: map.id, opacity: value });
    void message.success(t('map.opacitySaved'));
  };

  const deleteMap = async () => {
    await remove.mutateAsync({ buildId: map.buildId, mapId: map.id });
    void message.success(t('map.deleted'));
    onDeleted();
  };

  return (
    <Card
      data-testid="map-panel"
      title={
        <Space>
          <span>{map.name}</span>
          {map.isDefault && (
            <Tag color="blue" bordered={false}>
              {t('installation.default')}
            </Tag>
          )}
        </Space>
      }
      extra={
        <Space wrap>
          <Link
            to="/device/control"
            onClick={() => createCurrentMapStore().remember([map.projectId, map.buildId, map.id])}
            data-testid="open-device-map"
          >
            <EnvironmentOutlined /> {t('map.openOnDeviceMap')}
          </Link>
          {editable && (
            <Button icon={<EditOutlined />} onClick={onEdit}>
              {t('installation.edit')}
            </Button>
          )}
          {editable && (
            <DangerConfirm
              title={t('map.deleteConfirm', { name: map.name })}
              description={t('map.deleteHint')}
              okText={t('installation.delete')}
              // A refusal (the default map, devices on it) was shown in the server's words.
              onConfirm={() => deleteMap().catch(() => undefined)}
            >
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
                {t('installation.delete')}
              </Button>
            </DangerConfirm>
          )}
        </Space>
      }
    >
      <Descriptions column={{ xs: 1, md: 3 }} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('map.building')}>{buildingName}</Descriptions.Item>
        <Descriptions.Item label={t('map.devices')}>{map.deviceCount}</Descriptions.Item>
        <Descriptions.Item label={t('map.size')}>
          {map.imageWidth && map.imageHeight ? `${map.imageWidth} × ${map.imageHeight} px` : t('common.empty')}
        </Descriptions.Item>
        <Descriptions.Item label={t('installation.createdAt')}>{time(map.createdAt)}</Descriptions.Item>
      </Descriptions>

      <Typography.Title level={5}>{t('map.image')}</Typography.Title>
      {map.image ? (
        <div className="lg-floor-plan-frame">
          <img src={map.image} alt={map.name} style={{ opacity: opacity / 100 }} data-testid="map-image" />
        </div>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('map.noImage')} />
      )}

      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginTop: 16 }}>
        <Typography.Text style={{ whiteSpace: 'nowrap' }}>{t('map.opacity')}</Typography.Text>
        <div style={{ flex: 1, maxWidth: 360 }} data-testid="map-opacity">
          <Slider
            min={PROJECT_LIMITS.opacity.min}
            max={PROJECT_LIMITS.opacity.max}
            value={opacity}
            disabled={!editable || update.isPending}
            onChange={setOpacity}
            onChangeComplete={(value) => void saveOpacity(value).catch(() => setOpacity(map.opacity))}
            tooltip={{ formatter: (value) => `${value ?? 0}%` }}
            ariaLabelForHandle={t('map.opacity')}
          />
        </div>
        <Typography.Text type="secondary" style={{ width: 48 }}>
          {opacity}%
        </Typography.Text>
      </div>

      {editable && (
        <div style={{ marginTop: 16 }}>
          <Typography.Title level={5}>{map.image ? t('map.replace') : t('map.upload')}</Typography.Title>
          <FloorPlanPicker file={file} onChange={setFile} disabled={upload.isPending} />
          <Space style={{ marginTop: 12 }}>
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              disabled={!file}
              loading={upload.isPending}
              onClick={() => void sendFile().catch(() => undefined)}
              data-testid="upload-floor-plan"
            >
              {upload.rendering ? t('map.rendering') : upload.isPending ? t('map.uploading') : t('map.upload')}
            </Button>
            {map.image && (
              <DangerConfirm
                title={t('map.removeImageConfirm')}
                okText={t('installation.delete')}
                onConfirm={() => removeImage.mutateAsync(map.id).catch(() => undefined)}
              >
                <Button loading={removeImage.isPending}>{t('map.removeImage')}</Button>
              </DangerConfirm>
            )}
          </Space>
        </div>
      )}
    </Card>
  );
}
