import { Button, Drawer, Empty, List, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMapGroups } from '../../features/groups/api.ts';
import { DISPLAY_TAG_COLOUR } from '../../components/device-markers/marker-model.ts';
import { usePhone } from '../../components/use-phone.ts';

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
