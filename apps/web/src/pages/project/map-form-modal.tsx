import { useEffect, useState } from 'react';
import { Form, Input, Select, Slider } from 'antd';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS, type Building, type MapInfo } from '@lumigrid/contract/browser';
import { useAddMap, useMoveMap, useUpdateMap, useUploadMap } from '../../features/projects/api.ts';
import { checkName } from '../../features/projects/checks.ts';
import { withPaths, PATH_SEPARATOR } from '../../features/projects/tree.ts';
import { FloorPlanPicker } from './floor-plan-picker.tsx';
import { useInstallationRule } from './rules.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface MapFormValues {
  name: string;
  buildId: string;
  opacity: number;
}

export interface MapFormModalProps {
  open: boolean;
  /** The buildings of the project, for the building picker. */
  buildings: Building[];
  /** The map to edit; absent to add one. */
  map?: MapInfo;
  /** Preselected building when adding. */
  buildId?: string;
  onClose(): void;
  onSaved?(map: MapInfo): void;
}

/**
 * Adds a map (name, building, optional floor plan and opacity) or edits one (name, building). A new map's
 * floor plan is uploaded first and its stored name handed to map/v1/add, so a failed upload adds nothing.
 */
export function MapFormModal({ open, buildings, map, buildId, onClose, onSaved }: MapFormModalProps) {
  const { t } = useTranslation();
  const rule = useInstallationRule();
  const [form] = Form.useForm<MapFormValues>();
  const [file, setFile] = useState<File>();
  const add = useAddMap();
  const update = useUpdateMap();
  const move = useMoveMap();
  const upload = useUploadMap();
  const saving = add.isPending || update.isPending || move.isPending || upload.isPending;

  useEffect(() => {
    if (open) setFile(undefined);
  }, [open]);
  const initialValues: MapFormValues = map
    ? { name: map.name, buildId: map.buildId, opacity: map.opacity }
    : { name: '', buildId: buildId ?? buildings[0]?.id ?? '', opacity: PROJECT_LIMITS.opacity.default };

  const submit = async () => {
    const values = await form.validateFields();
    const name = values.name.trim();
    let saved: MapInfo;
    if (map) {
      saved = name === map.name ? map : await update.mutateAsync({ id: map.id, name });
      if (values.buildId !== map.buildId) saved = await move.mutateAsync({ id: map.id, buildId: values.buildId });
    } else {
      const image = file ? (await upload.mutateAsync({ file })).image : null;
      saved = await add.mutateAsync({ buildId: values.buildId, name, opacity: values.opacity, image });
    }
    onSaved?.(saved);
    onClose();
  };

  const buildingOptions = withPaths(buildings).map(({ item, path }) => ({ value: item.id, label: path.join(PATH_SEPARATOR) }));

  return (
    <FormModal
      open={open}
      title={map ? t('map.editTitle') : t('map.addTitle')}
      okText={upload.rendering ? t('map.rendering') : t('installation.save')}
      confirmLoading={saving}
      onSubmit={submit}
      onCancel={onClose}
      width={560}
    >
      <Form form={form} layout="vertical" initialValues={initialValues} data-testid="map-form">
        <Form.Item name="name" label={t('map.name')} rules={[rule(checkName, true)]}>
          <Input placeholder={t('installation.namePlaceholder')} autoFocus />
        </Form.Item>
        <Form.Item name="buildId" label={t('map.building')} rules={[{ required: true, message: t('map.buildingRequired') }]}>
          <Select options={buildingOptions} showSearch optionFilterProp="label" />
        </Form.Item>
        {!map && (
          <>
            <Form.Item label={t('map.image')}>
              <FloorPlanPicker file={file} onChange={setFile} disabled={saving} />
            </Form.Item>
            <Form.Item name="opacity" label={t('map.opacity')}>
              <Slider min={PROJECT_LIMITS.opacity.min} max={PROJECT_LIMITS.opacity.max} tooltip={{ formatter: (v) => `${v ?? 0}%` }} />
            </Form.Item>
          </>
        )}
      </Form>
    </FormModal>
  );
}
