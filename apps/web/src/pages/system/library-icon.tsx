import { BulbOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIBRARY_LIMITS } from '@lumigrid/contract/browser';
import { PicturePicker, type PictureChange } from '../../components/picture-picker.tsx';
import './library-page.css';

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
 * The form's icon picker: png or jpeg up to 1 MB, previewed at once, and removable. It is uploaded once the type
 * is saved: a new type has no id before.
 */
export function LibraryIconPicker(props: { saved: string | null; change: PictureChange; onChange(change: PictureChange): void }) {
  const { t } = useTranslation();
  return (
    <PicturePicker
      {...props}
      maxBytes={LIBRARY_LIMITS.icon.maxBytes}
      textKey="library.icon"
      testId="library-icon-picker"
      buttonTestId="library-icon"
      className="lg-library-picker"
      preview={(shown) => <LibraryIcon url={shown} name={t('library.field.icon')} size={72} />}
    />
  );
}
