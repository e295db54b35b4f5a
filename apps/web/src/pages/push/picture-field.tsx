import { Button, Space, Typography } from 'antd';
import { DeleteOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PUSH_LIMITS, pushImageUrl, sizeText } from '@lumigrid/contract/browser';
import { PictureUpload } from '../../components/picture-picker.tsx';
import { usePushUpload } from '../../features/push/api.ts';

/**
 * A form control for an app icon or a news cover: the stored picture's name as its value, a preview in the
 * picture's shape, upload and remove. The server checks the type, the size and a cover's 2:1 shape.
 */
export function PictureField({
  value,
  onChange,
  purpose,
  testId,
}: {
  value?: string | null;
  onChange?: (file: string | null) => void;
  purpose: 'icon' | 'cover';
  testId: string;
}) {
  const { t } = useTranslation();
  const upload = usePushUpload();
  return (
    <Space align="start" size={16} wrap>
      <div className={`lg-push-picture lg-push-picture--${purpose}`}>
        {value ? <img src={pushImageUrl(value)} alt={t(`push.field.${purpose}`)} data-testid={`${testId}-preview`} /> : <PictureOutlined />}
      </div>
      <Space direction="vertical" size={8}>
        <Space>
          <PictureUpload
            maxBytes={PUSH_LIMITS.imageBytes}
            problemText={(problem) =>
              problem === 'type' ? t('push.picture.type') : t('push.picture.size', { size: sizeText(PUSH_LIMITS.imageBytes) })
            }
            onPick={(file) => upload.mutate({ purpose, file }, { onSuccess: (picture) => onChange?.(picture.file) })}
          >
            <Button icon={<UploadOutlined />} loading={upload.isPending} data-testid={`${testId}-upload`}>
              {t(value ? 'push.picture.replace' : 'push.picture.upload')}
            </Button>
          </PictureUpload>
          {value && (
            <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)}>
              {t('push.picture.remove')}
            </Button>
          )}
        </Space>
        <Typography.Text type="secondary">
          {purpose === 'cover'
            ? t('push.picture.coverHint', {
                size: sizeText(PUSH_LIMITS.imageBytes),
                width: PUSH_LIMITS.coverSuggested.width,
                height: PUSH_LIMITS.coverSuggested.height,
              })
            : t('push.picture.iconHint', { size: sizeText(PUSH_LIMITS.imageBytes) })}
        </Typography.Text>
      </Space>
    </Space>
  );
}

/** The file name of a stored push picture from its URL (what the forms send back). */
export function pictureFile(url: string | null | undefined): string | null {
  return url ? (url.split('/').pop() ?? null) : null;
}
