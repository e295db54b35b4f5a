import { useSyncExternalStore } from 'react';
import { Button, Drawer, Empty, List, Spin, Tag, Typography } from 'antd';
import { ClusterOutlined, FontSizeOutlined, SelectOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useMapGroups } from '../../features/groups/api.ts';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { usePhone } from '../../components/use-phone.ts';

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

export interface PlanGroupsSheetProps {
  /** The map whose groups are listed; undefined closes the sheet. */
  mapId: string | undefined;
  onClose: () => void;
  /** A group was picked: open its control panel. */
  onOpen: (groupId: string) => void;
}

/** The map's groups with their states, from the plan: a bottom sheet on a phone, a side panel on a desktop. */
export function PlanGroupsSheet({ mapId, onClose, onOpen }: PlanGroupsSheetProps) {
  const { t } = useTranslation();
  const phone = usePhone();
  const groups = useMapGroups(mapId);
  return (
    <Drawer
      open={Boolean(mapId)}
      title={t('groups.title')}
      placement={phone ? 'bottom' : 'right'}
      height={phone ? '60vh' : undefined}
      width={phone ? undefined : 380}
      onClose={onClose}
      data-testid="plan-groups-sheet"
    >
      {groups.isLoading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : (
        <List
          dataSource={groups.data ?? []}
          locale={{ emptyText: <Empty description={t('groups.empty')} /> }}
          renderItem={(group) => (
            <List.Item style={{ paddingInline: 0 }}>
              <Button
                block
                type="text"
                onClick={() => onOpen(group.id)}
                style={{ height: 'auto', minHeight: 48, display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}
                data-testid={`plan-group-${group.name}`}
              >
                <span style={{ textAlign: 'start', whiteSpace: 'normal' }}>
                  <Typography.Text strong>{group.name}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{group.gatewayName}</Typography.Text>
                </span>
                <Tag color={DISPLAY_TAG_COLOUR[group.display]}>{t(`groups.display.${group.display}`)}</Tag>
              </Button>
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
