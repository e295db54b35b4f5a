import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Form, Input, Radio, Select, Slider, Space, Typography } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GROUP_LIMITS,
  errorMessage,
  isErrorCode,
  takesLightAction,
  type ControlManyRequest,
  type DeviceMarker,
  type Gateway,
  type GroupOp,
} from '@lumigrid/contract/browser';
import { currentLang } from '../../i18n/index.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { groupApi, groupKeys, useAddGroup } from '../../features/groups/api.ts';
import { useControlMany } from '../../features/devices/api.ts';
import { sceneApi, useScenePage, useUpdateScene } from '../../features/scenes/api.ts';
import { deviceControls, fitAction } from '../../features/scenes/members.ts';
import { byGateway, groupNames, withSceneMembers, type PlanSelection } from '../../features/devices/plan-selection.ts';
import { OnOffButtons } from '../../features/devices/on-off-buttons.tsx';
import { useReportedHeight } from '../../components/use-reported-height.ts';
import './plan-selection.css';

interface Props {
  mapId: string;
  /** The map's project, whose scenes the selection may join. */
  projectId: string;
  selection: PlanSelection;
  /** The plan's markers, for what the selected devices can do. */
  markers: readonly DeviceMarker[];
  gateways: readonly Gateway[];
  canControl: boolean;
  canEdit: boolean;
  onClear: () => void;
  /** Select mode is on: "Done" leaves it (the selection stays until cleared). */
  selecting: boolean;
  onDone: () => void;
  /** A phone: the plan shrinks so this sits at the bottom of the screen, within reach of the thumb. */
  sheet?: boolean;
  /** The bar's height as it changes (the plan above a phone's sheet gives up that much). */
  onHeight?: (px: number) => void;
}

const problemOf = (code: number) => (isErrorCode(code) ? errorMessage(code, currentLang()) : String(code));

/**
 * What to do with the devices selected on the plan: switch or dim them at once (one command per gateway,
 * sent by the server), or make a group of them. Below the plan; on a phone the plan leaves it the bottom of the screen.
 */
