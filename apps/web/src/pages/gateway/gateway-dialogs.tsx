import { useState } from 'react';
import { Alert, App, Col, Form, Input, InputNumber, Row, Select, Slider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage, type ErrorCode, type Gateway, type GatewayLookup } from '@lumigrid/contract';
import {
  gatewayApi,
  useBindGateway,
  useChangeGatewayPlace,
  useOpenNetwork,
  useRenameGateway,
  useSetGatewayLonLat,
  useSetGatewayParams,
  useSetMicrowave,
} from '../../features/gateways/api.ts';
import {
  checkChannel,
  checkGatewayCoordinate,
  checkGatewayName,
  checkLargeGroup,
  checkMac,
  checkOptionalGatewayName,
  checkReportInterval,
  type GatewayRuleKey,
} from '../../features/gateways/status.ts';
import { microwaveProblem, MICROWAVE_FIELDS, type MicrowaveField } from '@lumigrid/contract';
import { useBoot } from '../../app/boot.tsx';
import { MapPathSelect } from '../../features/projects/map-path-select.tsx';
import { useGatewayRule } from './rules.ts';
import { FormModal } from '../../components/form-modal.tsx';

const mapOf = (path: string[] | undefined): GatewayRuleKey | undefined =>
  path && path.length === 3 ? undefined : 'gateway.rules.mapRequired';

interface DialogProps {
  open: boolean;
  onClose(): void;
}

