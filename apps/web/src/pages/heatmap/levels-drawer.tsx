import { useEffect } from 'react';
import { App, Button, ColorPicker, Drawer, Form, InputNumber, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  HEATMAP_LIMITS,
  errorMessage,
  heatLevelsProblem,
  isLang,
  sortedHeatLevels,
  type HeatLevel,
  type HeatmapSettings,
} from '@lumigrid/contract';
import { useResetHeatmapSettings, useSaveHeatmapSettings } from '../../features/heatmap/api.ts';
import { IconButton } from '../../components/icon-button.tsx';
import { sendOnEnter } from '../../components/form-modal.tsx';

interface LevelsForm {
  levels: Array<{ percent: number | null; color: string }>;
}

/** A colour the picker hands back (a Color object) or a stored hex, as #rrggbb. */
const hexOf = (value: unknown): string =>
  typeof value === 'string' ? value : (value as { toHexString(): string }).toHexString().slice(0, 7);

/**
 * The project's colour levels (spec section 3: sensing counts as percentages, colours): editors change them,
 * ascending and different from each other with the highest at most 100 % (spec section 5, the same rule the
 * server applies), or reset them to the defaults after confirming.
 */
export function LevelsDrawer({
  open,
  settings,
  projectName,
  editable,
  onClose,
}: {
  open: boolean;
  settings: HeatmapSettings | undefined;
  projectName: string;
  editable: boolean;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LevelsForm>();
  const save = useSaveHeatmapSettings();
  const reset = useResetHeatmapSettings();
  const lang = isLang(i18n.language) ? i18n.language : 'en';

  useEffect(() => {
    if (open && settings) form.setFieldsValue({ levels: settings.levels.map((l) => ({ ...l })) });
  }, [open, settings, form]);

  const submit = async (values: LevelsForm) => {
    if (!settings) return;
    const levels: HeatLevel[] = values.levels.map((l) => ({ percent: l.percent ?? 0, color: hexOf(l.color) }));
    await save.mutateAsync({ projectId: settings.projectId, levels: sortedHeatLevels(levels) });
    void message.success(t('heatmap.levels.saved'));
    onClose();
  };

  const resetLevels = async () => {
    if (!settings) return;
    const defaults = await reset.mutateAsync({ projectId: settings.projectId });
    form.setFieldsValue({ levels: defaults.levels.map((l) => ({ ...l })) });
    void message.success(t('heatmap.levels.resetDone'));
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={440}
      title={t('heatmap.levels.title')}
      destroyOnHidden
      data-testid="heatmap-levels"
      footer={
        editable && (
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Popconfirm
              title={t('heatmap.levels.resetConfirm')}
              description={t('heatmap.levels.resetHint')}
              okText={t('heatmap.levels.reset')}
              cancelText={t('installation.cancel')}
              onConfirm={() => resetLevels().catch(() => undefined)}
            >
              <Button loading={reset.isPending} disabled={settings?.isDefault} data-testid="heatmap-levels-reset">
                {t('heatmap.levels.reset')}
              </Button>
            </Popconfirm>
            <Space>
              <Button onClick={onClose}>{t('installation.cancel')}</Button>
              <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="heatmap-levels-save">
                {t('heatmap.levels.save')}
              </Button>
            </Space>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('heatmap.levels.hint', { project: projectName })}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        onFinish={(values) => void submit(values).catch(() => undefined)}
        onKeyDown={editable ? sendOnEnter(() => form.submit()) : undefined}
      >
        <Form.List
          name="levels"
          rules={[
            {
              validator: async (_rule, value: LevelsForm['levels'] | undefined) => {
                const levels = (value ?? []).map((l) => ({ percent: l?.percent ?? 0, color: '#000000' }));
                const problem = heatLevelsProblem(levels);
                if (problem) throw new Error(errorMessage(problem, lang));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              <Space style={{ marginBottom: 8 }}>
                <Typography.Text strong style={{ width: 150, display: 'inline-block' }}>
                  {t('heatmap.levels.percent')}
                </Typography.Text>
                <Typography.Text strong>{t('heatmap.levels.color')}</Typography.Text>
              </Space>
              {fields.map((field, index) => (
                <Space key={field.key} align="baseline" data-testid={`heatmap-level-${index}`}>
                  <Form.Item
                    name={[field.name, 'percent']}
                    rules={[{ required: true, message: t('heatmap.levels.percentRequired') }]}
                    style={{ width: 150, marginBottom: 12 }}
                  >
                    <InputNumber
                      min={HEATMAP_LIMITS.percent.min}
                      max={HEATMAP_LIMITS.percent.max}
                      precision={0}
                      addonBefore="≤"
                      addonAfter="%"
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'color']} style={{ marginBottom: 12 }} getValueFromEvent={(color: unknown) => hexOf(color)}>
                    <ColorPicker disabledAlpha showText format="hex" />
                  </Form.Item>
                  {fields.length > HEATMAP_LIMITS.levels.min && (
                    <IconButton
                      label={t('heatmap.levels.remove')}
                      type="text"
                      icon={<DeleteOutlined />}
                      onClick={() => remove(field.name)}
                    />
                  )}
                </Space>
              ))}
              <Form.ErrorList errors={errors} />
              {fields.length < HEATMAP_LIMITS.levels.max && (
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  style={{ marginTop: 8 }}
                  onClick={() => add({ percent: null, color: '#8c8c8c' })}
                  data-testid="heatmap-level-add"
                >
                  {t('heatmap.levels.add')}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}
