import { useState } from 'react';
import { Button, Drawer, Form, InputNumber, Popconfirm, Progress, Select, Space, Table, Tag, TimePicker, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  errorMessage,
  isErrorCode,
  ROLLOUT_LIMITS,
  ROLLOUT_TOPIC,
  type GatewayFirmwareTarget,
  type Rollout,
  type RolloutCreateBody,
  type RolloutState,
  type RolloutTarget,
  type RolloutTargetState,
} from '@lumigrid/contract/browser';
import { useRealtime } from '../../app/realtime-provider.tsx';
import {
  platformKeys,
  useFirmwareFiles,
  usePlatformOverview,
  useRollout,
  useRolloutAction,
  useRollouts,
  useStartRollout,
} from '../../features/platform/api.ts';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { currentLang } from '../../i18n/index.ts';
import { FormModal } from '../../components/form-modal.tsx';

const STATE_COLOUR: Record<RolloutState, string> = {
  running: 'processing',
  paused: 'warning',
  done: 'success',
  rollingBack: 'processing',
  rolledBack: 'default',
};

const TARGET_COLOUR: Record<RolloutTargetState, string> = {
  pending: 'default',
  updating: 'processing',
  succeeded: 'success',
  failed: 'error',
  rollingBack: 'processing',
  rolledBack: 'default',
  rollbackFailed: 'error',
};

interface RolloutForm {
  firmware: string;
  tenantIds?: string[];
  versions?: string[];
  models?: string[];
  waveSize: number;
  concurrency: number;
  failureThresholdPct: number;
  window?: [Dayjs, Dayjs];
}

/** The share of a rollout's gateways that reached an end (updated, failed, or rolled back). */
function finishedPercent(rollout: Rollout): number {
  const { succeeded, failed, rolledBack, rollbackFailed } = rollout.counts;
  return rollout.total === 0 ? 0 : Math.round(((succeeded + failed + rolledBack + rollbackFailed) * 100) / rollout.total);
}

/** A picked time of day as HH:MM: a wall-clock time each gateway reads in its own zone, so no zone of the browser's. */
function wallClockText(time: Dayjs): string {
  return `${String(time.hour()).padStart(2, '0')}:${String(time.minute()).padStart(2, '0')}`;
}

/** The form's values as the start call's body: the firmware is one choice of part and version. */
function bodyOf(values: RolloutForm): RolloutCreateBody {
  const [target, version] = values.firmware.split('@') as [RolloutCreateBody['target'], string];
  return {
    target,
    version,
    selection: {
      ...(values.tenantIds?.length ? { tenantIds: values.tenantIds } : {}),
      ...(values.versions?.length ? { versions: values.versions } : {}),
      ...(values.models?.length ? { models: values.models } : {}),
    },
    waveSize: values.waveSize,
    concurrency: values.concurrency,
    failureThresholdPct: values.failureThresholdPct,
    ...(values.window ? { window: { start: wallClockText(values.window[0]), end: wallClockText(values.window[1]) } } : {}),
  };
}

/**
 * /system/rollout: fleet firmware rollouts of the platform administrator. Started from a form, shown with their
 * progress as it happens (the live topic), paused, resumed or rolled back from the list; each opens its gateways.
 */