/** Binds a gateway by MAC onto a map; a look-up first says whether the MAC can be bound at all. */
export function BindGatewayModal({ open, onClose, initialPath }: DialogProps & { initialPath?: string[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rule = useGatewayRule();
  const [form] = Form.useForm<{ mac: string; name?: string; path: string[] }>();
  const [lookup, setLookup] = useState<GatewayLookup>();
  const bind = useBindGateway();

  const look = async () => {
    const mac = (form.getFieldValue('mac') as string | undefined)?.trim();
    setLookup(undefined);
    if (!mac || checkMac(mac)) return;
    setLookup(await gatewayApi.lookup(mac).catch(() => undefined));
  };

  const submit = async () => {
    const values = await form.validateFields();
    const name = values.name?.trim();
    // A refusal (a MAC never provisioned or another account's, one answer for both) is shown in the server's words.
    const gateway = await bind.mutateAsync({ mac: values.mac.trim(), mapId: values.path[2] ?? '', ...(name ? { name } : {}) });
    void message.success(t('gateway.bound', { name: gateway.name }));
    onClose();
  };

  const hint: Record<GatewayLookup['state'], { type: 'success' | 'info' | 'error' | 'warning'; key: string }> = {
    pool: { type: 'success', key: 'gateway.lookup.pool' },
    yours: { type: 'info', key: 'gateway.lookup.yours' },
    unavailable: { type: 'warning', key: 'gateway.lookup.unavailable' },
  };

  return (
    <FormModal
      open={open}
      title={t('gateway.bindTitle')}
      okText={t('gateway.bind')}
      cancelText={t('gateway.cancel')}
      confirmLoading={bind.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      afterClose={() => setLookup(undefined)}
      destroyOnHidden
      width={560}
    >
      <Form form={form} layout="vertical" initialValues={{ path: initialPath }} data-testid="bind-form">
        <Form.Item name="mac" label={t('gateway.field.mac')} rules={[rule(checkMac, true)]} extra={t('gateway.macHint')}>
          <Input placeholder="AA:BB:CC:DD:EE:FF" autoFocus onBlur={() => void look()} />
        </Form.Item>
        {lookup && (
          <Alert
            style={{ marginBottom: 16 }}
            showIcon
            type={hint[lookup.state].type}
            message={t(hint[lookup.state].key as 'gateway.lookup.pool', {
              online: lookup.online ? t('gateway.status.online') : t('gateway.status.offline'),
            })}
          />
        )}
        <Form.Item name="path" label={t('gateway.field.place')} rules={[rule(mapOf, true)]}>
          <MapPathSelect />
        </Form.Item>
        <Form.Item name="name" label={t('gateway.field.name')} rules={[rule(checkOptionalGatewayName)]} extra={t('gateway.nameHint')}>
          <Input placeholder={t('gateway.namePlaceholder')} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** Renames a gateway (1-50 characters). */
export function RenameGatewayModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rule = useGatewayRule();
  const [form] = Form.useForm<{ name: string }>();
  const rename = useRenameGateway();
  const submit = async () => {
    if (!gateway) return;
    const { name } = await form.validateFields();
    await rename.mutateAsync({ id: gateway.id, name: name.trim() });
    void message.success(t('gateway.saved'));
    onClose();
  };
  return (
    <FormModal
      open={open}
      title={t('gateway.renameTitle')}
      okText={t('gateway.save')}
      cancelText={t('gateway.cancel')}
      confirmLoading={rename.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ name: gateway?.name }}>
        <Form.Item name="name" label={t('gateway.field.name')} rules={[rule(checkGatewayName, true)]}>
          <Input autoFocus />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** Moves a gateway (and its placed devices) to another map of the account. */
export function MoveGatewayModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rule = useGatewayRule();
  const [form] = Form.useForm<{ path: string[] }>();
  const move = useChangeGatewayPlace();
  const submit = async () => {
    if (!gateway) return;
    const { path } = await form.validateFields();
    await move.mutateAsync({ id: gateway.id, mapId: path[2] ?? '' });
    void message.success(t('gateway.moved'));
    onClose();
  };
  return (
    <FormModal
      open={open}
      title={t('gateway.moveTitle')}
      okText={t('gateway.save')}
      cancelText={t('gateway.cancel')}
      confirmLoading={move.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ path: gateway ? [gateway.projectId, gateway.buildId, gateway.mapId] : [] }}>
        <Form.Item name="path" label={t('gateway.field.place')} rules={[rule(mapOf, true)]}>
          <MapPathSelect />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

interface ParamsValues {
  timezone?: string;
  reportIntervalS?: number | null;
  channel?: number | null;
  largeGroupNumber?: number | null;
  sensorMode?: 'independent' | 'linkage';
}

/** Sets the gateway parameters; the gateway must confirm, so a timeout or offline gateway is refused by the server. */
export function GatewayParamsModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rule = useGatewayRule();
  const [form] = Form.useForm<ParamsValues>();
  const save = useSetGatewayParams();
  const submit = async () => {
    if (!gateway) return;
    const values = await form.validateFields();
    const timezone = values.timezone?.trim();
    await save.mutateAsync({
      id: gateway.id,
      ...(timezone ? { timezone } : {}),
      ...(values.reportIntervalS != null ? { reportIntervalS: values.reportIntervalS } : {}),
      ...(values.channel != null ? { channel: values.channel } : {}),
      ...(values.largeGroupNumber != null ? { largeGroupNumber: values.largeGroupNumber } : {}),
      ...(values.sensorMode ? { sensorMode: values.sensorMode } : {}),
    });
    void message.success(t('gateway.saved'));
    onClose();
  };
  const initial: ParamsValues = gateway
    ? {
        timezone: gateway.settings.timezone ?? undefined,
        reportIntervalS: gateway.settings.reportIntervalS,
        channel: gateway.channel,
        largeGroupNumber: gateway.largeGroupNumber,
        sensorMode: gateway.settings.sensorMode ?? 'independent',
      }
    : {};
  return (
    <FormModal
      open={open}
      title={t('gateway.paramsTitle')}
      okText={t('gateway.save')}
      cancelText={t('gateway.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="params-form">
        <Form.Item name="timezone" label={t('gateway.field.timezone')}>
          <Input placeholder="Europe/Berlin" maxLength={64} />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="reportIntervalS" label={t('gateway.field.reportInterval')} rules={[rule(checkReportInterval)]}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="channel" label={t('gateway.field.channel')} rules={[rule(checkChannel)]}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="largeGroupNumber" label={t('gateway.field.largeGroup')} rules={[rule(checkLargeGroup)]}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="sensorMode" label={t('gateway.field.sensorMode')}>
              <Select
                options={[
                  { value: 'independent', label: t('gateway.sensorMode.independent') },
                  { value: 'linkage', label: t('gateway.sensorMode.linkage') },
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}

/** Sets longitude and latitude (spec section 5: -180..180, -90..90, at most two decimals). */
export function GatewayLonLatModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rule = useGatewayRule();
  const [form] = Form.useForm<{ longitude: number; latitude: number }>();
  const save = useSetGatewayLonLat();
  const submit = async () => {
    if (!gateway) return;
    const values = await form.validateFields();
    await save.mutateAsync({ id: gateway.id, longitude: values.longitude, latitude: values.latitude });
    void message.success(t('gateway.saved'));
    onClose();
  };
  return (
    <FormModal
      open={open}
      title={t('gateway.lonLatTitle')}
      okText={t('gateway.save')}
      cancelText={t('gateway.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ longitude: gateway?.longitude ?? undefined, latitude: gateway?.latitude ?? undefined }}
        data-testid="lonlat-form"
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="longitude"
              label={t('gateway.field.longitude')}
              rules={[rule((v: number | null) => checkGatewayCoordinate('longitude', v), true)]}
            >
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="latitude"
              label={t('gateway.field.latitude')}
              rules={[rule((v: number | null) => checkGatewayCoordinate('latitude', v), true)]}
            >
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}

/** Broadcast: opens the gateway's networks for joining for a while, so new devices pair; import follows. */
export function OpenNetworkModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [durationS, setDurationS] = useState(60);
  const openNetwork = useOpenNetwork();
  const submit = async () => {
    if (!gateway) return;
    const done = await openNetwork.mutateAsync({ gatewayId: gateway.id, durationS });
    void message.success(
      done.openUntil
        ? t('gateway.network.opened', { name: gateway.name, seconds: done.durationS })
        : t('gateway.network.closed', { name: gateway.name }),
    );
    onClose();
  };
  return (
    <FormModal
      open={open}
      title={t('gateway.network.title')}
      okText={durationS > 0 ? t('gateway.network.open') : t('gateway.network.close')}
      cancelText={t('gateway.cancel')}
      confirmLoading={openNetwork.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      width={520}
    >
      <Typography.Paragraph type="secondary">{t('gateway.network.hint')}</Typography.Paragraph>
      <Typography.Text>{t('gateway.network.duration', { seconds: durationS })}</Typography.Text>
      <Slider min={0} max={254} step={1} value={durationS} onChange={setDurationS} data-testid="network-duration" />
    </FormModal>
  );
}

type MicrowaveValues = Partial<Record<MicrowaveField, number | null>>;

/** set_mawa_params: hold time, daylight threshold, detection and standby brightness of every microwave sensor. */
export function MicrowaveModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const { lang } = useBoot();
  const { message } = App.useApp();
  const [form] = Form.useForm<MicrowaveValues>();
  const save = useSetMicrowave();
  const rule = (field: MicrowaveField) => ({
    validator: async (_rule: unknown, value: number | null | undefined) => {
      const code: ErrorCode | undefined = microwaveProblem(field, value);
      if (code) throw new Error(errorMessage(code, lang));
    },
  });
  const submit = async () => {
    if (!gateway) return;
    const values = await form.validateFields();
    const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
    if (Object.keys(given).length === 0) {
      void message.warning(t('gateway.microwave.nothing'));
      return;
    }
    const done = await save.mutateAsync({ id: gateway.id, ...given });
    void message.success(t('gateway.microwave.saved', { count: done.count }));
    onClose();
  };
  return (
    <FormModal
      open={open}
      title={t('gateway.microwave.title')}
      okText={t('gateway.save')}
      cancelText={t('gateway.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">{t('gateway.microwave.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="microwave-form">
        <Row gutter={16}>
          {MICROWAVE_FIELDS.map((field) => (
            <Col span={12} key={field}>
              <Form.Item name={field} label={t(`gateway.microwave.${field}`)} rules={[rule(field)]}>
                <InputNumber style={{ width: '100%' }} placeholder={t(`gateway.microwave.${field}Range`)} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Form>
    </FormModal>
  );
}
