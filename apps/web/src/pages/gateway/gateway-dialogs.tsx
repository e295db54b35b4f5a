import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, App, Button, Col, Form, Input, InputNumber, Row, Select, Slider, Typography } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorMessage, type ErrorCode, type Gateway, type GatewayLookup } from '@lumigrid/contract/browser';
import {
  gatewayApi,
  useBindGateway,
  useChangeGatewayPlace,
  useImportDevices,
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
  macFromInput,
  checkOptionalGatewayName,
  checkReportInterval,
  type GatewayRuleKey,
} from '../../features/gateways/status.ts';
import { microwaveProblem, MICROWAVE_FIELDS, type MicrowaveField } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { MapPathSelect } from '../../features/projects/map-path-select.tsx';
import { useProjectTree, WHOLE_TREE } from '../../features/projects/api.ts';
import { createCurrentMapStore } from '../../features/projects/current-map.ts';
import { initialMapPath } from '../../features/projects/tree.ts';
import { useGatewayRule } from './rules.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { CodeScanner } from '../../features/gateways/code-scanner.tsx';
import { placingWalkUrl } from '../../features/devices/placing-walk.ts';

const mapOf = (path: string[] | undefined): GatewayRuleKey | undefined =>
  path && path.length === 3 ? undefined : 'gateway.rules.mapRequired';

interface DialogProps {
  open: boolean;
  onClose(): void;
}

/**
 * The frame of every gateway dialog: Cancel, an OK button busy while `onSubmit` runs, and the dialog kept open on a
 * refusal (the field or the server's message says why).
 */
function GatewayDialog({
  open,
  onClose,
  title,
  okText,
  pending,
  onSubmit,
  afterClose,
  width,
  children,
}: DialogProps & {
  title: string;
  /** Save, unless the dialog does something else. */
  okText?: string;
  pending: boolean;
  onSubmit(): Promise<void>;
  afterClose?(): void;
  width?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormModal
      open={open}
      title={title}
      okText={okText ?? t('gateway.save')}
      confirmLoading={pending}
      onSubmit={onSubmit}
      onCancel={onClose}
      afterClose={afterClose}
      width={width}
    >
      {children}
    </FormModal>
  );
}

/**
 * The form of a dialog that changes settings of one gateway: OK checks the fields, sends them with `save`, says
 * they were saved and closes.
 */
function useGatewaySettingsForm<V>(
  gateway: Gateway | undefined,
  onClose: () => void,
  save: (gateway: Gateway, values: V) => Promise<unknown>,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const submit = async () => {
    if (!gateway) return;
    await save(gateway, await form.validateFields());
    void message.success(t('gateway.saved'));
    onClose();
  };
  return { form, submit };
}

/**
 * Adds a gateway: its MAC typed, or read from its label with the camera (the QR code or the MAC barcode), bound
 * onto a map after a look-up says whether it can be. A gateway online at once has its devices imported, and
 * the installer is taken to the plan to place them one by one.
 */
export function BindGatewayModal({ open, onClose, initialPath }: DialogProps & { initialPath?: string[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const rule = useGatewayRule();
  const [form] = Form.useForm<{ mac: string; name?: string; path: string[] }>();
  const [lookup, setLookup] = useState<GatewayLookup>();
  const [scanning, setScanning] = useState(false);
  const bind = useBindGateway();
  const importDevices = useImportDevices();
  // The map the installer last looked at (or the account's likeliest): on site, the one the gateway goes on.
  const tree = useProjectTree(WHOLE_TREE);
  const suggestedPath = useMemo(() => initialPath ?? initialMapPath(tree.data, createCurrentMapStore().read()), [initialPath, tree.data]);
  useEffect(() => {
    if (open && suggestedPath && !form.getFieldValue('path')) form.setFieldValue('path', suggestedPath);
  }, [open, suggestedPath, form]);

  const look = async () => {
    const typed = (form.getFieldValue('mac') as string | undefined) ?? '';
    const mac = macFromInput(typed);
    setLookup(undefined);
    if (!mac) return;
    // A scanned code leaves its MAC in the field, so what is bound is what the field shows.
    if (mac !== typed.trim()) form.setFieldValue('mac', mac);
    setLookup(await gatewayApi.lookup(mac).catch(() => undefined));
  };

  const scanned = (mac: string) => {
    setScanning(false);
    form.setFieldValue('mac', mac);
    void form.validateFields(['mac']).catch(() => undefined);
    void message.success(t('gateway.scan.read', { mac }));
    void look();
  };

  const submit = async () => {
    const values = await form.validateFields();
    const name = values.name?.trim();
    const mapId = values.path[2] ?? '';
    // A refusal (a MAC never provisioned or another account's, one answer for both) is shown in the server's words.
    const gateway = await bind.mutateAsync({ mac: macFromInput(values.mac) ?? values.mac.trim(), mapId, ...(name ? { name } : {}) });
    void message.success(t('gateway.bound', { name: gateway.name }));
    onClose();
    if (!gateway.online) {
      void message.info(t('gateway.scan.importLater', { name: gateway.name }));
      return;
    }
    const imported = await importDevices.mutateAsync(gateway.id).catch(() => undefined);
    if (!imported) return;
    void message.success(t('gateway.imported', { imported: imported.imported, total: imported.total }));
    if (imported.total > 0) void navigate(placingWalkUrl(mapId, gateway.id));
  };

  const hint: Record<GatewayLookup['state'], { type: 'success' | 'info' | 'error' | 'warning'; key: string }> = {
    pool: { type: 'success', key: 'gateway.lookup.pool' },
    yours: { type: 'info', key: 'gateway.lookup.yours' },
    unavailable: { type: 'warning', key: 'gateway.lookup.unavailable' },
  };

  return (
    <GatewayDialog
      open={open}
      onClose={onClose}
      title={t('gateway.bindTitle')}
      okText={t('gateway.bind')}
      pending={bind.isPending || importDevices.isPending}
      onSubmit={submit}
      afterClose={() => {
        setLookup(undefined);
        setScanning(false);
      }}
      width={560}
    >
      {scanning ? (
        <>
          <CodeScanner onCode={(code) => scanned(code.mac)} />
          <Button block onClick={() => setScanning(false)} style={{ marginBottom: 16 }} data-testid="scan-stop">
            {t('gateway.scan.stop')}
          </Button>
        </>
      ) : (
        <Button block icon={<CameraOutlined />} onClick={() => setScanning(true)} style={{ marginBottom: 16 }} data-testid="scan-start">
          {t('gateway.scan.start')}
        </Button>
      )}
      <Form form={form} layout="vertical" initialValues={{ path: suggestedPath }} data-testid="bind-form">
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
            data-testid="bind-lookup"
          />
        )}
        <Form.Item name="path" label={t('gateway.field.place')} rules={[rule(mapOf, true)]}>
          <MapPathSelect />
        </Form.Item>
        <Form.Item name="name" label={t('gateway.field.name')} rules={[rule(checkOptionalGatewayName)]} extra={t('gateway.nameHint')}>
          <Input placeholder={t('gateway.namePlaceholder')} />
        </Form.Item>
      </Form>
    </GatewayDialog>
  );
}

