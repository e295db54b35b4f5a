import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, RollbackOutlined, SendOutlined, StarFilled } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pushEditable, pushStateName, pushSubmittable, type PushNews } from '@lumigrid/contract/browser';
import { usePassPushNews, usePushNews, usePushReviewItem } from '../../features/push/api.ts';
import { useNewsActions } from './news-actions.tsx';
import { PushStateTag } from './push-state-tag.tsx';
import { RejectModal } from './reject-modal.tsx';
import './push.css';
import { useAccountTime } from '../../features/projects/site-time.ts';
import { useSearchParam } from '../../components/use-search-param.ts';
import { useNotifyOnSuccess } from '../../components/use-notify-on-success.ts';

/** The news item as a reader sees it: cover, title, then the (server-sanitised) text. */
function Article({ news }: { news: PushNews }) {
  return (
    <Card variant="borderless">
      {news.cover && <img className="lg-push-cover-hero" src={news.cover} alt="" data-testid="push-details-cover" />}
      <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="push-details-title">
        {news.title}
      </Typography.Title>
      {/* The server keeps only an allow-list of tags and attributes (no script, event handler or style). */}
      <div className="lg-push-content" data-testid="push-details-content" dangerouslySetInnerHTML={{ __html: news.content }} />
    </Card>
  );
}

function Facts({ news, account }: { news: PushNews; account?: string }) {
  const { t } = useTranslation();
  const { time: when } = useAccountTime();
  return (
    <Card variant="borderless" title={t('push.details.facts')}>
      <Descriptions column={1} size="small" labelStyle={{ width: 120 }}>
        <Descriptions.Item label={t('push.field.state')}>
          <PushStateTag state={news.state} />
        </Descriptions.Item>
        {account && <Descriptions.Item label={t('push.field.account')}>{account}</Descriptions.Item>}
        <Descriptions.Item label={t('push.field.app')}>{news.appName}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.category')}>{news.categoryName}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.lang')}>{t(`lang.${news.lang}`)}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.recommended')}>
          {news.recommended ? (
            <Tag color="gold" bordered={false} icon={<StarFilled />}>
              {t('push.details.yes')}
            </Tag>
          ) : (
            t('push.details.no')
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('push.field.operator')}>{news.operator || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.views')}>{news.views}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.updatedAt')}>{when(news.updatedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.submittedAt')}>{when(news.submittedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('push.field.reviewedAt')}>{when(news.reviewedAt)}</Descriptions.Item>
        {news.reviewer && <Descriptions.Item label={t('push.field.reviewer')}>{news.reviewer}</Descriptions.Item>}
      </Descriptions>
    </Card>
  );
}

/**
 * /push/details?id=: one news item. Its author sees edit, send to review, withdraw and delete; a reviewer who
 * comes from the review screen (&review=1) sees pass and reject instead.
 */
export default function NewsDetailsPage() {
  const { t } = useTranslation();
  const notifyOnSuccess = useNotifyOnSuccess();
  const navigate = useNavigate();
  const id = useSearchParam('id');
  const reviewing = useSearchParam('review') === '1';
  const own = usePushNews(reviewing ? undefined : id);
  const review = usePushReviewItem(id, reviewing);
  const query = reviewing ? review : own;
  const actions = useNewsActions();
  const pass = usePassPushNews();
  const [rejecting, setRejecting] = useState<PushNews>();
  const news = query.data;

  let extra: React.ReactNode[] = [];
  if (news && reviewing && pushStateName(news.state) === 'pending') {
    extra = [
      <Button key="reject" danger icon={<CloseOutlined />} onClick={() => setRejecting(news)} data-testid="push-reject">
        {t('push.action.reject')}
      </Button>,
      <Button
        key="pass"
        type="primary"
        icon={<CheckOutlined />}
        loading={pass.isPending}
        data-testid="push-pass"
        onClick={() => notifyOnSuccess(pass.mutateAsync(news.id), t('push.review.passed'))}
      >
        {t('push.action.pass')}
      </Button>,
    ];
  } else if (news && !reviewing) {
    const state = pushStateName(news.state);
    extra = [
      <Button
        key="delete"
        danger
        icon={<DeleteOutlined />}
        onClick={() => actions.remove(news.id, news.title, () => void navigate('/push/index'))}
      >
        {t('push.action.delete')}
      </Button>,
      ...(state === 'pending' || state === 'passed'
        ? [
            <Button key="withdraw" icon={<RollbackOutlined />} onClick={() => actions.withdraw(news.id, news.title)}>
              {t('push.action.withdraw')}
            </Button>,
          ]
        : []),
      ...(pushEditable(news.state)
        ? [
            <Button
              key="edit"
              icon={<EditOutlined />}
              onClick={() => void navigate(`/push/editNews?id=${news.id}`)}
              data-testid="push-edit"
            >
              {t('push.action.edit')}
            </Button>,
          ]
        : []),
      ...(pushSubmittable(news.state)
        ? [
            <Button
              key="submit"
              type="primary"
              icon={<SendOutlined />}
              disabled={actions.pending}
              onClick={() => void actions.submit(news.id)}
              data-testid="push-submit"
            >
              {t('push.action.submit')}
            </Button>,
          ]
        : []),
    ];
  }

  return (
    <PageContainer title={t('menu.pushDetails')} extra={extra}>
      {!id || query.isError ? (
        <Result status="404" title={t('push.news.missing')} />
      ) : !news ? (
        <Skeleton active />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          {pushStateName(news.state) === 'failed' && news.reason && (
            <Alert type="error" showIcon message={t('push.details.rejected')} description={news.reason} data-testid="push-details-reason" />
          )}
          {pushStateName(news.state) === 'pending' && !reviewing && <Alert type="warning" showIcon message={t('push.details.waiting')} />}
          <div className="lg-push-details">
            <Article news={news} />
            <Facts news={news} account={'account' in news ? (news as { account: string }).account : undefined} />
          </div>
        </Space>
      )}
      <RejectModal news={rejecting} onClose={() => setRejecting(undefined)} />
    </PageContainer>
  );
}
