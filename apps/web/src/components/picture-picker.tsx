import { useEffect, useMemo, type ReactNode } from 'react';
import { App, Button, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage, sizeText } from '@lumigrid/contract/browser';
import { PICTURE_ACCEPT, pictureProblem, type PictureProblem } from '../api/upload.ts';
import { currentLang } from '../i18n/index.ts';

/**
 * Takes one png or jpeg of at most `maxBytes` from the file dialog. Only a courtesy check, before anything is
 * sent (the server reads the bytes again): a refused file is told in a message, an accepted one handed to
 * `onPick`; nothing is uploaded here.
 */
export function PictureUpload({
  maxBytes,
  problemText,
  onPick,
  children,
}: {
  maxBytes: number;
  problemText(problem: PictureProblem): string;
  onPick(file: File): void;
  /** The button that opens the file dialog. */
  children: ReactNode;
}) {
  const { message } = App.useApp();
  return (
    <Upload
      accept={PICTURE_ACCEPT}
      showUploadList={false}
      beforeUpload={(file) => {
        const problem = pictureProblem(file, maxBytes);
        if (problem) void message.error(problemText(problem));
        else onPick(file);
        return false;
      }}
    >
      {children}
    </Upload>
  );
}

/** A picture chosen in a form before saving: a new file, null to remove the saved one, or undefined to keep it. */
export type PictureChange = File | null | undefined;

/** Catalogue sections holding a picker's texts: choose, replace, remove, hint, pending, removing and tooLarge. */
export type PictureTextKey = 'scenes.picture' | 'library.icon';

/**
 * A form's picture picker: choose or replace, remove, and a line that tells what happens on save. The choice is
 * previewed at once and sent by the form once it is saved (a new record has no id before).
 */
export function PicturePicker({
  saved,
  change,
  onChange,
  maxBytes,
  preview,
  textKey,
  testId,
  buttonTestId,
  className,
}: {
  /** URL of the picture saved now, or null. */
  saved: string | null;
  change: PictureChange;
  onChange(change: PictureChange): void;
  maxBytes: number;
  /** The picture shown: the chosen file, else the saved one; null when there is none. */
  preview(shown: string | null): ReactNode;
  textKey: PictureTextKey;
  testId: string;
  /** Prefix of the buttons' test ids: `<prefix>-choose` and `<prefix>-remove`. */
  buttonTestId: string;
  className: string;
}) {
  const { t } = useTranslation();
  const chosen = useMemo(() => (change instanceof File ? URL.createObjectURL(change) : undefined), [change]);
  useEffect(() => () => (chosen ? URL.revokeObjectURL(chosen) : undefined), [chosen]);
  const shown = change === null ? null : (chosen ?? saved);
  const size = sizeText(maxBytes);

  return (
    <div className={className} data-testid={testId}>
      {preview(shown)}
      <Space direction="vertical" size={4}>
        <Space wrap>
          <PictureUpload
            maxBytes={maxBytes}
            problemText={(problem) => (problem === 'type' ? errorMessage(100013, currentLang()) : t(`${textKey}.tooLarge`, { size }))}
            onPick={onChange}
          >
            <Button icon={<UploadOutlined />} size="small" data-testid={`${buttonTestId}-choose`}>
              {shown ? t(`${textKey}.replace`) : t(`${textKey}.choose`)}
            </Button>
          </PictureUpload>
          <Button
            icon={<DeleteOutlined />}
            size="small"
            disabled={!shown}
            onClick={() => onChange(saved ? null : undefined)}
            data-testid={`${buttonTestId}-remove`}
          >
            {t(`${textKey}.remove`)}
          </Button>
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {change instanceof File
            ? t(`${textKey}.pending`, { name: change.name })
            : change === null
              ? t(`${textKey}.removing`)
              : t(`${textKey}.hint`, { size })}
        </Typography.Text>
      </Space>
    </div>
  );
}
