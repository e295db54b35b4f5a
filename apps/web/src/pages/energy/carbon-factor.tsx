import { useState } from 'react';
import { App, Button, Form, InputNumber, Popover, Space, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS } from '@lumigrid/contract/browser';
import { useUpdateProject } from '../../features/projects/api.ts';
import { energyKeys } from '../../features/energy/api.ts';

const { min, max } = PROJECT_LIMITS.carbonFactor;

/** The project's carbon factor (kg CO2 per kWh) the carbon saved is reckoned with; users who edit projects set it here. */
export function CarbonFactor({ projectId, factor, editable }: { projectId: string; factor: number; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const update = useUpdateProject();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ carbonFactor: number }>();

  const save = async ({ carbonFactor }: { carbonFactor: number }) => {
    await update.mutateAsync({ id: projectId, carbonFactor });
    await client.invalidateQueries({ queryKey: energyKeys.all });
    void message.success(t('energy.carbon.saved'));
    setOpen(false);
  };

  return (
    <Space size="small" data-testid="energy-carbon-factor">
      <Typography.Text type="secondary">{t('energy.carbon.label')}</Typography.Text>
      <Typography.Text strong>{t('energy.carbon.value', { factor })}</Typography.Text>
      {editable && (
        <Popover
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (next) form.setFieldsValue({ carbonFactor: factor });
          }}
          trigger="click"
          title={t('energy.carbon.editTitle')}
          content={
            <Form form={form} layout="vertical" onFinish={(values) => void save(values).catch(() => undefined)} style={{ width: 260 }}>
              <Form.Item
                name="carbonFactor"
                label={t('energy.carbon.field')}
                extra={t('energy.carbon.range', { min, max })}
                rules={[
                  { required: true, message: t('energy.carbon.required') },
                  { type: 'number', min, max, message: t('energy.carbon.range', { min, max }) },
                ]}
              >
                <InputNumber style={{ width: '100%' }} step={0.01} addonAfter="kg/kWh" data-testid="energy-carbon-input" />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="energy-carbon-save">
                  {t('energy.carbon.save')}
                </Button>
                <Button onClick={() => setOpen(false)}>{t('energy.carbon.cancel')}</Button>
              </Space>
            </Form>
          }
        >
          <Button type="link" size="small" icon={<EditOutlined />} data-testid="energy-carbon-edit">
            {t('energy.carbon.edit')}
          </Button>
        </Popover>
      )}
    </Space>
  );
}
