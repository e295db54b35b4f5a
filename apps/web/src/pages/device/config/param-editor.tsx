import { useState } from 'react';
import { Alert, App, Button, Card, Col, Form, InputNumber, Row, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Device, DeviceParams } from '@lumigrid/contract/browser';
import { useBoot } from '../../../app/boot.tsx';
import { useReadParams, useSetParams } from '../../../features/device-config/api.ts';
import {
  fieldProblem,
  filledParams,
  formProblems,
  paramFields,
  paramLabelKey,
  rangeHint,
  type ParamField,
} from '../../../features/device-config/param-fields.ts';

type Values = Record<string, unknown>;

/**
 * Reads a device's parameters from the device and writes changes back through its gateway. Each field is
 * checked as the server checks it (the contract's table), with the same localised message beside it.
 */
export function ParamEditor({ device, editable }: { device: Device; editable: boolean }) {
  const { t } = useTranslation();
  const { lang } = useBoot();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const read = useReadParams();
  const save = useSetParams();
  const [loaded, setLoaded] = useState(false);
  const fields = paramFields(device.type);

  const show = (params: DeviceParams) => {
    form.resetFields();
    form.setFieldsValue(params);
    setLoaded(true);
  };

  const readNow = async () => {
    const answer = await read.mutateAsync(device.id);
    show(answer.params);
    void message.success(t('deviceConfig.params.readDone'));
  };

  const submit = async () => {
    const values = await form.validateFields();
    const params = filledParams(values);
    if (Object.keys(params).length === 0) {
      void message.warning(t('deviceConfig.params.nothing'));
      return;
    }
    const across = formProblems(device.type, params, lang);
    if (across.length) {
      form.setFields(across.map((p) => ({ name: p.name, errors: [p.message] })));
      return;
    }
    const answer = await save.mutateAsync({ id: device.id, params });
    show(answer.params);
    void message.success(t('deviceConfig.params.saved'));
  };

  const rule = (name: string) => ({
    validator: async (_rule: unknown, value: unknown) => {
      const problem = fieldProblem(device.type, name, value, lang);
      if (problem) throw new Error(problem);
    },
  });

  const input = (field: ParamField) => {
    const disabled = !editable;
    switch (field.input.kind) {
      case 'number':
        return (
          <InputNumber
            style={{ width: '100%' }}
            disabled={disabled}
            placeholder={rangeHint(field.input.rule)}
            addonAfter={field.input.rule.unit || undefined}
            data-testid={`param-${field.name}`}
          />
        );
      case 'mode':
        return (
          <Select
            disabled={disabled}
            data-testid={`param-${field.name}`}
            options={field.input.choices.map((c) => ({ value: c, label: t(`deviceConfig.mode.${c}`) }))}
          />
        );
      case 'flag':
        return (
          <Switch
            disabled={disabled}
            checkedChildren={t('deviceConfig.flag.on')}
            unCheckedChildren={t('deviceConfig.flag.off')}
            data-testid={`param-${field.name}`}
          />
        );
      case 'perChannel':
        return null;
    }
  };

  const item = (field: ParamField) => {
    if (field.input.kind === 'perChannel') {
      const { rule: range, channels } = field.input;
      return (
        <Col xs={24} key={field.name}>
          <Typography.Text strong>{t(paramLabelKey(field.name))}</Typography.Text>
          <Row gutter={12} style={{ marginTop: 8 }}>
            {Array.from({ length: channels }, (_, i) => (
              <Col xs={12} md={6} key={i}>
                <Form.Item
                  name={[field.name, i]}
                  label={t('deviceConfig.channel', { n: i + 1 })}
                  rules={[
                    {
                      // One channel's count checked alone, as the first of the list.
                      validator: async (_r: unknown, v: unknown) => {
                        const problem = fieldProblem(device.type, field.name, v === undefined || v === null ? v : [v], lang);
                        if (problem) throw new Error(problem);
                      },
                    },
                  ]}
                >
                  <InputNumber
                    style={{ width: '100%' }}
                    disabled={!editable}
                    placeholder={rangeHint(range)}
                    data-testid={`param-${field.name}-${i}`}
                  />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Col>
      );
    }
    return (
      <Col xs={24} md={12} xl={8} key={field.name}>
        <Form.Item
          name={field.name}
          label={t(paramLabelKey(field.name))}
          rules={[rule(field.name)]}
          valuePropName={field.input.kind === 'flag' ? 'checked' : 'value'}
          extra={field.input.kind === 'number' ? rangeHint(field.input.rule) : undefined}
        >
          {input(field)}
        </Form.Item>
      </Col>
    );
  };

  return (
    <Card
      title={t('deviceConfig.params.title')}
      extra={
        fields.length > 0 && (
          <Space>
            <Button onClick={() => void readNow().catch(() => undefined)} loading={read.isPending} data-testid="params-read">
              {t('deviceConfig.params.read')}
            </Button>
            {editable && (
              <Button
                type="primary"
                onClick={() => void submit().catch(() => undefined)}
                loading={save.isPending}
                data-testid="params-save"
              >
                {t('deviceConfig.params.save')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {fields.length === 0 ? (
        <Typography.Text type="secondary">{t('deviceConfig.params.none')}</Typography.Text>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('deviceConfig.params.hint')}</Typography.Paragraph>
          {!editable && <Alert type="info" showIcon message={t('deviceConfig.params.viewOnly')} style={{ marginBottom: 16 }} />}
          {!loaded && <Alert type="warning" showIcon message={t('deviceConfig.params.notRead')} style={{ marginBottom: 16 }} />}
          <Form form={form} layout="vertical" data-testid="params-form">
            <Row gutter={16}>{fields.map(item)}</Row>
          </Form>
        </>
      )}
    </Card>
  );
}
