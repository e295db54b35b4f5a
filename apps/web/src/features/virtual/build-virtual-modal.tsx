import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_TYPE_CODE_LIST, VIRTUAL_LIMITS, type VirtualDevice } from '@lumigrid/contract/browser';
import type { MapPath } from '../projects/tree.ts';
import { useBuildVirtual, useParamTemplates, useVirtualGateways } from './api.ts';
import { typeLabel } from '../device-config/param-fields.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface Values {
  gatewayId: string;
  type: number;
  count: number;
  name: string;
  functionTemplateId?: string;
  interfaceTemplateId?: string;
}

/** "Add virtual devices": a type, a gateway of the project, how many, a name and optional parameter sets. */
export function BuildVirtualModal({ open, path, onClose }: { open: boolean; path: MapPath; onClose: (created?: VirtualDevice[]) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [projectId, buildId, mapId] = path;
  const gateways = useVirtualGateways(open ? { projectId, buildId, mapId } : undefined);
  const type = Form.useWatch('type', form);
  const functionSets = useParamTemplates('function', type ?? 0);
  const interfaceSets = useParamTemplates('interface', type ?? 0);
  const build = useBuildVirtual();

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  useEffect(() => {
    const first = gateways.data?.[0];
    if (open && first && !form.getFieldValue('gatewayId')) form.setFieldValue('gatewayId', first.id);
  }, [open, gateways.data, form]);

  const submit = async () => {
    const values = await form.validateFields();
    const created = await build.mutateAsync({
      mapId,
      gatewayId: values.gatewayId,
      type: values.type,
      count: values.count,
      name: values.name,
      functionTemplateId: values.functionTemplateId ?? null,
      interfaceTemplateId: values.interfaceTemplateId ?? null,
      // In the middle of the plan, a row for several: the editor drags them into place.
      x: 0.4,
      y: 0.45,
    });
    onClose(created);
  };

  const templateOptions = (list: typeof functionSets.data) =>
    (type === undefined ? [] : (list ?? [])).map((template) => ({ value: template.id, label: template.name }));

  return (
    <FormModal
      open={open}
      title={t('virtualDevices.add')}
      okText={t('virtualDevices.save')}
      confirmLoading={build.isPending}
      onSubmit={submit}
      onCancel={() => onClose()}
      data-testid="virtual-build"
    >
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ count: 1 }}>
        <Form.Item name="type" label={t('virtualDevices.type')} rules={[{ required: true, message: t('virtualDevices.type') }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={DEVICE_TYPE_CODE_LIST.map((code) => ({ value: code, label: typeLabel(t, code) }))}
            onChange={() => form.setFieldsValue({ functionTemplateId: undefined, interfaceTemplateId: undefined })}
            data-testid="virtual-build-type"
          />
        </Form.Item>
        <Form.Item name="gatewayId" label={t('virtualDevices.gateway')} rules={[{ required: true, message: t('virtualDevices.gateway') }]}>
          <Select
            loading={gateways.isLoading}
            options={(gateways.data ?? []).map((g) => ({
              value: g.id,
              label: g.onMap ? g.name || g.mac : t('virtualDevices.otherMap', { name: g.name || g.mac }),
            }))}
          />
        </Form.Item>
        <Row gutter={16}>
          <Col span={16}>
            <Form.Item
              name="name"
              label={t('virtualDevices.name')}
              rules={[{ required: true, whitespace: true, message: t('virtualDevices.name') }]}
            >
              <Input
                maxLength={VIRTUAL_LIMITS.name.max - 3}
                placeholder={t('virtualDevices.namePlaceholder')}
                data-testid="virtual-build-name"
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="count" label={t('virtualDevices.count')} rules={[{ required: true }]}>
              <InputNumber min={VIRTUAL_LIMITS.build.min} max={VIRTUAL_LIMITS.build.max} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="functionTemplateId" label={t('virtualDevices.functionTemplate')}>
              <Select allowClear placeholder={t('virtualDevices.noTemplate')} options={templateOptions(functionSets.data)} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="interfaceTemplateId" label={t('virtualDevices.interfaceTemplate')}>
              <Select allowClear placeholder={t('virtualDevices.noTemplate')} options={templateOptions(interfaceSets.data)} />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text type="secondary">{t('virtualDevices.placeHint')}</Typography.Text>
      </Form>
    </FormModal>
  );
}
