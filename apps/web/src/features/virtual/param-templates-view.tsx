import { useState } from 'react';
import { App, Button, Card, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { typesWithClass, userMay, type ParamClass, type ParamTemplate } from '@lumigrid/contract/browser';
import { useMe } from '../auth/api.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { useDeleteTemplate, useParamTemplates } from './api.ts';
import { ApplyTemplateModal } from './apply-template-modal.tsx';
import { ParamValueTags } from './param-values.tsx';
import { TemplateFormModal } from './template-form-modal.tsx';
import { typeLabel } from '../device-config/param-fields.ts';
import { useAccountTime } from '../projects/site-time.ts';

/**
 * /system/functionParameter and /system/interfaceParameter: the account's parameter sets of one kind, by
 * device type, with add, edit, delete (refused while linked: 260022) and apply to devices.
 */
export function ParamTemplatesView({ kind }: { kind: ParamClass }) {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const editable = userMay(user, 'write');
  const [type, setType] = useState(0);
  const templates = useParamTemplates(kind, type);
  const remove = useDeleteTemplate();
  const [form, setForm] = useState<{ open: boolean; editing?: ParamTemplate }>({ open: false });
  const [applying, setApplying] = useState<ParamTemplate>();

  return (
    <PageContainer title={t(`paramTemplates.title.${kind}`)} content={t(`paramTemplates.intro.${kind}`)}>
      <Card variant="borderless">
        <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
          <Space>
            <Typography.Text>{t('paramTemplates.deviceType')}</Typography.Text>
            <Select
              aria-label={t('paramTemplates.deviceType')}
              style={{ width: 260 }}
              value={type}
              onChange={setType}
              showSearch
              optionFilterProp="label"
              options={[
                { value: 0, label: t('paramTemplates.allTypes') },
                ...typesWithClass(kind).map((code) => ({ value: code, label: typeLabel(t, code) })),
              ]}
              data-testid="template-type-filter"
            />
          </Space>
          {editable && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true })} data-testid="template-add">
              {t('paramTemplates.add')}
            </Button>
          )}
        </Space>
        <Table<ParamTemplate>
          rowKey="id"
          loading={templates.isLoading}
          dataSource={templates.data ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <EmptyHint text={t('paramTemplates.empty')} /> }}
          columns={[
            {
              title: t('paramTemplates.name'),
              dataIndex: 'name',
              width: 180,
              render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
            },
            { title: t('paramTemplates.deviceType'), dataIndex: 'deviceType', width: 170, render: (code: number) => typeLabel(t, code) },
            {
              title: t('paramTemplates.params'),
              key: 'params',
              minWidth: 220,
              render: (_, row) => <ParamValueTags typeCode={row.deviceType} params={row.params} />,
            },
            {
              title: t('paramTemplates.usedBy'),
              key: 'used',
              width: 190,
              render: (_, row) => (
                <Typography.Text type={row.devices + row.virtualDevices ? undefined : 'secondary'}>
                  {t('paramTemplates.usedByValue', { devices: row.devices, virtual: row.virtualDevices })}
                </Typography.Text>
              ),
            },
            {
              title: t('paramTemplates.updated'),
              dataIndex: 'updatedAt',
              width: 150,
              render: (at: string) => time(at),
            },
            ...(editable
              ? [
                  {
                    title: t('paramTemplates.actions'),
                    key: 'actions',
                    width: 250,
                    render: (_: unknown, row: ParamTemplate) => (
                      <Space size={0} wrap>
                        <Button
                          type="link"
                          icon={<SendOutlined />}
                          onClick={() => setApplying(row)}
                          data-testid={`template-apply-${row.name}`}
                        >
                          {t('paramTemplates.apply')}
                        </Button>
                        <Button type="link" icon={<EditOutlined />} onClick={() => setForm({ open: true, editing: row })}>
                          {t('paramTemplates.editShort')}
                        </Button>
                        <Popconfirm
                          title={t('paramTemplates.deleteConfirm', { name: row.name })}
                          onConfirm={async () => {
                            await remove.mutateAsync(row.id);
                            void message.success(t('paramTemplates.deleted'));
                          }}
                        >
                          <Button type="link" danger icon={<DeleteOutlined />}>
                            {t('paramTemplates.delete')}
                          </Button>
                        </Popconfirm>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <TemplateFormModal
        kind={kind}
        open={form.open}
        editing={form.editing}
        onClose={(saved) => {
          setForm({ open: false });
          if (saved) void message.success(t('paramTemplates.saved'));
        }}
      />
      <ApplyTemplateModal template={applying} onClose={() => setApplying(undefined)} />
    </PageContainer>
  );
}
