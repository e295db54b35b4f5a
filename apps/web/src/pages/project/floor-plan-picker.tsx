import { useEffect, useMemo } from 'react';
import { App, Button, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, FilePdfOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { floorPlanProblem } from '../../features/projects/checks.ts';
import './floor-plan.css';

export interface FloorPlanPickerProps {
  file: File | undefined;
  onChange(file: File | undefined): void;
  disabled?: boolean;
}

/** A file size for people: KB below a megabyte, MB above. */
function fileSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Chooses a floor plan (jpg, png or pdf up to 5 MB) and previews it before anything is uploaded. */
export function FloorPlanPicker({ file, onChange, disabled }: FloorPlanPickerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isPdf = file ? file.type === 'application/pdf' || /\.pdf$/i.test(file.name) : false;
  const previewUrl = useMemo(() => (file && !isPdf ? URL.createObjectURL(file) : undefined), [file, isPdf]);
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl]);

  if (file) {
    return (
      <div className="lg-floor-plan-pick" data-testid="floor-plan-pick">
        {previewUrl ? (
          <div className="lg-floor-plan-frame">
            <img src={previewUrl} alt={file.name} data-testid="floor-plan-preview" />
          </div>
        ) : (
          <Space className="lg-floor-plan-pdf">
            <FilePdfOutlined style={{ fontSize: 32, color: '#cf1322' }} />
            <Typography.Text type="secondary">{t('map.pdfHint')}</Typography.Text>
          </Space>
        )}
        <Space style={{ marginTop: 8 }}>
          <Typography.Text ellipsis style={{ maxWidth: 320 }}>
            {file.name} · {fileSize(file.size)}
          </Typography.Text>
          <Button size="small" icon={<DeleteOutlined />} onClick={() => onChange(undefined)} disabled={disabled}>
            {t('map.clearFile')}
          </Button>
        </Space>
      </div>
    );
  }

  return (
    <Upload.Dragger
      accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf"
      multiple={false}
      showUploadList={false}
      disabled={disabled}
      beforeUpload={(chosen) => {
        const problem = floorPlanProblem(chosen);
        if (problem === 'type') void message.error(t('map.invalidImage'));
        else if (problem === 'size') void message.error(t('map.tooLarge'));
        else onChange(chosen);
        // Nothing uploads here: the caller sends the file when the user confirms.
        return Upload.LIST_IGNORE;
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{t('map.pick')}</p>
      <p className="ant-upload-hint">{t('map.uploadHint')}</p>
    </Upload.Dragger>
  );
}