/** Renames a gateway (1-50 characters). */
export function RenameGatewayModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const rule = useGatewayRule();
  const rename = useRenameGateway();
  const { form, submit } = useGatewaySettingsForm<{ name: string }>(gateway, onClose, ({ id }, { name }) =>
    rename.mutateAsync({ id, name: name.trim() }),
  );
  return (
    <GatewayDialog open={open} onClose={onClose} title={t('gateway.renameTitle')} pending={rename.isPending} onSubmit={submit}>
      <Form form={form} layout="vertical" initialValues={{ name: gateway?.name }}>
        <Form.Item name="name" label={t('gateway.field.name')} rules={[rule(checkGatewayName, true)]}>
          <Input autoFocus />
        </Form.Item>
      </Form>
    </GatewayDialog>
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
    <GatewayDialog open={open} onClose={onClose} title={t('gateway.moveTitle')} pending={move.isPending} onSubmit={submit}>
      <Form form={form} layout="vertical" initialValues={{ path: gateway ? [gateway.projectId, gateway.buildId, gateway.mapId] : [] }}>
        <Form.Item name="path" label={t('gateway.field.place')} rules={[rule(mapOf, true)]}>
          <MapPathSelect />
        </Form.Item>
      </Form>
    </GatewayDialog>
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
  const rule = useGatewayRule();
  const save = useSetGatewayParams();
  const { form, submit } = useGatewaySettingsForm<ParamsValues>(gateway, onClose, ({ id }, values) => {
    const timezone = values.timezone?.trim();
    return save.mutateAsync({
      id,
      ...(timezone ? { timezone } : {}),
      ...(values.reportIntervalS != null ? { reportIntervalS: values.reportIntervalS } : {}),
      ...(values.channel != null ? { channel: values.channel } : {}),
      ...(values.largeGroupNumber != null ? { largeGroupNumber: values.largeGroupNumber } : {}),
      ...(values.sensorMode ? { sensorMode: values.sensorMode } : {}),
    });
  });
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
    <GatewayDialog open={open} onClose={onClose} title={t('gateway.paramsTitle')} pending={save.isPending} onSubmit={submit} width={560}>
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
    </GatewayDialog>
  );
}

/** Sets longitude and latitude (spec section 5: -180..180, -90..90, at most two decimals). */
export function GatewayLonLatModal({ open, onClose, gateway }: DialogProps & { gateway?: Gateway }) {
  const { t } = useTranslation();
  const rule = useGatewayRule();
  const save = useSetGatewayLonLat();
  const { form, submit } = useGatewaySettingsForm<{ longitude: number; latitude: number }>(gateway, onClose, ({ id }, values) =>
    save.mutateAsync({ id, longitude: values.longitude, latitude: values.latitude }),
  );
  return (
    <GatewayDialog open={open} onClose={onClose} title={t('gateway.lonLatTitle')} pending={save.isPending} onSubmit={submit}>
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
    </GatewayDialog>
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
    <GatewayDialog
      open={open}
      onClose={onClose}
      title={t('gateway.network.title')}
      okText={durationS > 0 ? t('gateway.network.open') : t('gateway.network.close')}
      pending={openNetwork.isPending}
      onSubmit={submit}
      width={520}
    >
      <Typography.Paragraph type="secondary">{t('gateway.network.hint')}</Typography.Paragraph>
      <Typography.Text>{t('gateway.network.duration', { seconds: durationS })}</Typography.Text>
      <Slider min={0} max={254} step={1} value={durationS} onChange={setDurationS} data-testid="network-duration" />
    </GatewayDialog>
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
    <GatewayDialog
      open={open}
      onClose={onClose}
      title={t('gateway.microwave.title')}
      pending={save.isPending}
      onSubmit={submit}
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
    </GatewayDialog>
  );
}
