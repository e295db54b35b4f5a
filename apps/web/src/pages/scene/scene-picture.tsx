import { useEffect, useMemo } from 'react';
import { App, Button, Image, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SCENE_IMAGE, sizeText } from '@lumigrid/contract';
import { PICTURE_ACCEPT, pictureProblem } from '../../api/upload.ts';
import { codeText } from './scene-results.tsx';
import './scene-picture.css';

/**
 * The picture chosen in an editor before saving: a new file, null to remove the saved one, or undefined to
 * keep it. It is sent once the scene is saved, since a new scene has no id before.
 */
export type PictureChange = File | null | undefined;

/** A scene's picture small, as the list shows it; an empty frame when it has none. */
export function SceneThumb({ url, name }: { url: string | null; name: string }) {
  if (!url)
    return (
      <span className="lg-scene-thumb lg-scene-thumb--empty" aria-hidden>
        <PictureOutlined />
      </span>
    );
  return (
    <span data-testid="scene-thumb">
      <Image src={url} alt={name} width={56} height={40} className="lg-scene-thumb" />
    </span>
  );
}

/**
 * The editor's picture picker: png or jpeg up to 1 MB, checked here before anything is sent (the server checks
 * the bytes again), previewed at once, and removable.
 */
export function ScenePicturePicker({
  saved,
  change,
  onChange,
}: {
  /** URL of the picture the scene has now, or null. */
  saved: string | null;
  change: PictureChange;
  onChange(change: PictureChange): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const preview = useMemo(() => (change instanceof File ? URL.createObjectURL(change) : undefined), [change]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const shown = change === null ? null : (preview ?? saved);

  return (
    <div className="lg-scene-picture" data-testid="scene-picture">
      {shown ? (
        <Image src={shown} alt={t('scenes.picture.title')} width={120} height={80} className="lg-scene-picture__image" />
      ) : (
        <span className="lg-scene-picture__image lg-scene-picture__image--empty">
          <PictureOutlined />
        </span>
      )}
      <Space direction="vertical" size={4}>
        <Space wrap>
          <Upload
            accept={PICTURE_ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              const problem = pictureProblem(file, SCENE_IMAGE.maxBytes);
              if (problem === 'type') void message.error(codeText(t, 100013));
              else if (problem === 'size') void message.error(t('scenes.picture.tooLarge', { size: sizeText(SCENE_IMAGE.maxBytes) }));
              else onChange(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} size="small" data-testid="scene-picture-choose">
              {shown ? t('scenes.picture.replace') : t('scenes.picture.choose')}
            </Button>
          </Upload>
          <Button
            icon={<DeleteOutlined />}
            size="small"
            disabled={!shown}
            onClick={() => onChange(saved ? null : undefined)}
            data-testid="scene-picture-remove"
          >
            {t('scenes.picture.remove')}
          </Button>
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {change instanceof File
            ? t('scenes.picture.pending', { name: change.name })
            : change === null
              ? t('scenes.picture.removing')
              : t('scenes.picture.hint', { size: sizeText(SCENE_IMAGE.maxBytes) })}
        </Typography.Text>
      </Space>
    </div>
  );
}
