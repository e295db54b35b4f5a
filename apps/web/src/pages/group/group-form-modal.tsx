import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Form, Input, Select, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GROUP_LIMITS, errorMessage, isErrorCode, type Gateway, type GroupCandidate, type GroupView } from '@lumigrid/contract/browser';
import { currentLang } from '../../i18n/index.ts';
import { useAddGroup, useGroupCandidates, useUpdateGroup } from '../../features/groups/api.ts';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface Props {
  open: boolean;
  mapId: string;
  /** The group being edited, or undefined for a new one. */
  group?: GroupView;
  gateways: Gateway[];
  onClose: () => void;
}

interface Values {
  name: string;
  gatewayId?: string;
}

/**
 * Creating a group, or renaming it and changing its members: a name of 1-21 characters, the gateway it lives
 * on (fixed once created), and the member picker listing that gateway's devices on this map. The server
 * checks the grouping rules; its refusal is shown in the user's language.
 */
export function GroupFormModal({ open, mapId, group, gateways, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const add = useAddGroup();
  const update = useUpdateGroup();
  const [gatewayId, setGatewayId] = useState<string | undefined>(group?.gatewayId);
  const [selected, setSelected] = useState<string[]>(group?.deviceIds ?? []);
  const candidates = useGroupCandidates(open ? mapId : undefined, gatewayId, group?.id ?? '0');

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ name: group?.name ?? '', gatewayId: group?.gatewayId ?? (gateways.length === 1 ? gateways[0]!.id : undefined) });
    setGatewayId(group?.gatewayId ?? (gateways.length === 1 ? gateways[0]!.id : undefined));
    setSelected(group?.deviceIds ?? []);
  }, [open, group, gateways, form]);

  const rows = useMemo(() => candidates.data ?? [], [candidates.data]);
  const problemText = (code: number | null) => (code !== null && isErrorCode(code) ? errorMessage(code, currentLang()) : undefined);

  const submit = async () => {
    const values = await form.validateFields();
    if (selected.length === 0) {
      void message.error(errorMessage(110009, currentLang()));
      return;
    }
    if (group) {
      await update.mutateAsync({ id: group.id, name: values.name.trim(), deviceIds: selected });
      void message.success(t('groups.saved'));
    } else {
      await add.mutateAsync({ mapId, gatewayId: values.gatewayId!, name: values.name.trim(), deviceIds: selected });
      void message.success(t('groups.created', { name: values.name.trim() }));
    }
    onClose();
  };

  return (
    <FormModal
      open={open}
      title={group ? t('groups.editTitle', { name: group.name }) : t('groups.addTitle')}
      width={760}
      okText={t('groups.save')}
      confirmLoading={add.isPending || update.isPending}
      onSubmit={submit}
      onCancel={onClose}
      data-testid="group-form"
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item
            name="name"
            label={t('groups.name')}
            style={{ flex: 1 }}
            rules={[
              {
                validator: async (_rule, value: string | undefined) => {
                  const length = [...(value ?? '').trim()].length;
                  if (length < GROUP_LIMITS.name.min || length > GROUP_LIMITS.name.max)
                    throw new Error(t('groups.nameRule', { max: GROUP_LIMITS.name.max }));
                },
              },
            ]}
          >
            <Input placeholder={t('groups.namePlaceholder')} maxLength={GROUP_LIMITS.name.max + 10} data-testid="group-name" />
          </Form.Item>
          <Form.Item
            name="gatewayId"
            label={t('groups.gateway')}
            style={{ flex: 1 }}
            rules={[{ required: true, message: t('groups.gatewayRequired') }]}
          >
            <Select
              disabled={Boolean(group)}
              placeholder={t('groups.gatewayPlaceholder')}
              options={gateways.map((g) => ({ value: g.id, label: `${g.name || g.mac}${g.online ? '' : ` (${t('groups.offline')})`}` }))}
              onChange={(value: string) => {
                setGatewayId(value);
                setSelected([]);
              }}
              data-testid="group-gateway"
            />
          </Form.Item>
        </div>
      </Form>
      <Typography.Text strong>{t('groups.members')}</Typography.Text>{' '}
      <Typography.Text type="secondary">{t('groups.selectedCount', { count: selected.length })}</Typography.Text>
      <Alert type="info" showIcon style={{ margin: '8px 0' }} message={t('groups.rules')} />
      <Table<GroupCandidate>
        size="small"
        rowKey="id"
        loading={candidates.isFetching}
        dataSource={rows}
        pagination={rows.length > 8 ? { pageSize: 8, showSizeChanger: false } : false}
        locale={{ emptyText: gatewayId ? t('groups.noDevices') : t('groups.pickGatewayFirst') }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(String)),
          getCheckboxProps: (row) => ({
            disabled: row.problem !== null && !row.member,
            name: row.name,
            'aria-label': t('common.selectRow', { name: row.name }),
          }),
        }}
        columns={[
          {
            title: t('groups.deviceName'),
            dataIndex: 'name',
            render: (name: string, row) => (problemText(row.problem) ? <Tooltip title={problemText(row.problem)}>{name}</Tooltip> : name),
          },
          {
            title: t('groups.state'),
            dataIndex: 'display',
            width: 180,
            render: (display: GroupCandidate['display']) => <Tag color={DISPLAY_TAG_COLOUR[display]}>{t(`groups.display.${display}`)}</Tag>,
          },
          { title: t('groups.inGroups'), dataIndex: 'groups', width: 110, align: 'right' },
        ]}
        data-testid="group-member-picker"
      />
    </FormModal>
  );
}
