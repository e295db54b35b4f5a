import { Avatar, Card, Col, Descriptions, Row, Space, Typography } from 'antd';
import { KeyOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { canSeeAdministrators, LIMITS, maskPhone } from '@lumigrid/contract';
import { useBoot } from '../../app/boot.tsx';
import { useMe } from '../../features/auth/api.ts';
import { RoleText } from '../../components/role-text.tsx';

/** The home page: a welcome, the account and the platform. The installation overview comes with projects. */
export default function HomePage() {
  const { t } = useTranslation();
  const { mode, info } = useBoot();
  const { data: user } = useMe();
  if (!user) return null;
  const empty = t('common.empty');

  return (
    <PageContainer title={false} breadcrumbRender={false}>
      <Card variant="borderless" style={{ marginBottom: 24 }}>
        <Space size={20} align="center">
          <Avatar size={64} src={user.head_img || undefined} icon={<UserOutlined />} style={{ backgroundColor: '#1677ff' }} />
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('home.welcome', { name: user.name || user.account })}
            </Typography.Title>
            <Typography.Text type="secondary">{t('home.welcomeHint')}</Typography.Text>
          </div>
        </Space>
      </Card>
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={14}>
          <Card title={t('home.accountCard')} variant="borderless" style={{ height: '100%' }}>
            <Descriptions column={1} labelStyle={{ width: 140 }}>
              <Descriptions.Item label={t('home.account')}>{user.account}</Descriptions.Item>
              <Descriptions.Item label={t('home.mail')}>{user.mail || empty}</Descriptions.Item>
              <Descriptions.Item label={t('home.phone')}>{maskPhone(user.phone) || empty}</Descriptions.Item>
              {user.company && <Descriptions.Item label={t('home.company')}>{user.company}</Descriptions.Item>}
              <Descriptions.Item label={t('home.role')}>
                <RoleText user={user} />
              </Descriptions.Item>
              <Descriptions.Item label={t('home.language')}>{t(`lang.${user.lang}`)}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Space direction="vertical" size={24} style={{ width: '100%' }}>
            <Card title={t('home.platformCard')} variant="borderless">
              <Descriptions column={1} labelStyle={{ width: 140 }}>
                <Descriptions.Item label={t('home.mode')}>
                  {mode === 'server' ? t('home.modeServer') : t('home.modeSaas')}
                </Descriptions.Item>
                <Descriptions.Item label={t('home.version')}>{info?.version ?? LIMITS.version}</Descriptions.Item>
                {mode === 'server' && (
                  <Descriptions.Item label={t('home.serverIp')}>{info?.serverIp ?? user.server_ip ?? empty}</Descriptions.Item>
                )}
              </Descriptions>
            </Card>
            <Card title={t('home.shortcuts')} variant="borderless">
              <Space direction="vertical">
                <Link to="/system/center">
                  <KeyOutlined /> {t('home.goCenter')}
                </Link>
                {canSeeAdministrators(user) && (
                  <Link to="/system/outbox">
                    <MailOutlined /> {t('home.goOutbox')}
                  </Link>
                )}
              </Space>
            </Card>
          </Space>
        </Col>
      </Row>
    </PageContainer>
  );
}
