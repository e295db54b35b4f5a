import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, ColorPicker, Descriptions, Divider, Slider, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CCT_MAX_K,
  CCT_MIN_K,
  inFamily,
  splitChannelNames,
  type ControlAction,
  type Device,
  type DeviceMarker,
  type ProjectTree,
} from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { useDeviceControl, useDeviceDetail, useIdentifyDevice } from './api.ts';
import { channelNames, hasAnyControl, panelControls, reportedValues, switchesOnly } from './device-controls.ts';
import { MoveForm, RenameForm } from './device-panel-forms.tsx';
import { useGatewayDetail } from '../gateways/api.ts';
import { ValueAge } from '../../components/value-age.tsx';
import { DISPLAY_FILL, markerKind } from '../../components/device-markers/marker-model.ts';
import { BackToAutomatic } from '../automation/back-to-automatic.tsx';
import { HandIcon } from '../automation/hand-icon.tsx';
import { pathOfMap } from '../projects/tree.ts';
import { PanelKeysSection } from './device-panel-keys.tsx';
import { PanelLockSection } from './panel-lock-section.tsx';
import { DeviceChangesSection } from '../audit/device-changes.tsx';
import { useSiteTime, type TimeFormatter } from '../projects/site-time.ts';
import { usePhone } from '../../components/use-phone.ts';
import { PlanSideDrawer } from './plan-side-drawer.tsx';

/** How long the panel waits for the gateway's report after it confirmed a command before it says none came. */
export const REPORT_WAIT_MS = 10_000;

interface Pending {
  /** Which control sent it (the one that shows the spinner). */
  control: string;
  /** The status string when it was sent: a different one is the report. */
  status: string;
  confirmed: boolean;
}

export interface DevicePanelProps {
  mapId: string;
  marker: DeviceMarker | undefined;
  /** May send commands (owner, editable, controllable). */
  canControl: boolean;
  /** May rename and move (owner, editable). */
  canEdit: boolean;
  tree: ProjectTree | undefined;
  onClose: () => void;
}

/**
 * The device panel of the floor plan: the reported state and the controls the type allows. Values shown are
 * always the reported ones: a command shows a spinner until the gateway's report changes the marker, and a
 * failed or unanswered command says so here, next to the control.
 */