export default function RolloutPage() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const queryClient = useQueryClient();
  const rollouts = useRollouts();
  const action = useRolloutAction();
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string>();

  // Every change of a rollout is pushed: the list and the open rollout are read again at once.
  useRealtime(ROLLOUT_TOPIC, () => void queryClient.invalidateQueries({ queryKey: platformKeys.rollouts() }));

  const columns: ProColumns<Rollout>[] = [
    { title: t('rollout.firmware'), render: (_, r) => `${t(`gateway.version.${r.target as GatewayFirmwareTarget}`)} ${r.version}` },
    {
      title: t('rollout.state'),
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATE_COLOUR[r.state]} data-testid={`rollout-state-${r.id}`} data-state={r.state}>
            {t(`rollout.states.${r.state}`)}
          </Tag>
          {r.pauseReason && <Typography.Text type="secondary">{t(`rollout.pauseReasons.${r.pauseReason}`)}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('rollout.progress'),
      width: 280,
      render: (_, r) => (
        <div data-testid={`rollout-progress-${r.id}`}>
          <Progress percent={finishedPercent(r)} size="small" status={r.counts.failed > 0 ? 'exception' : undefined} />
          <Typography.Text type="secondary">
            {t('rollout.wave', { current: r.currentWave, total: r.waves })} ·{' '}
            {t('rollout.counts', { succeeded: r.counts.succeeded, failed: r.counts.failed, pending: r.counts.pending })}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('rollout.createdAt'), render: (_, r) => time(r.createdAt, 'minute') },
    {
      title: t('rollout.actions'),
      render: (_, r) => (
        <Space wrap>
          <Button size="small" onClick={() => setOpenId(r.id)}>
            {t('rollout.details')}
          </Button>
          {r.state === 'running' && (
            <Button size="small" onClick={() => action.mutate({ id: r.id, action: 'pause' })}>
              {t('rollout.pause')}
            </Button>
          )}
          {r.state === 'paused' && (
            <Button
              size="small"
              type="primary"
              data-testid={`rollout-resume-${r.id}`}
              onClick={() => action.mutate({ id: r.id, action: 'resume' })}
            >
              {t('rollout.resume')}
            </Button>
          )}
          {(r.state === 'paused' || r.state === 'done') && (
            <Popconfirm title={t('rollout.rollBackConfirm')} onConfirm={() => action.mutateAsync({ id: r.id, action: 'rollBack' })}>
              <Button size="small" danger>
                {t('rollout.rollBack')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={t('rollout.title')} content={t('rollout.hint')}>
      <ProTable<Rollout>
        rowKey="id"
        columns={columns}
        dataSource={rollouts.data ?? []}
        loading={rollouts.isLoading}
        search={false}
        cardBordered
        pagination={false}
        locale={{ emptyText: <EmptyHint text={t('rollout.empty')} /> }}
        options={{ reload: () => void rollouts.refetch(), density: false, setting: false, fullScreen: false }}
        toolBarRender={() => [
          <Button key="new" type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="rollout-new">
            {t('rollout.new')}
          </Button>,
        ]}
      />
      {creating && <RolloutFormModal onClose={() => setCreating(false)} />}
      <RolloutDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </PageContainer>
  );
}

function RolloutFormModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RolloutForm>();
  const files = useFirmwareFiles();
  const overview = usePlatformOverview();
  const start = useStartRollout();
  const firmware = overview.data?.firmware ?? [];
  const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))].sort();

  return (
    <FormModal
      open
      title={t('rollout.new')}
      okText={t('rollout.start')}
      confirmLoading={start.isPending}
      onCancel={onClose}
      onOk={() =>
        void form.validateFields().then(async (values) => {
          await start.mutateAsync(bodyOf(values));
          onClose();
        })
      }
    >
      <Form<RolloutForm>
        form={form}
        layout="vertical"
        initialValues={{ waveSize: 10, concurrency: 5, failureThresholdPct: 10 }}
        data-testid="rollout-form"
      >
        <Form.Item name="firmware" label={t('rollout.firmware')} rules={[{ required: true, message: t('rollout.chooseFirmware') }]}>
          <Select
            data-testid="rollout-firmware"
            loading={files.isLoading}
            options={(files.data ?? []).map((f) => ({
              value: `${f.target}@${f.version}`,
              label: `${t(`gateway.version.${f.target as GatewayFirmwareTarget}`)} ${f.version}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="tenantIds" label={t('rollout.tenants')} extra={t('rollout.anyHint')}>
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            options={(overview.data?.tenants ?? []).map((x) => ({ value: x.id, label: x.account }))}
          />
        </Form.Item>
        <Form.Item name="versions" label={t('rollout.versions')} extra={t('rollout.anyHint')}>
          <Select mode="tags" allowClear options={distinct(firmware.map((f) => f.version)).map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        <Form.Item name="models" label={t('rollout.models')} extra={t('rollout.anyHint')}>
          <Select mode="tags" allowClear options={distinct(firmware.map((f) => f.model)).map((m) => ({ value: m, label: m }))} />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="waveSize" label={t('rollout.waveSize')} rules={[{ required: true }]}>
            <InputNumber min={ROLLOUT_LIMITS.waveSize.minimum} max={ROLLOUT_LIMITS.waveSize.maximum} precision={0} />
          </Form.Item>
          <Form.Item
            name="concurrency"
            label={t('rollout.concurrency')}
            dependencies={['waveSize']}
            rules={[
              { required: true },
              ({ getFieldValue }) => ({
                validator: (_, value: number) =>
                  value > Number(getFieldValue('waveSize'))
                    ? Promise.reject(new Error(errorMessage(104004, currentLang())))
                    : Promise.resolve(),
              }),
            ]}
          >
            <InputNumber min={ROLLOUT_LIMITS.concurrency.minimum} max={ROLLOUT_LIMITS.concurrency.maximum} precision={0} />
          </Form.Item>
          <Form.Item name="failureThresholdPct" label={t('rollout.threshold')} rules={[{ required: true }]}>
            <InputNumber min={0} max={100} precision={0} />
          </Form.Item>
        </Space>
        <Form.Item name="window" label={t('rollout.window')} extra={t('rollout.anyTime')}>
          <TimePicker.RangePicker format="HH:mm" order={false} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

function RolloutDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useRollout(id);
  return (
    <Drawer open={id !== undefined} onClose={onClose} width={760} title={t('rollout.details')} destroyOnHidden>
      <Table<RolloutTarget>
        rowKey="mac"
        size="small"
        loading={detail.isLoading}
        dataSource={detail.data?.targets ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('rollout.waveColumn'), dataIndex: 'wave', width: 70 },
          { title: t('rollout.gateway'), render: (_, g) => (g.name ? `${g.name} (${g.mac})` : g.mac) },
          { title: t('rollout.tenant'), dataIndex: 'tenant', render: (x: string) => x || t('rollout.pool') },
          { title: t('rollout.fromVersion'), dataIndex: 'fromVersion' },
          {
            title: t('rollout.state'),
            render: (_, g) => (
              <Space direction="vertical" size={0}>
                <Tag color={TARGET_COLOUR[g.state]}>{t(`rollout.targetStates.${g.state}`)}</Tag>
                {g.errorCode !== null && (
                  <Typography.Text type="secondary">
                    {isErrorCode(g.errorCode) ? errorMessage(g.errorCode, currentLang()) : t('error.business', { code: g.errorCode })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
