import { useSyncExternalStore, type ReactNode } from 'react';
import { Button } from 'antd';
import { ClusterOutlined, FontSizeOutlined, SelectOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

const NO_HOVER = '(hover: none)';

/** Whether the main pointer cannot hover (a touch screen): names on the plan need a switch there, not a tooltip. */
export function useNoHover(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(NO_HOVER);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(NO_HOVER).matches,
  );
}

interface ToggleButtonProps {
  icon: ReactNode;
  on: boolean;
  onChange: (on: boolean) => void;
  testid: string;
  children: ReactNode;
}

/** A button that stays pressed (primary) while its mode is on. */
function ToggleButton({ icon, on, onChange, testid, children }: ToggleButtonProps) {
  return (
    <Button icon={icon} type={on ? 'primary' : 'default'} aria-pressed={on} onClick={() => onChange(!on)} data-testid={testid}>
      {children}
    </Button>
  );
}

export interface PlanToolsProps {
  /** Offer the "show names" switch (touch screens; a mouse reads names on hover). */
  namesToggle: boolean;
  namesShown: boolean;
  onNamesShown: (shown: boolean) => void;
  /** Opens the map's groups, to control one from the plan. */
  onGroups: () => void;
  /** Select mode: taps select devices and drags draw a rectangle around them. */
  selecting: boolean;
  onSelecting: (selecting: boolean) => void;
}

/** Buttons over the plan's lower left corner, where Leaflet's own controls leave room: names, select mode, the map's groups. */
export function PlanTools({ namesToggle, namesShown, onNamesShown, onGroups, selecting, onSelecting }: PlanToolsProps) {
  const { t } = useTranslation();
  return (
    <div className="lg-plan-tools" data-testid="plan-tools">
      {namesToggle && (
        <ToggleButton icon={<FontSizeOutlined />} on={namesShown} onChange={onNamesShown} testid="plan-names">
          {t('deviceMap.showNames')}
        </ToggleButton>
      )}
      <ToggleButton icon={<SelectOutlined />} on={selecting} onChange={onSelecting} testid="plan-select">
        {t('deviceMap.selection.select')}
      </ToggleButton>
      <Button icon={<ClusterOutlined />} onClick={onGroups} data-testid="plan-groups">
        {t('groups.title')}
      </Button>
    </div>
  );
}
