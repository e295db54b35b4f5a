import { Badge, Space, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import type { ScenePart, SceneRun, SceneView } from '@lumigrid/contract';
import { runPartText } from './scene-results.tsx';

/** Each gateway of a scene: online or not, and whether it holds the scene as it is now. */
export function ScenePartsCell({ t, parts }: { t: TFunction; parts: readonly ScenePart[] }) {
  if (parts.length === 0) return <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>;
  return (
    <Space direction="vertical" size={2}>
      {parts.map((part) => (
        <Space key={part.id} size={4} wrap data-testid={`scene-part-${part.gatewayName}`}>
          <Badge status={part.online ? 'success' : 'default'} text={part.gatewayName} />
          <Tooltip title={part.online ? t('scenes.gatewayOnline') : t('scenes.gatewayOffline')}>
            {part.onGateway ? (
              <Tag color="green" bordered={false}>
                {t('scenes.onGateway')}
              </Tag>
            ) : (
              <Tag color="blue" bordered={false}>
                {t('scenes.waitingSync')}
              </Tag>
            )}
          </Tooltip>
        </Space>
      ))}
    </Space>
  );
}

/** The latest run: when, how it was started, and each gateway's result. */
export function LastRunCell({ t, run }: { t: TFunction; run: SceneRun | null }) {
  if (!run) return <Typography.Text type="secondary">{t('scenes.neverRun')}</Typography.Text>;
  return (
    <Space direction="vertical" size={2}>
      <Typography.Text>
        {dayjs(run.at).format('YYYY-MM-DD HH:mm')}{' '}
        <Typography.Text type="secondary">
          {t(`scenes.trigger.${run.trigger}`)} · {t(`scenes.then.${run.then}`)}
        </Typography.Text>
      </Typography.Text>
      <Space size={4} wrap>
        {run.parts.map((part) => {
          const result = runPartText(t, part);
          return (
            <Tooltip key={part.gatewayId} title={result.text}>
              <Tag color={result.colour} bordered={false} style={{ marginInlineEnd: 0 }}>
                {part.gatewayName}
              </Tag>
            </Tooltip>
          );
        })}
      </Space>
    </Space>
  );
}

export function SceneStateTag({ t, state }: { t: TFunction; state: SceneView['state'] }) {
  return state === 'synced' ? (
    <Tag color="green" data-testid="scene-state">
      {t('scenes.state.synced')}
    </Tag>
  ) : (
    <Tag color="blue" data-testid="scene-state">
      {t('scenes.state.pending')}
    </Tag>
  );
}

/** A time in the browser's local time, or the empty mark. */
export function localTime(t: TFunction, at: number | string | null): string {
  return at === null ? t('common.empty') : dayjs(at).format('YYYY-MM-DD HH:mm');
}