export function DevicePanel({ mapId, marker, canControl, canEdit, tree, onClose }: DevicePanelProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const control = useDeviceControl();
  const identify = useIdentifyDevice();
  const detail = useDeviceDetail(mapId, marker?.id);
  const gatewayOfDevice = useGatewayDetail(detail.data?.gatewayId);
  const { time } = useSiteTime({ mapId });
  const [pending, setPending] = useState<Pending>();
  const [failure, setFailure] = useState<string>();
  const [waitedTooLong, setWaitedTooLong] = useState(false);
  const shownFor = useRef<string | undefined>(undefined);
  const phone = usePhone();

  // A new report of the device (its marker's status changed, live): what it measured changed with it.
  const status = marker?.status;
  const { refetch } = detail;
  useEffect(() => {
    if (status !== undefined) void refetch();
  }, [status, refetch]);

  // Escape closes the panel wherever the focus is (after a marker click it stays on the plan).
  const open = marker !== undefined;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  // A different device: forget the previous one's command.
  useEffect(() => {
    if (shownFor.current === marker?.id) return;
    shownFor.current = marker?.id;
    setPending(undefined);
    setFailure(undefined);
    setWaitedTooLong(false);
  }, [marker?.id]);

  // The report arrived: the marker's status changed since the command went out.
  useEffect(() => {
    if (pending && marker && marker.status !== pending.status) {
      setPending(undefined);
      setWaitedTooLong(false);
    }
  }, [marker, pending]);

  // Confirmed but no report: say so after a while rather than spin for ever.
  useEffect(() => {
    if (!pending?.confirmed) return;
    const timer = setTimeout(() => {
      setPending(undefined);
      setWaitedTooLong(true);
    }, REPORT_WAIT_MS);
    return () => clearTimeout(timer);
  }, [pending]);

  if (!marker) return null;
  const controls = panelControls(marker.type);
  const values = reportedValues(marker.type, marker.status);
  const offline = marker.display === 'offline';
  const disabled = !canControl || pending !== undefined;

  const send = async (name: string, action: ControlAction) => {
    setFailure(undefined);
    setWaitedTooLong(false);
    setPending({ control: name, status: marker.status, confirmed: false });
    try {
      await control.mutateAsync({ id: marker.id, action });
      setPending((p) => (p && p.control === name ? { ...p, confirmed: true } : p));
    } catch (error) {
      setPending(undefined);
      setFailure(error instanceof ApiError ? error.message : String(error));
    }
  };
  const busy = (name: string) => pending?.control === name;

  const tryMe = async () => {
    setFailure(undefined);
    try {
      await identify.mutateAsync(marker.id);
      void message.success(t('deviceControl.identified', { name: marker.name }));
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : String(error));
    }
  };

  // Channels are labelled by their own names once the switch has one per channel, else by number.
  const names = splitChannelNames(marker.name).length === controls.channels ? channelNames(marker.name, controls.channels) : [];
  const switchRow = (
    key: string,
    label: ReactNode,
    checked: boolean | undefined,
    testId: string,
    action: (on: boolean) => ControlAction,
  ) => ({
    key,
    label,
    node: (
      <Switch
        checked={checked ?? false}
        loading={busy(key)}
        disabled={disabled}
        onChange={(on) => void send(key, action(on))}
        checkedChildren={t('deviceControl.on')}
        unCheckedChildren={t('deviceControl.off')}
        data-testid={testId}
      />
    ),
  });
  const sliderRow = (
    key: string,
    label: ReactNode,
    value: number | undefined,
    scale: SliderScale,
    action: (n: number) => ControlAction,
  ) => ({
    key,
    label,
    node: (
      <ReportedSlider
        testId={`control-${key}`}
        value={value}
        {...scale}
        disabled={disabled}
        busy={busy(key)}
        onCommit={(n) => void send(key, action(n))}
      />
    ),
  });
  const rows: Array<{ key: string; label: ReactNode; node: ReactNode }> = [];
  if (controls.onOff) rows.push(switchRow('onOff', t('deviceControl.power'), values.on, 'control-onoff', (on) => ({ op: 'onOff', on })));
  if (controls.brightness) {
    rows.push(
      sliderRow('brightness', t('deviceControl.brightness'), values.brightness, PERCENT, (percent) => ({ op: 'brightness', percent })),
    );
  }
  if (controls.cct) rows.push(sliderRow('cct', t('deviceControl.cct'), values.kelvin, KELVIN, (kelvin) => ({ op: 'cct', kelvin })));
  if (controls.rgb) {
    rows.push({
      key: 'rgb',
      label: t('deviceControl.color'),
      node: (
        <Space>
          <ColorPicker
            value={values.color ?? '#ffffff'}
            disabled={disabled}
            disabledAlpha
            onChangeComplete={(color) => void send('rgb', { op: 'rgb', color: color.toHexString().slice(0, 7) })}
            showText
            data-testid="control-rgb"
          />
          {busy('rgb') && <Typography.Text type="secondary">{t('deviceControl.waiting')}</Typography.Text>}
        </Space>
      ),
    });
  }
  if (controls.curtain) {
    rows.push({
      key: 'curtain',
      label: t('deviceControl.curtain'),
      node: (
        <Space wrap>
          {(['open', 'stop', 'close'] as const).map((command) => (
            <Button
              key={command}
              size="small"
              disabled={disabled}
              loading={busy(`curtain-${command}`)}
              onClick={() => void send(`curtain-${command}`, { op: 'curtain', command })}
            >
              {t(`deviceControl.curtainCommands.${command}`)}
            </Button>
          ))}
          {values.motion && values.motion !== 'stopped' && <Tag color="processing">{t(`deviceControl.motion.${values.motion}`)}</Tag>}
        </Space>
      ),
    });
    rows.push(sliderRow('position', t('deviceControl.position'), values.position, PERCENT, (percent) => ({ op: 'position', percent })));
  }
  for (let channel = 1; channel <= controls.channels; channel++) {
    const key = `channel-${channel}`;
    const label = names[channel - 1] || t('deviceControl.channel', { n: channel });
    rows.push(switchRow(key, label, values.channels?.[channel - 1], `control-${key}`, (on) => ({ op: 'channel', channel, on })));
  }

  const device = detail.data;
  return (
    <PlanSideDrawer
      onClose={onClose}
      title={
        <Space>
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 12,
              height: 12,
              borderRadius: 6,
              border: '1px solid #8c8c8c',
              background: DISPLAY_FILL[marker.display],
            }}
          />
          <span data-testid="device-panel-name">{marker.name}</span>
        </Space>
      }
      extra={<Tag>{t(`deviceControl.kinds.${markerKind(marker.type)}`)}</Tag>}
      testId="device-panel"
      rootClassName="lg-device-panel"
    >
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        <div data-testid="device-panel-state">
          <Typography.Text type="secondary">{t('deviceControl.state')}: </Typography.Text>
          <Typography.Text strong>{t(`deviceControl.display.${marker.display}`)}</Typography.Text>
          {marker.manual && (
            <Tag color="purple" bordered={false} style={{ marginInlineStart: 8 }} data-testid="device-panel-manual">
              <HandIcon style={{ marginInlineEnd: 4 }} />
              {t('automation.auto.byHand')}
            </Tag>
          )}
        </div>
        {offline && <Alert type="warning" showIcon message={t('deviceControl.offlineHint')} />}
        {!canControl && <Alert type="info" showIcon message={t('deviceControl.viewOnly')} />}
        {failure && (
          <Alert
            type="error"
            showIcon
            message={t('deviceControl.commandFailed')}
            description={failure}
            closable
            onClose={() => setFailure(undefined)}
            data-testid="control-failure"
          />
        )}
        {waitedTooLong && <Alert type="warning" showIcon message={t('deviceControl.noReport')} data-testid="control-no-report" />}
        {pending?.confirmed && (
          <Typography.Text type="secondary" data-testid="control-waiting">
            {t('deviceControl.waiting')}
          </Typography.Text>
        )}
        {hasAnyControl(controls) ? (
          <div>
            {rows.map((row) => (
              <div key={row.key} style={{ display: 'flex', alignItems: 'center', gap: 12, minHeight: phone ? 48 : 40 }}>
                <Typography.Text style={{ width: phone ? 96 : 110, flex: 'none' }}>{row.label}</Typography.Text>
                <div style={{ flex: 1 }}>{row.node}</div>
              </div>
            ))}
          </div>
        ) : (
          <Typography.Text type="secondary">{t('deviceControl.noControls')}</Typography.Text>
        )}
        {switchesOnly(marker.type) && (
          <Typography.Text type="secondary" data-testid="device-panel-switch-only">
            {t('deviceControl.switchOnly')}
          </Typography.Text>
        )}
        {canControl && (
          <Button onClick={() => void tryMe()} loading={identify.isPending} data-testid="control-identify">
            {t('deviceControl.identify')}
          </Button>
        )}
        {marker.manual && (
          <BackToAutomatic
            key={marker.id}
            deviceIds={[marker.id]}
            hint={t('automation.auto.deviceManual')}
            manual
            canControl={canControl}
            disabled={offline}
          />
        )}
        {inFamily('scenePanel', marker.type) && (
          <>
            <Divider style={{ margin: '4px 0' }} />
            <PanelKeysSection
              key={marker.id}
              panelId={marker.id}
              gatewayId={device?.gatewayId}
              projectId={tree ? pathOfMap(tree, mapId)?.[0] : undefined}
              canEdit={canEdit}
            />
          </>
        )}
        {inFamily('panel', marker.type) && (
          <>
            <Divider style={{ margin: '4px 0' }} />
            <PanelLockSection key={marker.id} panelId={marker.id} type={marker.type} status={marker.status} offline={offline} />
          </>
        )}
        <Divider style={{ margin: '4px 0' }} />
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'addr', label: t('deviceControl.fields.addr'), children: device?.addr ?? '—' },
            { key: 'model', label: t('deviceControl.fields.model'), children: device?.model || '—' },
            { key: 'firmware', label: t('deviceControl.fields.firmware'), children: device?.firmware || '—' },
            {
              key: 'lastUpdate',
              label: t('deviceControl.fields.lastUpdate'),
              children: <span data-testid="device-last-update">{time(device?.lastUpdate, 'second')}</span>,
            },
          ]}
        />
        {device && (
          <TelemetrySection device={device} time={time} reportIntervalS={gatewayOfDevice.data?.settings.reportIntervalS ?? null} />
        )}
        <DeviceChangesSection key={`changes-${marker.id}`} deviceId={marker.id} status={marker.status} time={time} />
        {canEdit && (
          <>
            <Divider style={{ margin: '4px 0' }} />
            <RenameForm key={marker.id} marker={marker} channels={controls.channels} />
            <MoveForm key={`move-${marker.id}`} mapId={mapId} marker={marker} tree={tree} onGone={onClose} />
          </>
        )}
      </Space>
    </PlanSideDrawer>
  );
}

