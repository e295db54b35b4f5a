import { Form, Input, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Building } from '@lumigrid/contract/browser';
import { useAddBuilding, useUpdateBuilding } from '../../features/projects/api.ts';
import { checkName } from '../../features/projects/checks.ts';
import { parentOptions } from '../../features/projects/tree.ts';
import { useInstallationRule } from './rules.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface BuildingFormValues {
  name: string;
  parentId?: string | null;
}

export interface BuildingFormModalProps {
  open: boolean;
  projectId: string;
  /** Every building of the project, for the parent picker. */
  buildings: Building[];
  /** The building to edit; absent to add one. */
  building?: Building;
  /** Preselected parent when adding a sub-building. */
  parentId?: string;
  onClose(): void;
  onSaved?(building: Building): void;
}

/** Adds or edits a building: name and parent building in the same project (spec section 3). */
export function BuildingFormModal({ open, projectId, buildings, building, parentId, onClose, onSaved }: BuildingFormModalProps) {
  const { t } = useTranslation();
  const rule = useInstallationRule();
  const [form] = Form.useForm<BuildingFormValues>();
  const add = useAddBuilding();
  const update = useUpdateBuilding();

  const initialValues: BuildingFormValues = building
    ? { name: building.name, parentId: building.parentId }
    : { name: '', parentId: parentId ?? null };

  const submit = async () => {
    const values = await form.validateFields();
    const body = { name: values.name.trim(), parentId: values.parentId ?? null };
    const saved = building ? await update.mutateAsync({ id: building.id, ...body }) : await add.mutateAsync({ projectId, ...body });
    onSaved?.(saved);
    onClose();
  };

  return (
    <FormModal
      open={open}
      title={building ? t('building.editTitle') : t('building.addTitle')}
      okText={t('installation.save')}
      confirmLoading={add.isPending || update.isPending}
      onSubmit={submit}
      onCancel={onClose}
      width={480}
    >
      <Form form={form} layout="vertical" initialValues={initialValues} data-testid="building-form">
        <Form.Item name="name" label={t('building.name')} rules={[rule(checkName, true)]}>
          <Input placeholder={t('installation.namePlaceholder')} autoFocus />
        </Form.Item>
        <Form.Item name="parentId" label={t('building.parent')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            placeholder={t('building.noParent')}
            treeData={parentOptions(buildings, building?.id)}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
