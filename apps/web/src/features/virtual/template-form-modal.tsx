import { useEffect } from 'react';
import { Alert, App, Col, Form, Input, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_LIMITS, paramClassOf, typesWithClass, type ParamClass, type ParamTemplate } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { filledParams, formProblems, paramFields, typeLabel, type ParamField } from '../device-config/param-fields.ts';
import { useBuildTemplate, useUpdateTemplate } from './api.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { ParamFieldCol } from '../device-config/param-field-col.tsx';

interface Values {
  name: string;
  deviceType?: number;
  params: Record<string, unknown>;
}

/** The parameters of a type in one set, as the editor shows them. */
export function setFields(typeCode: number | undefined, kind: ParamClass): ParamField[] {
  return typeCode === undefined ? [] : paramFields(typeCode).filter((f) => paramClassOf(f.name) === kind);
}

/**
 * Creates or edits a parameter set: its name, the device type (fixed once saved) and the parameters of the
 * set that type has. Each field is checked as the server checks it (the contract's table), in the same words.
 */
export function TemplateFormModal({
  kind,
  open,
  editing,
  onClose,
}: {
  kind: ParamClass;
  open: boolean;
  /** The set being edited; undefined for a new one. */
  editing?: ParamTemplate;
  onClose: (saved?: ParamTemplate) => void;
}) {
  const { t } = useTranslation();
  const { lang } = useBoot();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const build = useBuildTemplate();
  const update = useUpdateTemplate();
  const deviceType = Form.useWatch('deviceType', form);
  const fields = setFields(deviceType, kind);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) form.setFieldsValue({ name: editing.name, deviceType: editing.deviceType, params: editing.params });
  }, [open, editing, form]);

  const submit = async () => {
    const values = await form.validateFields();
    if (values.deviceType === undefined) return;
    const params = filledParams(values.params ?? {});
    if (Object.keys(params).length === 0) {
      void message.warning(t('paramTemplates.fillOne'));
      return;
    }
    const across = formProblems(values.deviceType, params, lang);
    if (across.length) {
      form.setFields(across.map((p) => ({ name: ['params', ...p.name], errors: [p.message] })));
      return;
    }
    const saved = editing
      ? await update.mutateAsync({ id: editing.id, name: values.name, params })
      : await build.mutateAsync({ name: values.name, kind, deviceType: values.deviceType, params });
    onClose(saved);
  };

  return (
    <FormModal
      open={open}
      width={720}
      title={t(editing ? 'paramTemplates.edit' : 'paramTemplates.add')}
      okText={t('virtualDevices.save')}
      confirmLoading={build.isPending || update.isPending}
      onSubmit={submit}
      onCancel={() => onClose()}
      data-testid="template-form"
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('paramTemplates.name')}
              rules={[{ required: true, whitespace: true, message: t('paramTemplates.name') }, { max: TEMPLATE_LIMITS.name.max }]}
            >
              <Input
                maxLength={TEMPLATE_LIMITS.name.max}
                showCount
                placeholder={t('paramTemplates.namePlaceholder')}
                data-testid="template-name"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="deviceType"
              label={t('paramTemplates.deviceType')}
              rules={[{ required: true, message: t('paramTemplates.deviceType') }]}
            >
              <Select
                disabled={Boolean(editing)}
                showSearch
                optionFilterProp="label"
                options={typesWithClass(kind).map((code) => ({ value: code, label: typeLabel(t, code) }))}
                onChange={() => form.setFieldValue('params', {})}
                data-testid="template-type"
              />
            </Form.Item>
          </Col>
        </Row>
        {deviceType !== undefined && (
          <>
            <Typography.Paragraph type="secondary">{t('paramTemplates.hint')}</Typography.Paragraph>
            {fields.length === 0 ? (
              <Alert type="info" showIcon message={t('paramTemplates.noParamsOfType')} />
            ) : (
              <Row gutter={16}>
                {fields.map((field) => (
                  <ParamFieldCol
                    key={field.name}
                    field={field}
                    deviceType={deviceType}
                    path={['params']}
                    col={{ xs: 24, md: 12 }}
                    optional
                    testIdPrefix="template-param"
                  />
                ))}
              </Row>
            )}
          </>
        )}
      </Form>
    </FormModal>
  );
}