export function PlanSelectionBar({
  mapId,
  projectId,
  selection,
  markers,
  gateways,
  canControl,
  canEdit,
  onClear,
  selecting,
  onDone,
  sheet = false,
  onHeight,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const control = useControlMany();
  const [brightness, setBrightness] = useState(100);
  const [grouping, setGrouping] = useState(false);
  const [scening, setScening] = useState(false);

  const bar = useReportedHeight<HTMLElement>(onHeight);

  const types = useMemo(() => markers.filter((m) => selection.has(m.id)).map((m) => m.type), [markers, selection]);
  const can = (op: GroupOp) => types.some((code) => takesLightAction(code, op));

  const send = async (action: ControlManyRequest['action']) => {
    const result = await control.mutateAsync({ ids: [...selection], action });
    const failed = result.gateways.filter((g) => g.code !== 0);
    const reached = result.gateways.length - failed.length;
    if (reached > 0) void message.success(t('deviceMap.selection.sent', { count: reached }));
    for (const g of failed)
      void message.warning(t('deviceMap.selection.gatewayProblem', { name: g.gatewayName, problem: problemOf(g.code) }));
  };
  const run = (action: ControlManyRequest['action']) => void send(action).catch(() => undefined);

  return (
    <section
      ref={bar}
      className={sheet ? 'lg-plan-selection lg-plan-selection-sheet' : 'lg-plan-selection'}
      aria-label={t('deviceMap.selection.label')}
      data-testid="plan-selection"
    >
      <div className="lg-plan-selection-head">
        <Typography.Text strong role="status" data-testid="plan-selection-count">
          {selection.size === 0 ? t('deviceMap.selection.hint') : t('deviceMap.selection.count', { count: selection.size })}
        </Typography.Text>
        <Space wrap>
          {selection.size > 0 && (
            <Button onClick={onClear} data-testid="plan-selection-clear">
              {t('deviceMap.selection.clear')}
            </Button>
          )}
          {selecting && (
            <Button onClick={onDone} data-testid="plan-selection-done">
              {t('deviceMap.selection.close')}
            </Button>
          )}
        </Space>
      </div>
      {selection.size > 0 && (
        <div className="lg-plan-selection-actions">
          {canControl && (
            <>
              {!can('onOff') && <Alert type="info" showIcon message={t('deviceMap.selection.noLights')} />}
              <OnOffButtons
                disabled={!can('onOff')}
                loading={control.isPending}
                onSwitch={(on) => run({ op: 'onOff', on })}
                labels={{ on: t('deviceMap.selection.on'), off: t('deviceMap.selection.off') }}
                testIdPrefix="plan-selection"
              />
              {can('brightness') && (
                <div className="lg-plan-selection-dim">
                  <Typography.Text id="plan-selection-brightness">{t('deviceMap.selection.brightness')}</Typography.Text>
                  <Slider
                    min={0}
                    max={100}
                    value={brightness}
                    onChange={setBrightness}
                    onChangeComplete={(percent) => run({ op: 'brightness', percent })}
                    tooltip={{ formatter: (v) => `${v} %` }}
                    ariaLabelledByForHandle="plan-selection-brightness"
                    style={{ flex: 1, minWidth: 120 }}
                    data-testid="plan-selection-brightness"
                  />
                  <Typography.Text type="secondary" style={{ width: 48, textAlign: 'end' }}>
                    {brightness} %
                  </Typography.Text>
                </div>
              )}
            </>
          )}
          {canEdit && (
            <Space wrap>
              <Button onClick={() => setGrouping(true)} data-testid="plan-selection-group">
                {t('deviceMap.selection.makeGroup')}
              </Button>
              <Button onClick={() => setScening(true)} data-testid="plan-selection-scene">
                {t('deviceMap.selection.addToScene')}
              </Button>
            </Space>
          )}
        </div>
      )}
      <MakeGroupModal
        open={grouping}
        mapId={mapId}
        selection={selection}
        gateways={gateways}
        onClose={() => setGrouping(false)}
        onMade={() => {
          setGrouping(false);
          onClear();
        }}
      />
      <AddToSceneModal
        open={scening}
        projectId={projectId}
        devices={markers.filter((m) => selection.has(m.id))}
        onClose={() => setScening(false)}
        onAdded={() => {
          setScening(false);
          onClear();
        }}
      />
    </section>
  );
}

interface MakeGroupProps {
  open: boolean;
  mapId: string;
  selection: PlanSelection;
  gateways: readonly Gateway[];
  onClose: () => void;
  onMade: () => void;
}

/**
 * A group of the selection: a group lives on one gateway, so a selection spanning gateways becomes one group
 * on each, numbered; the names are shown before anything is made. The server checks the grouping rules.
 */
function MakeGroupModal({ open, mapId, selection, gateways, onClose, onMade }: MakeGroupProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const name = Form.useWatch('name', form) ?? '';
  const add = useAddGroup();
  const [making, setMaking] = useState(false);
  // Which gateway each selected device is on: the devices each gateway of the map has on it.
  const candidates = useQueries({
    queries: gateways.map((g) => ({
      queryKey: groupKeys.candidates(mapId, g.id, '0'),
      queryFn: ({ signal }: { signal: AbortSignal }) => groupApi.candidates(mapId, g.id, '0', signal),
      enabled: open,
    })),
  });
  const loaded = candidates.every((c) => c.data !== undefined);
  const split = byGateway(
    selection,
    gateways.map((g, i) => ({
      gatewayId: g.id,
      gatewayName: g.name || g.mac,
      deviceIds: new Set((candidates[i]?.data ?? []).map((d) => d.id)),
    })),
  );
  const names = groupNames(name, split.parts.length, GROUP_LIMITS.name.max);

  useEffect(() => {
    if (open) form.setFieldsValue({ name: '' });
  }, [open, form]);

  const submit = async () => {
    await form.validateFields();
    setMaking(true);
    let made = 0;
    try {
      for (const [i, part] of split.parts.entries()) {
        await add.mutateAsync({ mapId, gatewayId: part.gatewayId, name: names[i]!, deviceIds: part.ids });
        made += 1;
      }
    } finally {
      setMaking(false);
      if (made > 0) void message.success(t('deviceMap.selection.groupsMade', { count: made }));
    }
    onMade();
  };

  return (
    <FormModal
      open={open}
      title={t('deviceMap.selection.groupTitle', { count: selection.size })}
      okText={t('groups.save')}
      confirmLoading={making || !loaded}
      okButtonProps={{ disabled: !loaded || split.parts.length === 0, 'data-testid': 'plan-group-save' }}
      onSubmit={submit}
      onCancel={onClose}
      data-testid="plan-group-form"
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="name"
          label={t('groups.name')}
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
          <Input placeholder={t('groups.namePlaceholder')} maxLength={GROUP_LIMITS.name.max + 10} data-testid="plan-group-name" />
        </Form.Item>
      </Form>
      {split.parts.length > 1 && (
        <Alert
          type="info"
          showIcon
          message={t('deviceMap.selection.perGateway', { count: split.parts.length })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {split.parts.map((part, i) => (
                <li key={part.gatewayId}>
                  {names[i] || '…'} · {part.gatewayName} · {part.ids.length}
                </li>
              ))}
            </ul>
          }
          data-testid="plan-group-per-gateway"
        />
      )}
      {split.unknown.length > 0 && loaded && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 8 }}
          message={t('deviceMap.selection.notOnGateway', { count: split.unknown.length })}
        />
      )}
    </FormModal>
  );
}

