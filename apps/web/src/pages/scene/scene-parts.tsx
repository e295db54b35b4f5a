import { Badge, Space, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ScenePart, SceneRun, SceneView } from '@lumigrid/contract/browser';
import { ZonedTime } from '../../components/zoned-time.tsx';
import { partZones, runZones } from '../../features/scenes/zones.ts';
import { runPartText } from './scene-results.tsx';

/** Gateways a list row names before the rest go behind "+N". */
const PARTS_SHOWN = 3;

/** One gateway of a scene: a dot saying whether it runs the scene as it is now (green), waits (blue) or is offline. */
function PartLine({ t, part }: { t: TFunction; part: ScenePart }) {
  const status = !part.online ? 'default' : part.onGateway ? 'success' : 'processing';
  const title = `${part.online ? t('scenes.gatewayOnline') : t('scenes.gatewayOffline')} · ${
    part.onGateway ? t('scenes.onGateway') : t('scenes.waitingSync')
  }`;
  return (
    <Tooltip title={title}>
      <span data-testid={`scene-part-${part.gatewayName}`} data-on-gateway={part.onGateway} style={{ whiteSpace: 'nowrap' }}>
        <Badge status={status} text={part.gatewayName} />
      </span>
    </Tooltip>
  );
}

/** Each gateway of a scene, one line each; a scene over many gateways names the first few and counts the rest. */
export function ScenePartsCell({ t, parts }: { t: TFunction; parts: readonly ScenePart[] }) {
  if (parts.length === 0) return <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>;
  const shown = parts.length > PARTS_SHOWN ? parts.slice(0, PARTS_SHOWN - 1) : parts;
  const rest = parts.slice(shown.length);
  return (
    <Space direction="vertical" size={0}>
      {shown.map((part) => (
        <PartLine key={part.id} t={t} part={part} />
      ))}
      {rest.length > 0 && (
        <Tooltip
          title={
            <Space direction="vertical" size={0}>
              {rest.map((part) => (
                <span key={part.id}>
                  {part.gatewayName} · {part.onGateway ? t('scenes.onGateway') : t('scenes.waitingSync')}
                </span>
              ))}
            </Space>
          }
        >
          <Typography.Text type="secondary" data-testid="scene-parts-more">
            {t('scenes.moreGateways', { count: rest.length })}
          </Typography.Text>
        </Tooltip>
      )}
    </Space>
  );
}

/** The next run, at the clock of each gateway of the scene. */
export function NextRunCell({ t, scene }: { t: TFunction; scene: Pick<SceneView, 'nextRun' | 'parts'> }) {
  return <ZonedTime t={t} at={scene.nextRun} zones={partZones(scene.parts)} testId="scene-next-run" />;
}

/** The latest run: when (at the clock of the gateways it went to), how it was started, and each gateway's result. */
export function LastRunCell({ t, run, parts }: { t: TFunction; run: SceneRun | null; parts: readonly ScenePart[] }) {
  if (!run) return <Typography.Text type="secondary">{t('scenes.neverRun')}</Typography.Text>;
  return (
    <Space direction="vertical" size={2}>
      <ZonedTime t={t} at={run.at} zones={runZones(run, parts)} />
      <Typography.Text type="secondary">
        {t(`scenes.trigger.${run.trigger}`)} · {t(`scenes.then.${run.then}`)}
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
