import { useState } from 'react';
import { App, Button, Cascader, Input, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_LIMITS, deviceNameProblem, joinChannelNames, type DeviceMarker, type ProjectTree } from '@lumigrid/contract/browser';
import { mapPathOptions, type MapPath } from '../projects/tree.ts';
import { useMoveDevicesIn, useMoveDevicesOut, useRenameDevice } from './api.ts';
import { channelNames } from './device-controls.ts';

/** Renames a device: one name, or one per switch channel joined by the delimiter, each 1-25 characters. */
export function RenameForm({ marker, channels }: { marker: DeviceMarker; channels: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rename = useRenameDevice();
  const count = Math.max(1, channels);
  const [names, setNames] = useState(() => (channels > 0 ? channelNames(marker.name, channels) : [marker.name]));
  const joined = joinChannelNames(names.map((n) => n.trim()));
  const problem = deviceNameProblem(marker.type, joined);
  const changed = joined !== marker.name;

  const save = async () => {
    if (problem || !changed) return;
    await rename.mutateAsync({ id: marker.id, name: joined });
    void message.success(t('deviceControl.renamed'));
  };

  return (
    <div>
      <Typography.Text strong>{t('deviceControl.rename')}</Typography.Text>
      <Space direction="vertical" style={{ width: '100%', marginTop: 8 }}>
        {Array.from({ length: count }, (_, i) => (
          <Input
            key={i}
            value={names[i]}
            maxLength={DEVICE_LIMITS.name.max}
            showCount
            addonBefore={count > 1 ? t('deviceControl.channel', { n: i + 1 }) : undefined}
            status={problem && changed ? 'error' : undefined}
            onChange={(e) => setNames((old) => old.map((n, j) => (j === i ? e.target.value : n)))}
            onPressEnter={() => void save().catch(() => undefined)}
            aria-label={count > 1 ? t('deviceControl.channel', { n: i + 1 }) : t('deviceControl.name')}
          />
        ))}
        {problem && changed && (
          <Typography.Text type="danger">{t('deviceControl.nameRule', { max: DEVICE_LIMITS.name.max })}</Typography.Text>
        )}
        <Button
          size="small"
          disabled={!changed || Boolean(problem)}
          loading={rename.isPending}
          onClick={() => void save().catch(() => undefined)}
        >
          {t('deviceControl.saveName')}
        </Button>
      </Space>
    </div>
  );
}

/** Moves the device to another map (same position) or takes it off every map (outmap). */
export function MoveForm({
  mapId,
  marker,
  tree,
  onGone,
}: {
  mapId: string;
  marker: DeviceMarker;
  tree: ProjectTree | undefined;
  onGone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const moveIn = useMoveDevicesIn();
  const moveOut = useMoveDevicesOut();
  const [target, setTarget] = useState<MapPath>();
  const options = mapPathOptions(tree);

  const moveTo = async () => {
    if (!target || target[2] === mapId) return;
    await moveIn.mutateAsync({ mapId: target[2], devices: [{ id: marker.id, x: marker.x ?? 0.5, y: marker.y ?? 0.5 }] });
    void message.success(t('deviceControl.moved', { name: marker.name }));
    onGone();
  };
  const takeOut = async () => {
    await moveOut.mutateAsync([marker.id]);
    void message.success(t('deviceControl.movedOut', { name: marker.name }));
    onGone();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text strong>{t('deviceControl.moveTo')}</Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        <Cascader
          style={{ flex: 1 }}
          options={options}
          value={target}
          onChange={(value) => setTarget(Array.isArray(value) && value.length === 3 ? (value.map(String) as MapPath) : undefined)}
          placeholder={t('deviceMap.selectPlaceholder')}
          data-testid="move-target"
        />
        <Button disabled={!target || target[2] === mapId} loading={moveIn.isPending} onClick={() => void moveTo().catch(() => undefined)}>
          {t('deviceControl.move')}
        </Button>
      </Space.Compact>
      <Popconfirm
        title={t('deviceControl.moveOutConfirm', { name: marker.name })}
        okText={t('deviceControl.moveOut')}
        cancelText={t('deviceControl.cancel')}
        onConfirm={() => takeOut().catch(() => undefined)}
      >
        <Button danger loading={moveOut.isPending} data-testid="move-out">
          {t('deviceControl.moveOut')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
