import { Col, Form, Input, InputNumber, Row, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Project } from '@lumigrid/contract/browser';
import { useAddProject, useProjectTree, useUpdateProject, WHOLE_TREE } from '../../features/projects/api.ts';
import { checkAddress, checkCoordinate, checkName } from '../../features/projects/checks.ts';
import { parentOptions } from '../../features/projects/tree.ts';
import { useInstallationRule } from './rules.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface ProjectFormValues {
  name: string;
  address?: string;
  parentId?: string | null;
  longitude?: number | null;
  latitude?: number | null;
}

/** The two coordinate fields, side by side: each its own label, placeholder and range check. */
const COORDINATES = ['longitude', 'latitude'] as const;

export interface ProjectFormModalProps {
  open: boolean;
  /** The project to edit; absent to add one. */
  project?: Project;
  /** Preselected parent when adding a sub-project. */
  parentId?: string;
  onClose(): void;
  onSaved?(project: Project): void;
}

/** Adds or edits a project: name, address, parent project, longitude and latitude (spec sections 3 and 5). */
export function ProjectFormModal({ open, project, parentId, onClose, onSaved }: ProjectFormModalProps) {
  const { t } = useTranslation();
  const rule = useInstallationRule();
  const [form] = Form.useForm<ProjectFormValues>();
  const tree = useProjectTree(open ? WHOLE_TREE : undefined);
  const add = useAddProject();
  const update = useUpdateProject();
  const saving = add.isPending || update.isPending;

  // A fresh form on every opening (the modal is destroyed when hidden), so nothing typed survives a cancel.
  const initialValues: ProjectFormValues = project
    ? {
        name: project.name,
        address: project.address ?? '',
        parentId: project.parentId,
        longitude: project.longitude,
        latitude: project.latitude,
      }
    : { name: '', parentId: parentId ?? null };

  const submit = async () => {
    const values = await form.validateFields();
    const body = {
      name: values.name.trim(),
      address: values.address?.trim() ?? '',
      parentId: values.parentId ?? null,
      longitude: values.longitude ?? null,
      latitude: values.latitude ?? null,
    };
    // Failures were shown by the API client in the server's words; the dialog stays open to fix them.
    const saved = project ? await update.mutateAsync({ id: project.id, ...body }) : await add.mutateAsync(body);
    onSaved?.(saved);
    onClose();
  };

  return (
    <FormModal
      open={open}
      title={project ? t('project.editTitle') : t('project.addTitle')}
      okText={t('installation.save')}
      confirmLoading={saving}
      onSubmit={submit}
      onCancel={onClose}
      width={560}
    >
      <Form form={form} layout="vertical" initialValues={initialValues} data-testid="project-form">
        <Form.Item name="name" label={t('project.name')} rules={[rule(checkName, true)]}>
          <Input placeholder={t('installation.namePlaceholder')} autoFocus />
        </Form.Item>
        <Form.Item name="address" label={t('project.address')} rules={[rule(checkAddress)]}>
          <Input placeholder={t('project.addressPlaceholder')} />
        </Form.Item>
        <Form.Item name="parentId" label={t('project.parent')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            loading={tree.isLoading}
            placeholder={t('project.noParent')}
            treeData={parentOptions(tree.data?.projects ?? [], project?.id)}
          />
        </Form.Item>
        <Row gutter={16}>
          {COORDINATES.map((axis) => (
            <Col span={12} key={axis}>
              <Form.Item
                name={axis}
                label={t(`project.${axis}`)}
                rules={[rule((value: number | null | undefined) => checkCoordinate(axis, value))]}
              >
                <InputNumber style={{ width: '100%' }} step={0.01} placeholder={t(`project.${axis}Placeholder`)} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Form>
    </FormModal>
  );
}
