import { Button, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Gateway } from '@lumigrid/contract/browser';
import { typeName } from '../../features/device-config/columns.tsx';
import type { MapCatalog } from '../../features/scenes/catalog.ts';
import { memberKey, type EditorMember } from '../../features/scenes/editor-state.ts';
import { MemberTarget } from './member-target.tsx';

interface Props {
  members: EditorMember[];
  catalog: MapCatalog;
  gateways: ReadonlyMap<string, Gateway>;
  onChange(members: EditorMember[]): void;
  testId?: string;
}

/** The members of a scene (or of one step of a sequence), each with what it does when the scene starts. */
export function MemberList({ members, catalog, gateways, onChange, testId = 'scene-members' }: Props) {
  const { t } = useTranslation();
  const replace = (key: string, next: Partial<EditorMember>) =>
    onChange(members.map((m) => (memberKey(m) === key ? { ...m, ...next } : m)));

  return (
    <Table<EditorMember>
      size="small"
      rowKey={memberKey}
      dataSource={members}
      pagination={false}
      locale={{ emptyText: t('scenes.members.empty') }}
      scroll={{ x: 760 }}
      data-testid={testId}
      onRow={(row) => ({ 'data-testid': `member-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        {
          title: t('scenes.members.name'),
          dataIndex: 'name',
          width: 200,
          render: (name: string, row) => (
            <div>
              <Typography.Text style={{ wordBreak: 'break-word' }}>{name}</Typography.Text>
              <div>
                {row.type === 'group' ? (
                  <Tag color="purple" bordered={false}>
                    {t('scenes.members.group')}
                  </Tag>
                ) : (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {row.deviceType !== null ? typeName(t, row.deviceType) : ''}
                  </Typography.Text>
                )}
              </div>
            </div>
          ),
        },
        {
          title: t('scenes.members.gateway'),
          dataIndex: 'gatewayId',
          width: 140,
          render: (gatewayId: string) => {
            const gateway = gateways.get(gatewayId);
            if (!gateway) return t('common.empty');
            return gateway.online ? gateway.name : `${gateway.name} (${t('scenes.offline')})`;
          },
        },
        {
          title: t('scenes.members.target'),
          key: 'target',
          render: (_, row) => (
            <MemberTarget
              controls={catalog.controlsOf(row)}
              action={row.action}
              onChange={(action) => replace(memberKey(row), { action })}
            />
          ),
        },
        {
          title: '',
          key: 'remove',
          width: 56,
          align: 'center',
          render: (_, row) => (
            <Tooltip title={t('scenes.members.remove')}>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('scenes.members.remove')}
                onClick={() => onChange(members.filter((m) => memberKey(m) !== memberKey(row)))}
              />
            </Tooltip>
          ),
        },
      ]}
    />
  );
}
