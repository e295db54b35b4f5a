import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SceneView } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { failureText } from '../../api/failure-text.ts';
import { useRunScene } from '../../features/scenes/api.ts';
import { RunResultList, runSummary } from './scene-results.tsx';

/**
 * Runs a scene now and shows, gateway by gateway, how its part went. A refusal of the whole run (too many
 * runs waiting, not a manual scene) shows the server's localised message.
 */
export function useRunSceneAction() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const execute = useRunScene();

  const run = async (scene: Pick<SceneView, 'id' | 'name'>) => {
    try {
      const result = await execute.mutateAsync(scene.id);
      const summary = runSummary(result);
      const show = summary === 'ok' ? modal.success : summary === 'partial' ? modal.warning : modal.error;
      show({
        title: t(`scenes.run.title.${summary}`, { name: scene.name }),
        content: <RunResultList t={t} run={result} />,
        okText: t('scenes.close'),
        width: 520,
      });
    } catch (error) {
      const text = error instanceof ApiError ? failureText(error.action) : undefined;
      if (text) void message.error('text' in text ? text.text : t(text.key, text.vars ?? {}));
    }
  };
  return { run, running: execute.isPending ? execute.variables : undefined };
}