interface AddToSceneProps {
  open: boolean;
  projectId: string;
  devices: readonly DeviceMarker[];
  onClose: () => void;
  onAdded: () => void;
}

/**
 * The selection joins a scene of the project: on (at a brightness) or off, each device as far as it can take
 * it. Saving the scene sends each gateway its part, as the scene editor does; a gateway that did not take it
 * is named.
 */
function AddToSceneModal({ open, projectId, devices, onClose, onAdded }: AddToSceneProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const scenes = useScenePage(open ? { projectId, pageSize: 200 } : undefined);
  const update = useUpdateScene();
  const [sceneId, setSceneId] = useState<string>();
  const [on, setOn] = useState(true);
  const [percent, setPercent] = useState(100);
  const [saving, setSaving] = useState(false);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (!open) return;
    setSceneId(undefined);
    setMissing(false);
  }, [open]);

  const submit = async () => {
    if (!sceneId) {
      setMissing(true);
      return;
    }
    setSaving(true);
    try {
      const detail = await sceneApi.get(sceneId);
      const { fields, added } = withSceneMembers(detail.fields, devices, (type) => fitAction({ on, percent }, deviceControls(type)));
      const result = await update.mutateAsync({ id: sceneId, ...fields });
      void message.success(t('deviceMap.selection.addedToScene', { count: added, name: detail.name }));
      for (const part of result.sync.filter((p) => p.code !== 0))
        void message.warning(t('deviceMap.selection.gatewayProblem', { name: part.gatewayName, problem: problemOf(part.code) }));
      onAdded();
    } finally {
      setSaving(false);
    }
  };

  const options = (scenes.data?.list ?? []).map((scene) => ({ value: scene.id, label: scene.name }));
  return (
    <FormModal
      open={open}
      title={t('deviceMap.selection.sceneTitle', { count: devices.length })}
      okText={t('groups.save')}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'plan-scene-save' }}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Form layout="vertical" requiredMark={false}>
        <Form.Item
          label={t('deviceMap.selection.scene')}
          validateStatus={missing ? 'error' : undefined}
          help={missing ? t('deviceMap.selection.sceneRequired') : undefined}
        >
          <Select
            value={sceneId}
            options={options}
            loading={scenes.isLoading}
            showSearch
            optionFilterProp="label"
            placeholder={t('deviceMap.selection.scenePlaceholder')}
            notFoundContent={t('deviceMap.selection.noScenes')}
            aria-label={t('deviceMap.selection.scene')}
            onChange={(value: string) => {
              setSceneId(value);
              setMissing(false);
            }}
            data-testid="plan-scene-select"
          />
        </Form.Item>
        <Form.Item label={t('deviceMap.selection.sceneAction')}>
          <Radio.Group
            optionType="button"
            value={on}
            onChange={(event) => setOn(event.target.value as boolean)}
            options={[
              { value: true, label: t('deviceMap.selection.sceneOn') },
              { value: false, label: t('deviceMap.selection.sceneOff') },
            ]}
          />
          {on && (
            <div className="lg-plan-selection-dim" style={{ marginTop: 12 }}>
              <Typography.Text id="plan-scene-brightness">{t('deviceMap.selection.brightness')}</Typography.Text>
              <Slider
                min={0}
                max={100}
                value={percent}
                onChange={setPercent}
                ariaLabelledByForHandle="plan-scene-brightness"
                style={{ flex: 1, minWidth: 120 }}
              />
              <Typography.Text type="secondary" style={{ width: 48, textAlign: 'end' }}>
                {percent} %
              </Typography.Text>
            </div>
          )}
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('deviceMap.selection.firstStep')}
      </Typography.Paragraph>
    </FormModal>
  );
}
