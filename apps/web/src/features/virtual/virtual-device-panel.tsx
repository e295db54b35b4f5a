import { useEffect, useState } from 'react';
import { Alert, App, Button, Descriptions, Divider, Form, Input, Popconfirm, Select, Slider, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { VIRTUAL_LIMITS, type VirtualDevice } from '@lumigrid/contract/browser';
import { useMapGroups } from '../groups/api.ts';
import { useScenePage } from '../scenes/api.ts';
import { useDeleteVirtual, useParamTemplates, useRelate, useRelationCandidates, useUpdateVirtual } from './api.ts';
import { typeLabel } from '../device-config/param-fields.ts';
import { PlanSideDrawer } from '../devices/plan-side-drawer.tsx';
import { sendOnEnter } from '../../components/form-modal.tsx';

interface Values {
  name: string;
  functionTemplateId?: string;
  interfaceTemplateId?: string;
  groupIds: string[];
  sceneIds: string[];
  percent: number;
}

/**
 * The panel of a virtual device on the floor plan: its name, parameter sets, groups (of its gateway on this
 * map) and scenes (of the project), and "Relate to a real device", after which it leaves the plan.
 */
export function VirtualDevicePanel({
  device,
  projectId,
  canEdit,
  onClose,
}: {
  device: VirtualDevice | undefined;
  projectId: string;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const groups = useMapGroups(device?.mapId);
  const scenes = useScenePage(device ? { projectId, page: 1, pageSize: 200 } : undefined);
  const functionSets = useParamTemplates('function', device?.type ?? 0);
  const interfaceSets = useParamTemplates('interface', device?.type ?? 0);
  const candidates = useRelationCandidates(device?.id);
  const update = useUpdateVirtual();
  const remove = useDeleteVirtual();
  const relate = useRelate();
  const [candidate, setCandidate] = useState<string>();

  useEffect(() => {
    setCandidate(undefined);
    if (!device) return;
    form.setFieldsValue({
      name: device.name,
      functionTemplateId: device.functionTemplateId ?? undefined,
      interfaceTemplateId: device.interfaceTemplateId ?? undefined,
      groupIds: device.groups.map((g) => g.id),
      sceneIds: device.scenes.map((s) => s.sceneId),
      percent: device.scenes[0]?.action.percent ?? 100,
    });
  }, [device, form]);

  if (!device) return null;

  const save = async () => {
    const values = await form.validateFields();
    const kept = new Map(device.scenes.map((s) => [s.sceneId, s]));
    await update.mutateAsync({
      id: device.id,
      name: values.name,
      functionTemplateId: values.functionTemplateId ?? null,
      interfaceTemplateId: values.interfaceTemplateId ?? null,
      groupIds: values.groupIds,
      scenes: values.sceneIds.map((sceneId) => ({
        sceneId,
        step: kept.get(sceneId)?.step ?? 0,
        action: { on: values.percent > 0, percent: values.percent },
      })),
    });
    void message.success(t('virtualDevices.saved'));
  };

  const doRelate = async () => {
    if (!candidate) return;
    const result = await relate.mutateAsync({ id: device.id, deviceId: candidate });
    void message.success(t('virtualDevices.relatedDone', { name: result.virtual.related?.deviceName ?? '' }));
    if (result.params !== null && result.params !== 0) void message.warning(t('virtualDevices.paramsFailed', { reason: result.params }));
    if (result.sync !== 0) void message.info(t('virtualDevices.syncPending'));
    onClose();
  };

  const options = (list: Array<{ id: string; name: string }> | undefined) => (list ?? []).map((x) => ({ value: x.id, label: x.name }));
  const groupOptions = (groups.data ?? []).filter((g) => g.gatewayId === device.gatewayId).map((g) => ({ value: g.id, label: g.name }));

  return (
    <PlanSideDrawer
      onClose={onClose}
      title={
        <Space>
          <Tag color="purple" bordered={false}>
            {t('virtualDevices.tag')}
          </Tag>
          <span>{device.name}</span>
        </Space>
      }
      testId="virtual-panel"
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('virtualDevices.type')}>{typeLabel(t, device.type)}</Descriptions.Item>
        <Descriptions.Item label={t('virtualDevices.gateway')}>{device.gatewayName}</Descriptions.Item>
      </Descriptions>
      <Form
        form={form}
        layout="vertical"
        disabled={!canEdit}
        requiredMark={false}
        onKeyDown={canEdit ? sendOnEnter(() => void save().catch(() => undefined)) : undefined}
      >
        <Form.Item
          name="name"
          label={t('virtualDevices.name')}
          rules={[{ required: true, whitespace: true, message: t('virtualDevices.name') }]}
        >
          <Input maxLength={VIRTUAL_LIMITS.name.max} />
        </Form.Item>
        <Form.Item name="functionTemplateId" label={t('virtualDevices.functionTemplate')}>
          <Select allowClear placeholder={t('virtualDevices.noTemplate')} options={options(functionSets.data)} />
        </Form.Item>
        <Form.Item name="interfaceTemplateId" label={t('virtualDevices.interfaceTemplate')}>
          <Select allowClear placeholder={t('virtualDevices.noTemplate')} options={options(interfaceSets.data)} />
        </Form.Item>
        <Form.Item name="groupIds" label={t('virtualDevices.groups')} extra={t('virtualDevices.groupsHint')}>
          <Select mode="multiple" options={groupOptions} optionFilterProp="label" data-testid="virtual-groups" />
        </Form.Item>
        <Form.Item name="sceneIds" label={t('virtualDevices.scenes')}>
          <Select mode="multiple" options={options(scenes.data?.list)} optionFilterProp="label" data-testid="virtual-scenes" />
        </Form.Item>
        <Form.Item name="percent" label={t('virtualDevices.sceneBrightness')}>
          <Slider min={0} max={100} tooltip={{ formatter: (v) => `${v ?? 0}%` }} />
        </Form.Item>
      </Form>
      {canEdit && (
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Popconfirm
            title={t('virtualDevices.deleteConfirm', { name: device.name })}
            onConfirm={async () => {
              await remove.mutateAsync({ mapId: device.mapId, id: device.id });
              void message.success(t('virtualDevices.deleted'));
              onClose();
            }}
          >
            <Button danger icon={<DeleteOutlined />}>
              {t('virtualDevices.delete')}
            </Button>
          </Popconfirm>
          <Button type="primary" loading={update.isPending} onClick={() => void save().catch(() => undefined)} data-testid="virtual-save">
            {t('virtualDevices.save')}
          </Button>
        </Space>
      )}
      {canEdit && (
        <>
          <Divider />
          <Typography.Title level={5}>
            <LinkOutlined /> {t('virtualDevices.relate')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('virtualDevices.relateHint')}</Typography.Paragraph>
          {candidates.data && candidates.data.length === 0 ? (
            <Alert type="info" showIcon message={t('virtualDevices.candidatesNone')} />
          ) : (
            <Space.Compact style={{ width: '100%' }}>
              <Select
                style={{ flex: 1 }}
                placeholder={t('virtualDevices.candidate')}
                value={candidate}
                onChange={setCandidate}
                showSearch
                optionFilterProp="label"
                loading={candidates.isLoading}
                options={(candidates.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.addr.slice(-6)})` }))}
                data-testid="virtual-candidate"
              />
              <Button
                type="primary"
                disabled={!candidate}
                loading={relate.isPending}
                onClick={() => void doRelate().catch(() => undefined)}
                data-testid="virtual-relate"
              >
                {t('virtualDevices.relateConfirm')}
              </Button>
            </Space.Compact>
          )}
        </>
      )}
    </PlanSideDrawer>
  );
}