/** The last telemetry sample (device_telemetry) with units: only what the device measures. */
const TELEMETRY_FIELDS = [
  ['voltage', 'V', 1],
  ['current', 'A', 3],
  ['power', 'W', 1],
  ['energyWh', 'Wh', 1],
  ['illumination', 'lx', 0],
  ['battery', '%', 0],
  ['temperature', '°C', 1],
] as const satisfies ReadonlyArray<readonly [keyof Device, string, number]>;

/** `reportIntervalS`: the device's gateway's, which says when a measurement is stale. */
function TelemetrySection({
  device,
  time,
  reportIntervalS,
}: {
  device: Device;
  time: TimeFormatter['time'];
  reportIntervalS: number | null;
}) {
  const { t } = useTranslation();
  const items: Array<{ key: string; label: ReactNode; children: ReactNode }> = TELEMETRY_FIELDS.flatMap(([key, unit, digits]) => {
    const value = device[key];
    if (typeof value !== 'number') return [];
    const shown = Number(value.toFixed(digits)).toLocaleString(undefined, { maximumFractionDigits: digits });
    return [
      { key, label: t(`deviceControl.telemetry.${key}`), children: <span data-testid={`telemetry-${key}`}>{`${shown} ${unit}`}</span> },
    ];
  });
  if (items.length === 0) return null;
  if (device.telemetryAt)
    items.push({
      key: 'at',
      label: t('deviceControl.telemetry.at'),
      children: (
        <Space size={8} wrap>
          <span data-testid="telemetry-at">{time(device.telemetryAt, 'second')}</span>
          <ValueAge at={device.telemetryAt} reportIntervalS={reportIntervalS} testId="telemetry-age" />
        </Space>
      ),
    });
  return (
    <div data-testid="device-telemetry">
      <Divider style={{ margin: '4px 0' }} />
      <Typography.Text strong>{t('deviceControl.telemetry.title')}</Typography.Text>
      <Descriptions size="small" column={1} items={items} />
    </div>
  );
}

