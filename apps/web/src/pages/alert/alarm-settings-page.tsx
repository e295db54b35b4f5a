import { useEffect } from 'react';
import { App, Button, Card, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import {
  ALARM_LIMITS,
  ALARM_SEVERITIES,
  LANGS,
  MAIL_PATTERN,
  userMay,
  type AlarmCodeSetting,
  type AlarmRule,
  type AlarmSettings,
} from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { ProjectSelect, useCurrentProject } from '../../features/projects/project-select.tsx';
import { useAlarmSettings, useSaveAlarmSettings } from '../../features/alarms/api.ts';
import { faultKey } from '../../features/device-config/param-fields.ts';

type SettingsForm = Pick<AlarmSettings, 'codes' | 'rules'>;

const MAIL = new RegExp(MAIL_PATTERN);

/**
 * /alert/alarmSettings: per fault code of a project, its severity, on- and off-delay and when it chatters;
 * and the notification rules that mail people about unacknowledged alarms (docs/alarms.md). Editors change
 * them; everyone else reads them.
 */
export default function AlarmSettingsPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const { projectId, setProjectId, tree } = useCurrentProject();
  const settings = useAlarmSettings(projectId);
  const save = useSaveAlarmSettings();
  const [form] = Form.useForm<SettingsForm>();

  useEffect(() => {
    if (settings.data) form.setFieldsValue({ codes: settings.data.codes, rules: settings.data.rules });
  }, [settings.data, form]);

  const submit = async () => {
    if (!projectId) return;
    const values = await form.validateFields();
    await save.mutateAsync({ projectId, codes: values.codes, rules: values.rules ?? [] });
    void message.success(t('alarms.settings.saved'));
  };

  const severityOptions = ALARM_SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) }));
  /** A field's name for a screen reader: the fault of its row, then the column. */
  const labelOf = (name: number, column: string) => `${t(faultKey(form.getFieldValue(['codes', name, 'code']) as number))}: ${column}`;
  /** A whole number of the code in row `name`, named for a screen reader by its column and the row's code. */
  const wholeNumber = (
    name: number,
    field: keyof AlarmCodeSetting,
    range: { min: number; max: number },
    label: string,
    width: number,
    disabled?: boolean,
  ) => (
    <Form.Item name={[name, field]} noStyle rules={[{ required: true }]}>
      <InputNumber min={range.min} max={range.max} precision={0} disabled={disabled} aria-label={labelOf(name, label)} style={{ width }} />
    </Form.Item>
  );
  const seconds = (name: number, field: keyof AlarmCodeSetting, max: number, label: string) =>
    wholeNumber(name, field, { min: 0, max }, label, 96, !editable);

  return (
    <PageContainer
      title={t('alarms.settings.title')}
      content={t('alarms.settings.hint')}
      extra={
        <Space wrap>
          <Typography.Text>{t('alarms.project')}</Typography.Text>
          <ProjectSelect tree={tree.data} value={projectId} onChange={setProjectId} />
        </Space>
      }
    >
      <Form form={form} disabled={!editable} onFinish={() => void submit().catch(() => undefined)}>
        <Card title={t('alarms.settings.codesTitle')} loading={settings.isLoading} style={{ marginBottom: 16 }}>
          <Form.List name="codes">
            {(fields) => (
              <Table
                rowKey="key"
                size="small"
                pagination={false}
                scroll={{ x: 760 }}
                dataSource={fields}
                columns={[
                  {
                    title: t('alarms.field.fault'),
                    key: 'code',
                    render: (_, field) => {
                      const code = form.getFieldValue(['codes', field.name, 'code']) as number;
                      return t(faultKey(code));
                    },
                  },
                  {
                    title: t('alarms.field.severity'),
                    key: 'severity',
                    render: (_, field) => {
                      return (
                        <Form.Item name={[field.name, 'severity']} noStyle>
                          <Select
                            options={severityOptions}
                            style={{ width: 120 }}
                            aria-label={labelOf(field.name, t('alarms.field.severity'))}
                            data-testid={`alarm-severity-${field.name}`}
                          />
                        </Form.Item>
                      );
                    },
                  },
                  {
                    title: t('alarms.settings.onDelay'),
                    key: 'on',
                    render: (_, field) => seconds(field.name, 'onDelaySec', ALARM_LIMITS.delaySec.max, t('alarms.settings.onDelay')),
                  },
                  {
                    title: t('alarms.settings.offDelay'),
                    key: 'off',
                    render: (_, field) => seconds(field.name, 'offDelaySec', ALARM_LIMITS.delaySec.max, t('alarms.settings.offDelay')),
                  },
                  {
                    title: t('alarms.settings.chatterCount'),
                    key: 'count',
                    render: (_, field) =>
                      wholeNumber(field.name, 'chatterCount', ALARM_LIMITS.chatterCount, t('alarms.settings.chatterCount'), 80),
                  },
                  {
                    title: t('alarms.settings.chatterWindow'),
                    key: 'window',
                    render: (_, field) =>
                      wholeNumber(field.name, 'chatterWindowSec', ALARM_LIMITS.chatterWindowSec, t('alarms.settings.chatterWindow'), 110),
                  },
                ]}
              />
            )}
          </Form.List>
        </Card>
        <Card title={t('alarms.settings.rulesTitle')} loading={settings.isLoading}>
          <Typography.Paragraph type="secondary">{t('alarms.settings.rulesHint')}</Typography.Paragraph>
          <Form.List name="rules">
            {(rules, { add, remove }) => (
              <Space direction="vertical" style={{ width: '100%' }}>
                {rules.map((rule) => (
                  <Card key={rule.key} size="small" data-testid="alarm-rule">
                    <Space wrap align="start">
                      <Form.Item
                        name={[rule.name, 'name']}
                        label={t('alarms.settings.ruleName')}
                        rules={[{ required: true, whitespace: true, max: ALARM_LIMITS.ruleName.max }]}
                      >
                        <Input style={{ width: 180 }} />
                      </Form.Item>
                      <Form.Item
                        name={[rule.name, 'severities']}
                        label={t('alarms.settings.severities')}
                        rules={[{ required: true, type: 'array', min: 1 }]}
                      >
                        <Select mode="multiple" options={severityOptions} style={{ minWidth: 200 }} />
                      </Form.Item>
                      <Form.Item name={[rule.name, 'lang']} label={t('alarms.settings.lang')} rules={[{ required: true }]}>
                        <Select style={{ width: 110 }} options={LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))} />
                      </Form.Item>
                      <Button
                        icon={<DeleteOutlined />}
                        danger
                        onClick={() => remove(rule.name)}
                        aria-label={t('alarms.settings.removeRule')}
                      >
                        {t('alarms.settings.removeRule')}
                      </Button>
                    </Space>
                    <Form.List name={[rule.name, 'steps']}>
                      {(steps, stepOps) => (
                        <Space direction="vertical" style={{ width: '100%' }}>
                          {steps.map((step, index) => (
                            <Space key={step.key} wrap align="start">
                              <Typography.Text style={{ lineHeight: '32px' }}>
                                {t('alarms.settings.step', { n: index + 1 })}
                              </Typography.Text>
                              <Form.Item
                                name={[step.name, 'afterMinutes']}
                                label={t('alarms.settings.afterMinutes')}
                                rules={[{ required: true }]}
                              >
                                <InputNumber min={0} max={ALARM_LIMITS.afterMinutes.max} precision={0} style={{ width: 96 }} />
                              </Form.Item>
                              <Form.Item
                                name={[step.name, 'mails']}
                                label={t('alarms.settings.mails')}
                                rules={[
                                  { required: true, type: 'array', min: 1, max: ALARM_LIMITS.mails.max },
                                  {
                                    validator: async (_, value: string[] | undefined) => {
                                      if ((value ?? []).some((m) => !MAIL.test(m))) throw new Error(t('alarms.settings.badMail'));
                                    },
                                  },
                                ]}
                              >
                                <Select
                                  mode="tags"
                                  open={false}
                                  style={{ minWidth: 260 }}
                                  tokenSeparators={[',', ' ']}
                                  placeholder={t('alarms.settings.mailsPlaceholder')}
                                />
                              </Form.Item>
                              <Button
                                onClick={() => stepOps.remove(step.name)}
                                disabled={steps.length <= 1}
                                aria-label={t('alarms.settings.removeStep', { n: index + 1 })}
                              >
                                {t('alarms.settings.removeStepShort')}
                              </Button>
                            </Space>
                          ))}
                          {steps.length < ALARM_LIMITS.steps.max && (
                            <Button type="dashed" icon={<PlusOutlined />} onClick={() => stepOps.add({ afterMinutes: 30, mails: [] })}>
                              {t('alarms.settings.addStep')}
                            </Button>
                          )}
                        </Space>
                      )}
                    </Form.List>
                  </Card>
                ))}
                {rules.length < ALARM_LIMITS.rules.max && (
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() =>
                      add({
                        name: '',
                        severities: ['critical'],
                        lang: (LANGS as readonly string[]).includes(i18n.language) ? i18n.language : 'en',
                        steps: [{ afterMinutes: 0, mails: [] }],
                      } as AlarmRule)
                    }
                    data-testid="alarm-rule-add"
                  >
                    {t('alarms.settings.addRule')}
                  </Button>
                )}
              </Space>
            )}
          </Form.List>
        </Card>
        {editable && (
          <div style={{ marginTop: 16, textAlign: 'right' }}>
            <Button
              type="primary"
              htmlType="submit"
              icon={<SaveOutlined />}
              loading={save.isPending}
              disabled={!projectId}
              data-testid="alarm-settings-save"
            >
              {t('alarms.settings.save')}
            </Button>
          </div>
        )}
      </Form>
    </PageContainer>
  );
}
