import { ColorPicker, Slider, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CCT_MAX_K, CCT_MIN_K, type SceneAction } from '@lumigrid/contract/browser';
import type { PanelControls } from '../../features/devices/device-controls.ts';
import { DEFAULT_KELVIN } from '../../features/scenes/members.ts';

interface Props {
  controls: PanelControls;
  action: SceneAction;
  onChange(action: SceneAction): void;
  disabled?: boolean;
}

/** A slider with its value written beside it, as the device panel shows it. */
function Labelled({ label, value, children }: { label: string; value: string; children: React.ReactNode }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 230 }}>
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Typography.Text>
      <div style={{ flex: 1, minWidth: 100 }}>{children}</div>
      <Typography.Text style={{ width: 56, textAlign: 'right', whiteSpace: 'nowrap' }}>{value}</Typography.Text>
    </div>
  );
}

/**
 * What one member does when the scene starts: only the controls its type supports (the floor plan's rule,
 * device-controls.ts). A light switched off shows nothing else; a switch is its channels, a curtain its opening.
 */
export function MemberTarget({ controls, action, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<SceneAction>) => onChange({ ...action, ...patch });

  if (controls.channels > 0) {
    const channels = Array.from({ length: controls.channels }, (_, i) => action.channels?.[i] ?? action.on);
    return (
      <Space wrap size={[16, 4]} data-testid="member-target">
        {channels.map((on, i) => (
          <Space key={i} size={4}>
            <Typography.Text type="secondary">{t('scenes.target.channel', { n: i + 1 })}</Typography.Text>
            <Switch
              size="small"
              checked={on}
              disabled={disabled}
              onChange={(checked) => {
                const next = channels.map((c, j) => (j === i ? checked : c));
                onChange({ ...action, on: next.some(Boolean), channels: next });
              }}
            />
          </Space>
        ))}
      </Space>
    );
  }

  if (controls.curtain) {
    const position = action.position ?? 100;
    return (
      <div data-testid="member-target">
        <Labelled label={t('scenes.target.position')} value={`${position}%`}>
          <Slider min={0} max={100} value={position} disabled={disabled} onChange={(value) => set({ on: true, position: value })} />
        </Labelled>
      </div>
    );
  }

  return (
    <Space wrap size={[20, 4]} align="center" data-testid="member-target">
      <Switch
        checked={action.on}
        disabled={disabled}
        checkedChildren={t('scenes.target.on')}
        unCheckedChildren={t('scenes.target.off')}
        onChange={(on) => set({ on, ...(on && controls.brightness && action.percent === undefined ? { percent: 100 } : {}) })}
        data-testid="member-on"
      />
      {action.on && controls.brightness && (
        <Labelled label={t('scenes.target.brightness')} value={`${action.percent ?? 100}%`}>
          <Slider min={1} max={100} value={action.percent ?? 100} disabled={disabled} onChange={(percent) => set({ percent })} />
        </Labelled>
      )}
      {action.on && controls.cct && (
        <Labelled label={t('scenes.target.cct')} value={`${action.kelvin ?? DEFAULT_KELVIN} K`}>
          <Slider
            min={CCT_MIN_K}
            max={CCT_MAX_K}
            step={10}
            value={action.kelvin ?? DEFAULT_KELVIN}
            disabled={disabled}
            onChange={(kelvin) => set({ kelvin })}
          />
        </Labelled>
      )}
      {action.on && controls.rgb && (
        <Space size={6}>
          <Typography.Text type="secondary">{t('scenes.target.color')}</Typography.Text>
          <ColorPicker
            size="small"
            disabledAlpha
            allowClear
            value={action.color ?? null}
            disabled={disabled}
            onChangeComplete={(color) => set({ color: color.cleared ? undefined : color.toHexString().slice(0, 7) })}
            onClear={() => set({ color: undefined })}
          />
          {!action.color && <Typography.Text type="secondary">{t('scenes.target.noColor')}</Typography.Text>}
        </Space>
      )}
    </Space>
  );
}