/** A slider's range and how its value reads. */
interface SliderScale {
  min: number;
  max: number;
  step?: number;
  unit: string;
}

const PERCENT: SliderScale = { min: 0, max: 100, unit: '%' };
const KELVIN: SliderScale = { min: CCT_MIN_K, max: CCT_MAX_K, step: 100, unit: ' K' };

/** A slider that shows the reported value and sends only when the user lets go. */
function ReportedSlider(
  props: SliderScale & {
    testId: string;
    value: number | undefined;
    disabled: boolean;
    busy: boolean;
    onCommit: (value: number) => void;
  },
) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState<number>();
  const shown = dragging ?? props.value ?? props.min;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }} data-testid={props.testId}>
      <Slider
        style={{ flex: 1 }}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        value={shown}
        disabled={props.disabled}
        onChange={setDragging}
        onChangeComplete={(value) => {
          setDragging(undefined);
          if (value !== props.value) props.onCommit(value);
        }}
        tooltip={{ formatter: (v) => `${v ?? 0}${props.unit}` }}
      />
      <Typography.Text style={{ width: 64, textAlign: 'right' }} type={props.busy ? 'secondary' : undefined}>
        {props.value === undefined ? '—' : `${props.value}${props.unit}`}
      </Typography.Text>
      {props.busy && <span className="ant-typography ant-typography-secondary">{t('deviceControl.sending')}</span>}
    </div>
  );
}
