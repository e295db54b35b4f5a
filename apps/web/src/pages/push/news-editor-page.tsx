import { Alert, App, Button, Card, Col, Form, Input, Result, Row, Select, Skeleton, Space, Switch } from 'antd';
import { SaveOutlined, SendOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LANGS, PUSH_LIMITS, pushEditable, pushStateName, type Lang, type PushNews } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import {
  useAddPushNews,
  useAllPushApps,
  useEditPushNews,
  usePushCategories,
  usePushNews,
  useSubmitPushNews,
} from '../../features/push/api.ts';
import { PictureField, pictureFile } from './picture-field.tsx';
import { PushStateTag } from './push-state-tag.tsx';
import { RichTextEditor } from './rich-text-editor.tsx';
import './push.css';

interface NewsForm {
  title: string;
  appId: string;
  categoryId: string;
  lang: Lang;
  recommended: boolean;
  cover: string | null;
  content: string;
}

function NewsForm({ news }: { news?: PushNews }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { lang } = useBoot();
  const apps = useAllPushApps();
  const categories = usePushCategories();
  const add = useAddPushNews();
  const edit = useEditPushNews();
  const submit = useSubmitPushNews();
  const [form] = Form.useForm<NewsForm>();
  const busy = add.isPending || edit.isPending || submit.isPending;
  const wasReviewed = news && (pushStateName(news.state) === 'passed' || pushStateName(news.state) === 'failed');

  const save = async (andSubmit: boolean) => {
    const values = await form.validateFields();
    const body = { ...values, title: values.title.trim() };
    const saved = news ? await edit.mutateAsync({ id: news.id, ...body }) : await add.mutateAsync(body);
    if (andSubmit) await submit.mutateAsync(saved.id);
    void message.success(t(andSubmit ? 'push.news.submitted' : 'push.news.saved'));
    void navigate(`/push/details?id=${saved.id}`);
  };

  return (
    <Form<NewsForm>
      form={form}
      layout="vertical"
      requiredMark
      initialValues={{
        title: news?.title ?? '',
        appId: news?.appId ?? (apps.data?.list.length === 1 ? apps.data.list[0]!.id : undefined),
        categoryId: news?.categoryId,
        lang: (news?.lang ?? lang) as Lang,
        recommended: news?.recommended ?? false,
        cover: pictureFile(news?.cover),
        content: news?.content ?? '',
      }}
    >
      {news && (
        <Alert
          type={pushStateName(news.state) === 'failed' ? 'error' : 'info'}
          showIcon
          style={{ marginBottom: 16 }}
          message={
            <Space>
              {t('push.news.currentState')}
              <PushStateTag state={news.state} />
            </Space>
          }
          description={
            <>
              {news.reason && <div>{t('push.news.reasonShort', { reason: news.reason })}</div>}
              {wasReviewed && <div>{t('push.news.editResets')}</div>}
            </>
          }
        />
      )}
      <Row gutter={24}>
        <Col xs={24} xl={16}>
          <Card variant="borderless" title={t('push.news.content')}>
            <Form.Item
              name="title"
              label={t('push.field.title')}
              rules={[
                { required: true, whitespace: true, message: t('push.news.titleRequired') },
                { max: PUSH_LIMITS.title.max, message: t('push.news.titleLength', { max: PUSH_LIMITS.title.max }) },
              ]}
            >
              <Input
                maxLength={PUSH_LIMITS.title.max}
                showCount
                placeholder={t('push.news.titlePlaceholder')}
                data-testid="push-news-title"
              />
            </Form.Item>
            <Form.Item name="content" label={t('push.field.content')} rules={[{ required: true, message: t('push.news.contentRequired') }]}>
              <RichTextEditor placeholder={t('push.editor.placeholder')} />
            </Form.Item>
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card variant="borderless" title={t('push.news.settings')}>
            <Form.Item name="appId" label={t('push.field.app')} rules={[{ required: true, message: t('push.news.appRequired') }]}>
              <Select
                options={(apps.data?.list ?? []).map((a) => ({ value: a.id, label: a.name }))}
                loading={apps.isLoading}
                data-testid="push-news-app"
              />
            </Form.Item>
            <Form.Item
              name="categoryId"
              label={t('push.field.category')}
              rules={[{ required: true, message: t('push.news.categoryRequired') }]}
            >
              <Select
                options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
                loading={categories.isLoading}
                data-testid="push-news-category"
              />
            </Form.Item>
            <Form.Item name="lang" label={t('push.field.lang')} extra={t('push.news.langHint')} rules={[{ required: true }]}>
              <Select options={LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))} data-testid="push-news-lang" />
            </Form.Item>
            <Form.Item
              name="recommended"
              label={t('push.field.recommended')}
              valuePropName="checked"
              extra={t('push.news.recommendedHint')}
            >
              <Switch />
            </Form.Item>
            <Form.Item name="cover" label={t('push.field.cover')}>
              <PictureField purpose="cover" testId="push-news-cover" />
            </Form.Item>
          </Card>
        </Col>
      </Row>
      <Card variant="borderless" style={{ marginTop: 16 }}>
        <Space>
          <Button
            icon={<SaveOutlined />}
            loading={busy}
            onClick={() => void save(false).catch(() => undefined)}
            data-testid="push-news-save"
          >
            {t('push.news.saveDraft')}
          </Button>
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={busy}
            onClick={() => void save(true).catch(() => undefined)}
            data-testid="push-news-save-submit"
          >
            {t('push.news.saveAndSubmit')}
          </Button>
          <Button onClick={() => void navigate(news ? `/push/details?id=${news.id}` : '/push/index')}>{t('push.action.cancel')}</Button>
        </Space>
      </Card>
    </Form>
  );
}

/** /push/addNews and /push/editNews?id=: a news item's title, text, app, category, language, cover and flag. */
export default function NewsEditorPage({ mode }: { mode: 'add' | 'edit' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = mode === 'edit' ? (params.get('id') ?? undefined) : undefined;
  const news = usePushNews(id);
  const apps = useAllPushApps();
  const categories = usePushCategories();
  const title = t(mode === 'edit' ? 'menu.pushEditNews' : 'menu.pushAddNews');
  const loading = !apps.data || !categories.data || (mode === 'edit' && !news.data);
  let body;
  if (mode === 'edit' && (!id || news.isError)) body = <Result status="404" title={t('push.news.missing')} />;
  else if (loading) body = <Skeleton active />;
  else if (news.data && !pushEditable(news.data.state)) body = <Result status="warning" title={t('push.news.lockedPending')} />;
  else body = <NewsForm news={news.data} />;
  return <PageContainer title={title}>{body}</PageContainer>;
}
