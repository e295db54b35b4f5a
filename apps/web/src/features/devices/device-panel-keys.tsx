import { useState } from 'react';
import { Alert, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useBindPanelKey, useManualScenes, usePanelKeys } from '../automation/api.ts';
import { keyScene, PANEL_KEYS, panelKeyOptions } from '../automation/panel-keys.ts';

const NONE = '';

/**
 * The keys of a scene panel: each runs one of the project's manual scenes or sequences that has a part on the
 * panel's gateway, or nothing. A choice is saved at once (input_scene) and reaches the panel with its gateway's
 * configuration; a refusal shows next to its key in the user's language.
 */
export function PanelKeysSection({
  panelId,
  gatewayId,
  projectId,
  canEdit,
}: {
  panelId: string;
  gatewayId: string | undefined;
  projectId: string | undefined;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const keys = usePanelKeys(panelId);
  const manuals = useManualScenes(projectId);
  const bind = useBindPanelKey();
  const [saving, setSaving] = useState<number>();
  const [failure, setFailure] = useState<{ key: number; text: string }>();
  const options = panelKeyOptions(manuals.data ?? [], gatewayId, keys.data);
  const loading = keys.isLoading || manuals.isLoading;

  const choose = async (key: number, sceneId: string) => {
    setSaving(key);
    setFailure(undefined);
    try {
      await bind.mutateAsync({ panelId, key, sceneId: sceneId === NONE ? null : sceneId });
    } catch (error) {
      setFailure({ key, text: error instanceof ApiError ? error.message : String(error) });
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <div data-testid="panel-keys">
      <Typography.Text strong>{t('automation.keys.title')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '2px 0 8px' }}>
        {options.length === 0 && !loading ? t('automation.keys.noScenes') : t('automation.keys.hint')}
      </Typography.Paragraph>
      <Space direction="vertical" size={6} style={{ width: '100%' }}>
        {PANEL_KEYS.map((key) => (
          <div key={key}>
            <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
              <Typography.Text style={{ width: 64, flex: 'none' }}>{t('automation.keys.key', { n: key })}</Typography.Text>
              <Select
                style={{ flex: 1, minWidth: 0 }}
                size="small"
                loading={loading || saving === key}
                disabled={!canEdit || saving !== undefined || loading}
                value={keyScene(keys.data, key) ?? NONE}
                onChange={(sceneId: string) => void choose(key, sceneId)}
                options={[
                  { value: NONE, label: t('automation.keys.none') },
                  ...options.map((o) => ({
                    value: o.sceneId,
                    label: o.stale
                      ? t('automation.keys.stale', { name: o.name })
                      : o.kind === 'sequence'
                        ? t('automation.keys.sequence', { name: o.name })
                        : o.name,
                  })),
                ]}
                aria-label={t('automation.keys.key', { n: key })}
                data-testid={`panel-key-${key}`}
              />
            </div>
            {failure?.key === key && (
              <Alert
                style={{ marginTop: 4 }}
                type="error"
                showIcon
                message={failure.text}
                closable
                onClose={() => setFailure(undefined)}
                data-testid={`panel-key-${key}-failure`}
              />
            )}
          </div>
        ))}
      </Space>
    </div>
  );
}
