import { App, Avatar, Button, Card, List, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, PictureOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_IMAGES, sizeText, userMay, type AccountImageKind, type LoginUser } from '@lumigrid/contract/browser';
import { useAccountPicture } from '../../features/auth/api.ts';
import './account-pictures.css';

const FIELD: Record<AccountImageKind, keyof Pick<LoginUser, 'head_img' | 'company_logo' | 'home_link'>> = {
  avatar: 'head_img',
  logo: 'company_logo',
  background: 'home_link',
};

/** One picture: what it is for, the current one, and upload and remove. */
function PictureRow({ kind, user }: { kind: AccountImageKind; user: LoginUser }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const picture = useAccountPicture(kind);
  const limit = ACCOUNT_IMAGES[kind];
  const url = user[FIELD[kind]];
  const preview =
    kind === 'avatar' ? (
      <Avatar size={64} src={url || undefined} icon={<UserOutlined />} />
    ) : url ? (
      <img src={url} alt={t(`center.${kind}`)} className={`lg-picture lg-picture--${kind}`} />
    ) : (
      <span className={`lg-picture lg-picture--${kind} lg-picture--empty`}>
        <PictureOutlined />
      </span>
    );
  return (
    <List.Item
      actions={[
        <Upload
          key="upload"
          accept="image/png,image/jpeg"
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > limit.maxBytes) void message.error(t('center.pictureTooLarge', { size: sizeText(limit.maxBytes) }));
            else picture.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={picture.isPending} aria-label={`${t('center.upload')} ${t(`center.${kind}`)}`}>
            {t('center.upload')}
          </Button>
        </Upload>,
        <Button
          key="remove"
          icon={<DeleteOutlined />}
          disabled={!url || picture.isPending}
          onClick={() => picture.mutate(null)}
          aria-label={`${t('center.remove')} ${t(`center.${kind}`)}`}
        >
          {t('center.remove')}
        </Button>,
      ]}
    >
      <List.Item.Meta
        avatar={preview}
        title={t(`center.${kind}`)}
        description={
          <Space direction="vertical" size={0}>
            <Typography.Text type="secondary">{t(`center.${kind}Note`)}</Typography.Text>
            <Typography.Text type="secondary">
              {t('center.pictureHint', { size: sizeText(limit.maxBytes), width: limit.width, height: limit.height })}
            </Typography.Text>
          </Space>
        }
      />
    </List.Item>
  );
}

/** The user centre's pictures: the own avatar; the account's logo and login background for those who manage it. */
export function AccountPictures({ user }: { user: LoginUser }) {
  const { t } = useTranslation();
  const kinds: AccountImageKind[] = userMay(user, 'manageAccounts') ? ['avatar', 'logo', 'background'] : ['avatar'];
  return (
    <Card title={t('center.pictures')} variant="borderless">
      <List itemLayout="horizontal" dataSource={kinds} renderItem={(kind) => <PictureRow kind={kind} user={user} />} />
    </Card>
  );
}
