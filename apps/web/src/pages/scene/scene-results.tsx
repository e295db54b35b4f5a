import { List, Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { errorMessage, isErrorCode, type SceneRun, type SceneRunPart, type SceneSaveResult } from '@lumigrid/contract/browser';
import { currentLang } from '../../i18n/index.ts';

/** The text of a business code in the user's language (the catalogue of spec section 8). */
export function codeText(t: TFunction, code: number): string {
  return isErrorCode(code) ? errorMessage(code, currentLang()) : t('error.business', { code });
}

/** How one gateway took its part of a saved scene: 0 took it, 100101 takes it at its next sync, else the code's text. */
export function syncText(t: TFunction, code: number): { text: string; colour: string } {
  if (code === 0) return { text: t('scenes.sync.ok'), colour: 'green' };
  if (code === 100101) return { text: t('scenes.sync.offline'), colour: 'blue' };
  return { text: codeText(t, code), colour: 'red' };
}

/** How one gateway ran its part: reached all, some, or why not (offline, not on the gateway yet, ...). */
export function runPartText(t: TFunction, part: SceneRunPart): { text: string; colour: string } {
  if (part.code === 0) {
    const reached = part.targets - part.failed;
    return part.failed === 0
      ? { text: t('scenes.run.reachedAll', { count: part.targets }), colour: 'green' }
      : { text: t('scenes.run.reachedSome', { reached, count: part.targets }), colour: 'orange' };
  }
  if (part.code === 100101) return { text: t('scenes.run.offline'), colour: 'red' };
  if (part.code === 310003) return { text: t('scenes.run.notSynced'), colour: 'orange' };
  return { text: codeText(t, part.code), colour: 'red' };
}

/** One line per gateway: its name and what happened there. */
function GatewayLines({ rows, testId }: { rows: Array<{ key: string; name: string; text: string; colour: string }>; testId: string }) {
  return (
    <List
      size="small"
      dataSource={rows}
      data-testid={testId}
      renderItem={(row) => (
        <List.Item key={row.key} data-testid={`${testId}-${row.name}`}>
          <Space wrap>
            <Typography.Text strong>{row.name}</Typography.Text>
            <Tag color={row.colour} style={{ whiteSpace: 'normal' }}>
              {row.text}
            </Tag>
          </Space>
        </List.Item>
      )}
    />
  );
}

export function SyncResultList({ t, sync }: { t: TFunction; sync: SceneSaveResult['sync'] }) {
  if (sync.length === 0) return <Typography.Text type="secondary">{t('scenes.sync.none')}</Typography.Text>;
  return <GatewayLines testId="scene-sync" rows={sync.map((s) => ({ key: s.gatewayId, name: s.gatewayName, ...syncText(t, s.code) }))} />;
}

export function RunResultList({ t, run }: { t: TFunction; run: Pick<SceneRun, 'parts'> }) {
  return (
    <GatewayLines
      testId="scene-run-result"
      rows={run.parts.map((p) => ({ key: p.gatewayId, name: p.gatewayName, ...runPartText(t, p) }))}
    />
  );
}

/** The run as one tag: green when every gateway reached every member, orange when some did, red when none. */
export function runSummary(run: Pick<SceneRun, 'parts'>): 'ok' | 'partial' | 'failed' {
  const ran = run.parts.filter((p) => p.code === 0);
  if (ran.length === run.parts.length && ran.every((p) => p.failed === 0)) return 'ok';
  return ran.length > 0 ? 'partial' : 'failed';
}
