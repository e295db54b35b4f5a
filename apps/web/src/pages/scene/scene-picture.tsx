import { Image } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SCENE_IMAGE } from '@lumigrid/contract/browser';
import { PicturePicker, type PictureChange } from '../../components/picture-picker.tsx';
import './scene-picture.css';

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
 * The editor's picture picker: png or jpeg up to 1 MB, previewed at once, and removable. It is sent once the scene
 * is saved, since a new scene has no id before.
 */
export function ScenePicturePicker(props: {
  /** URL of the picture the scene has now, or null. */
  saved: string | null;
  change: PictureChange;
  onChange(change: PictureChange): void;
}) {
  const { t } = useTranslation();
  return (
    <PicturePicker
      {...props}
      maxBytes={SCENE_IMAGE.maxBytes}
      textKey="scenes.picture"
      testId="scene-picture"
      buttonTestId="scene-picture"
      className="lg-scene-picture"
      preview={(shown) =>
        shown ? (
          <Image src={shown} alt={t('scenes.picture.title')} width={120} height={80} className="lg-scene-picture__image" />
        ) : (
          <span className="lg-scene-picture__image lg-scene-picture__image--empty">
            <PictureOutlined />
          </span>
        )
      }
    />
  );
}
