import { useEffect, useState, type ReactNode } from 'react';
import { Alert, App, Descriptions, Drawer, Slider, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CCT_MAX_K, CCT_MIN_K, deviceType, type DeviceMarker, type GroupControlRequest, type GroupOp } from '@lumigrid/contract/browser';
import { useControlGroup, useGroup } from '../groups/api.ts';
import { groupStateNotes } from '../groups/group-state.ts';
import { BackToAutomatic } from '../automation/back-to-automatic.tsx';
import { HandIcon } from '../automation/hand-icon.tsx';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { switchesOnly } from './device-controls.ts';
import { OnOffButtons } from './on-off-buttons.tsx';
import { usePhone } from '../../components/use-phone.ts';

/** A slider with the value it stands at written beside it, as the device panel shows it. */
function SliderRow({ value, children }: { value: string; children: ReactNode }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <div style={{ flex: 1 }}>{children}</div>
      <Typography.Text style={{ width: 64, textAlign: 'right' }} data-testid="group-slider-value">
        {value}
      </Typography.Text>
    </div>
  );
}

interface Props {
  groupId: string | undefined;
  canControl: boolean;
  onClose: () => void;
}

/**
 * A group's control panel: on/off, brightness and colour temperature for the whole group, then each member
 * with the state its gateway reported. The members change when the reports arrive, not when the command is sent.
 */
export function GroupControlDrawer({ groupId, canControl, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const phone = usePhone();
  // The group stays shown while the drawer closes, so its content does not blank out during the animation.
  const [shownId, setShownId] = useState(groupId);
  useEffect(() => {
    if (groupId) setShownId(groupId);
  }, [groupId]);
  const group = useGroup(shownId);
  const control = useControlGroup();
  const [brightness, setBrightness] = useState(100);
  const [kelvin, setKelvin] = useState(4000);
  const [last, setLast] = useState<string>();
  useEffect(() => setLast(undefined), [groupId]);

  const data = group.data;
  const manualCount = data?.members.filter((m) => m.manual).length ?? 0;
  const types = data?.members.map((m) => m.type) ?? [];
  const switchOnlyCount = types.filter(switchesOnly).length;
  const can = (op: GroupOp) =>
    types.some((code) => {
      const info = deviceType(code);
      return info ? { onOff: info.onOff, brightness: info.dimmable, cct: info.cct, rgb: info.rgb }[op] : false;
    });

  const send = async (action: GroupControlRequest['action']) => {
    if (!groupId) return;
    const result = await control.mutateAsync({ id: groupId, action });
    setLast(result.mode === 'group' ? t('groups.sentGroup') : t('groups.sentUnicast', { count: result.frames }));
    void message.success(t('groups.sent'));
  };
  const run = (action: GroupControlRequest['action']) => void send(action).catch(() => undefined);

  return (
    <Drawer
      open={Boolean(groupId)}
      // A phone: a bottom sheet, the whole-group controls at the top within reach of the thumb.
      placement={phone ? 'bottom' : 'right'}
      width={phone ? undefined : 460}
      height={phone ? '75vh' : undefined}
      title={data ? t('groups.controlTitle', { name: data.name }) : t('common.loading')}
      onClose={onClose}
      destroyOnHidden
      data-testid="group-control"
    >
      {data && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" column={phone ? 1 : 2} bordered>
            <Descriptions.Item label={t('groups.state')}>
              <Tag color={DISPLAY_TAG_COLOUR[data.display]} data-testid="group-state">
                {t(`groups.display.${data.display}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('groups.number')}>{data.number}</Descriptions.Item>
            <Descriptions.Item label={t('groups.gateway')}>{data.gatewayName}</Descriptions.Item>
            <Descriptions.Item label={t('groups.sync')}>
              {data.onGateway ? <Tag color="green">{t('groups.onGateway')}</Tag> : <Tag color="blue">{t('groups.waitingSync')}</Tag>}
            </Descriptions.Item>
          </Descriptions>
          {groupStateNotes(data).map((note) => (
            <Alert key={note.key} type="warning" showIcon message={t(note.key, { count: note.count })} />
          ))}
          {!canControl && <Alert type="info" showIcon message={t('groups.viewOnly')} />}
          {canControl && (
            <div>
              <OnOffButtons
                disabled={!can('onOff')}
                loading={control.isPending}
                onSwitch={(on) => run({ op: 'onOff', on })}
                labels={{ on: t('groups.on'), off: t('groups.off') }}
                testIdPrefix="group"
              />
              {can('brightness') && (
                <div style={{ marginTop: 16 }}>
                  <Typography.Text>{t('groups.brightness')}</Typography.Text>
                  <SliderRow value={`${brightness} %`}>
                    <Slider
                      min={0}
                      max={100}
                      value={brightness}
                      tooltip={{ formatter: (v) => `${v} %` }}
                      onChange={setBrightness}
                      onChangeComplete={(v) => run({ op: 'brightness', percent: v })}
                      data-testid="group-brightness"
                    />
                  </SliderRow>
                  {switchOnlyCount > 0 && (
                    <Typography.Text type="secondary" data-testid="group-switch-only">
                      {t('groups.switchOnly', { count: switchOnlyCount })}
                    </Typography.Text>
                  )}
                </div>
              )}
              {can('cct') && (
                <div>
                  <Typography.Text>{t('groups.cct')}</Typography.Text>
                  <SliderRow value={`${kelvin} K`}>
                    <Slider
                      min={CCT_MIN_K}
                      max={CCT_MAX_K}
                      step={100}
                      value={kelvin}
                      tooltip={{ formatter: (v) => `${v} K` }}
                      onChange={setKelvin}
                      onChangeComplete={(v) => run({ op: 'cct', kelvin: v })}
                      data-testid="group-cct"
                    />
                  </SliderRow>
                </div>
              )}
              {last && (
                <Typography.Text type="secondary" data-testid="group-sent-note">
                  {last}
                </Typography.Text>
              )}
            </div>
          )}
          <BackToAutomatic
            deviceIds={data.members.map((m) => m.id)}
            hint={manualCount > 0 ? t('automation.auto.groupManual', { count: manualCount }) : t('automation.auto.groupHint')}
            manual={manualCount > 0}
            canControl={canControl}
            disabled={!data.gatewayOnline}
            testId="group-back-to-auto"
          />
          <Table<DeviceMarker>
            size="small"
            rowKey="id"
            pagination={data.members.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
            dataSource={data.members}
            columns={[
              { title: t('groups.member'), dataIndex: 'name' },
              {
                title: t('groups.state'),
                dataIndex: 'display',
                width: 190,
                render: (display: DeviceMarker['display'], member) => (
                  <Space size={4} wrap>
                    <Tag color={DISPLAY_TAG_COLOUR[display]}>{t(`groups.display.${display}`)}</Tag>
                    {member.manual && (
                      <Tooltip title={t('automation.auto.deviceManual')}>
                        <Tag color="purple" bordered={false}>
                          <HandIcon style={{ marginInlineEnd: 4 }} />
                          {t('automation.auto.byHand')}
                        </Tag>
                      </Tooltip>
                    )}
                  </Space>
                ),
              },
            ]}
            data-testid="group-members"
          />
        </Space>
      )}
    </Drawer>
  );
}
