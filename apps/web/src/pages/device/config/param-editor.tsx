import { useState } from 'react';
import { Alert, App, Button, Card, Form, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Device, DeviceParams } from '@lumigrid/contract/browser';
import { useBoot } from '../../../app/boot.tsx';
import { useReadParams, useSetParams } from '../../../features/device-config/api.ts';
import { filledParams, formProblems, paramFields } from '../../../features/device-config/param-fields.ts';
import { ParamFieldCol } from '../../../features/device-config/param-field-col.tsx';

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
            <Row gutter={16}>
              {fields.map((field) => (
                <ParamFieldCol
                  key={field.name}
                  field={field}
                  deviceType={device.type}
                  col={{ xs: 24, md: 12, xl: 8 }}
                  disabled={!editable}
                  testIdPrefix="param"
                />
              ))}
            </Row>
          </Form>
        </>
      )}
    </Card>
  );
}
