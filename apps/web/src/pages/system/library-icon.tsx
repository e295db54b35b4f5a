import { useEffect, useMemo } from 'react';
import { App, Button, Space, Typography, Upload } from 'antd';
import { BulbOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIBRARY_LIMITS, errorMessage, sizeText } from '@lumigrid/contract';
import { PICTURE_ACCEPT, pictureProblem } from '../../api/upload.ts';
import { currentLang } from '../../i18n/index.ts';
import './library-page.css';

/** The icon chosen in the form before saving: a new file, null to remove the saved one, or undefined to keep it. */
export type IconChange = File | null | undefined;

/** A library type's icon as the table shows it; a bulb when it has none. */
export function LibraryIcon({ url, name, size = 44 }: { url: string | null; name: string; size?: number }) {
  if (!url)
    return (
      <span className="lg-library-icon lg-library-icon--empty" style={{ width: size, height: size }} aria-hidden>
        <BulbOutlined />
      </span>
    );
  return <img src={url} alt={name} className="lg-library-icon" style={{ width: size, height: size }} data-testid="library-icon" />;
}

/**
 * The form's icon picker: png or jpeg up to 1 MB, checked here before anything is sent (the server reads the
 * bytes again), previewed at once, and removable. It is uploaded once the type is saved: a new type has no id before.
 */
export function LibraryIconPicker({
  saved,
  change,
  onChange,
}: {
  saved: string | null;
  change: IconChange;
  onChange(change: IconChange): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const preview = useMemo(() => (change instanceof File ? URL.createObjectURL(change) : undefined), [change]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const shown = change === null ? null : (preview ?? saved);
  const size = sizeText(LIBRARY_LIMITS.icon.maxBytes);

  return (
    <div className="lg-library-picker" data-testid="library-icon-picker">
      <LibraryIcon url={shown} name={t('library.field.icon')} size={72} />
      <Space direction="vertical" size={4}>
        <Space wrap>
          <Upload
            accept={PICTURE_ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              const problem = pictureProblem(file, LIBRARY_LIMITS.icon.maxBytes);
              if (problem === 'type') void message.error(errorMessage(100013, currentLang()));
              else if (problem === 'size') void message.error(t('library.icon.tooLarge', { size }));
              else onChange(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} size="small" data-testid="library-icon-choose">
              {shown ? t('library.icon.replace') : t('library.icon.choose')}
            </Button>
          </Upload>
          <Button
            icon={<DeleteOutlined />}
            size="small"
            disabled={!shown}
            onClick={() => onChange(saved ? null : undefined)}
            data-testid="library-icon-remove"
          >
            {t('library.icon.remove')}
          </Button>
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {change instanceof File
            ? t('library.icon.pending', { name: change.name })
            : change === null
              ? t('library.icon.removing')
              : t('library.icon.hint', { size })}
        </Typography.Text>
      </Space>
    </div>
  );
}
