import { useSyncExternalStore } from 'react';
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
        <Button
          icon={<FontSizeOutlined />}
          type={namesShown ? 'primary' : 'default'}
          aria-pressed={namesShown}
          onClick={() => onNamesShown(!namesShown)}
          data-testid="plan-names"
        >
          {t('deviceMap.showNames')}
        </Button>
      )}
      <Button
        icon={<SelectOutlined />}
        type={selecting ? 'primary' : 'default'}
        aria-pressed={selecting}
        onClick={() => onSelecting(!selecting)}
        data-testid="plan-select"
      >
        {t('deviceMap.selection.select')}
      </Button>
      <Button icon={<ClusterOutlined />} onClick={onGroups} data-testid="plan-groups">
        {t('groups.title')}
      </Button>
    </div>
  );
}
