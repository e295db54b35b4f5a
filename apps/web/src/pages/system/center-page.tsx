import { App, Avatar, Button, Card, Col, Descriptions, Form, Row, Space, Typography } from 'antd';
import { EditOutlined, UserOutlined } from '@ant-design/icons';
import { PageContainer } from '../../components/page-container.tsx';
import { useTranslation } from 'react-i18next';
import { LIMITS, canEditOwnInfo, maskPhone } from '@lumigrid/contract/browser';
import { useState } from 'react';
import { useBoot } from '../../app/boot.tsx';
import { AccountPictures } from './account-pictures.tsx';
import { ProfileFormModal } from './profile-form-modal.tsx';
import { useChangePassword, useMe } from '../../features/auth/api.ts';
import { useRule } from '../../components/form-rules.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { RoleText } from '../../components/role-text.tsx';
import { checkConfirmation, checkDiffersFrom, checkLoginPassword, checkNewPassword } from '../../components/validators.ts';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** The user centre: the profile and the change-password form (spec section 2). */
export default function CenterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: user } = useMe();
  const changePassword = useChangePassword();
  const rule = useRule();
  const [form] = Form.useForm<PasswordValues>();
  const { mode } = useBoot();
  const [editing, setEditing] = useState(false);
  if (!user) return null;
  const empty = t('common.empty');

  const onFinish = async (values: PasswordValues) => {
    const done = await changePassword
      .mutateAsync({ oldPassword: values.oldPassword, newPassword: values.newPassword })
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    // The session stays: the user changed their own password while signed in.
    void message.success(t('center.success'));
    form.resetFields();
  };

  return (
    <PageContainer title={t('center.title')}>
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={12}>
          <Card
            title={t('center.profile')}
            variant="borderless"
            style={{ height: '100%' }}
            extra={
              canEditOwnInfo(user, mode) && (
                <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                  {t('center.editInfo')}
                </Button>
              )
            }
          >
            <Space size={16} align="center" style={{ marginBottom: 24 }}>
              <Avatar size={56} src={user.head_img || undefined} icon={<UserOutlined />} style={{ backgroundColor: '#1677ff' }} />
              <Typography.Title level={4} style={{ margin: 0 }}>
                {user.name || user.account}
              </Typography.Title>
            </Space>
            <Descriptions column={1} labelStyle={{ width: 120 }}>
              <Descriptions.Item label={t('center.account')}>{user.account}</Descriptions.Item>
              <Descriptions.Item label={t('center.name')}>{user.name || empty}</Descriptions.Item>
              <Descriptions.Item label={t('center.mail')}>{user.mail || empty}</Descriptions.Item>
              <Descriptions.Item label={t('center.phone')}>{maskPhone(user.phone) || empty}</Descriptions.Item>
              <Descriptions.Item label={t('center.company')}>{user.company || empty}</Descriptions.Item>
              <Descriptions.Item label={t('center.role')}>
                <RoleText user={user} />
              </Descriptions.Item>
              <Descriptions.Item label={t('center.remarks')}>{user.remarks || empty}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('center.changePassword')} variant="borderless" style={{ height: '100%' }}>
            <Form<PasswordValues> form={form} layout="vertical" onFinish={onFinish} requiredMark style={{ maxWidth: 420 }}>
              <Form.Item name="oldPassword" label={t('center.oldPassword')} rules={[rule(checkLoginPassword)]}>
                <PasswordInput maxLength={LIMITS.password.loginMax} autoComplete="current-password" />
              </Form.Item>
              <Form.Item
                name="newPassword"
                label={t('center.newPassword')}
                extra={t('validation.passwordRule')}
                dependencies={['oldPassword']}
                rules={[
                  rule(checkNewPassword),
                  ({ getFieldValue }) => rule(checkDiffersFrom(getFieldValue('oldPassword') as string | undefined)),
                ]}
              >
                <PasswordInput maxLength={LIMITS.password.max} autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirm"
                label={t('center.confirm')}
                dependencies={['newPassword']}
                rules={[({ getFieldValue }) => rule(checkConfirmation(getFieldValue('newPassword') as string | undefined))]}
              >
                <PasswordInput maxLength={LIMITS.password.max} autoComplete="new-password" />
              </Form.Item>
              <Form.Item style={{ marginBottom: 0 }}>
                <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
                  {t('center.submit')}
                </Button>
              </Form.Item>
            </Form>
          </Card>
        </Col>
        <Col xs={24}>
          <AccountPictures user={user} />
        </Col>
      </Row>
      {editing && <ProfileFormModal user={user} onClose={() => setEditing(false)} />}
    </PageContainer>
  );
}
