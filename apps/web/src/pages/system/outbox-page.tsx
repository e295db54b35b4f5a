import { useState } from 'react';
import { Tag, Typography } from 'antd';
import { MailOutlined, MessageOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import type { OutboxMessage } from '@lumigrid/contract/browser';
import { useOutbox } from '../../features/system/api.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { tablePaging } from '../../components/table-paging.ts';

const DEFAULT_PAGE_SIZE = 20;

/** The outbox: e-mail and SMS the platform sent, paged on the server (platform administrator only). */
export default function OutboxPage() {
  const { t } = useTranslation();
  const { time } = useAccountTime();
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const outbox = useOutbox(paging);

  const columns: ProColumns<OutboxMessage>[] = [
    {
      title: t('outbox.channel'),
      dataIndex: 'channel',
      width: 110,
      render: (_, row) =>
        row.channel === 'mail' ? (
          <Tag icon={<MailOutlined />} color="blue" bordered={false}>
            {t('outbox.channelMail')}
          </Tag>
        ) : (
          <Tag icon={<MessageOutlined />} color="green" bordered={false}>
            {t('outbox.channelSms')}
          </Tag>
        ),
    },
    { title: t('outbox.recipient'), dataIndex: 'recipient', width: 220, ellipsis: true, copyable: true },
    { title: t('outbox.subject'), dataIndex: 'subject', width: 240, ellipsis: true },
    { title: t('outbox.body'), dataIndex: 'body', ellipsis: true },
    {
      title: t('outbox.time'),
      dataIndex: 'createdAt',
      width: 180,
      render: (_, row) => time(row.createdAt, 'second'),
    },
  ];

  return (
    <PageContainer title={t('outbox.title')} content={t('outbox.hint')}>
      <ProTable<OutboxMessage>
        rowKey="id"
        locale={{ emptyText: <EmptyHint text={t('outbox.empty')} /> }}
        columns={columns}
        dataSource={outbox.data?.list ?? []}
        loading={outbox.isFetching}
        search={false}
        cardBordered
        options={{ reload: () => void outbox.refetch(), density: true, setting: true, fullScreen: false }}
        expandable={{
          expandedRowRender: (row) => <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{row.body}</Typography.Paragraph>,
        }}
        pagination={tablePaging(paging, setPaging, outbox.data?.total ?? 0)}
      />
    </PageContainer>
  );
}
