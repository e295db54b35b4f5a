import { useState } from 'react';
import { App, Col, Form, Input, InputNumber, Row, Select, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  LIBRARY_LIMITS,
  errorMessage,
  normalisePartNumber,
  partNumberProblem,
  type LibraryType,
  type LibraryTypeAddBody,
  type TypeListRow,
} from '@lumigrid/contract/browser';
import { typeNameKey } from '../../features/device-config/param-fields.ts';
import { useAddLibraryType, useLibraryIcon, useRemoveLibraryIcon, useUpdateLibraryType } from '../../features/library/api.ts';
import { currentLang } from '../../i18n/index.ts';
import type { PictureChange } from '../../components/picture-picker.tsx';
import { LibraryIconPicker } from './library-icon.tsx';
import { FormModal } from '../../components/form-modal.tsx';

type LibraryForm = Omit<LibraryTypeAddBody, 'type'> & { type: number | undefined };

const { initialPower: POWER, lifespan: LIFE, name: NAME, partNumber: PART } = LIBRARY_LIMITS;

/** Adds a type to the library (`type` undefined) or changes one, with its icon. */
export function LibraryFormModal({
  open,
  type,
  table,
  onClose,
}: {
  open: boolean;
  type: LibraryType | undefined;
  /** The type code table, for the type choice. */
  table: readonly TypeListRow[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LibraryForm>();
  const [icon, setIcon] = useState<PictureChange>();
  const add = useAddLibraryType();
  const update = useUpdateLibraryType();
  const upload = useLibraryIcon();
  const removeIcon = useRemoveLibraryIcon();
  const busy = add.isPending || update.isPending || upload.isPending || removeIcon.isPending;

  // Lights first, as a luminaire library mostly holds them; then everything else, by code.
  const options = [...table]
    .sort((a, b) => Number(b.lighting) - Number(a.lighting) || a.code - b.code)
    .map((row) => ({ value: row.code, label: t(typeNameKey(row.code)) }));

  const initial: Partial<LibraryForm> = type
    ? { name: type.name, type: type.type, initialPower: type.initialPower, lifespan: type.lifespan, partNumber: type.partNumber }
    : { lifespan: 50000 };

  const save = async (values: LibraryForm) => {
    const body = { ...values, type: values.type!, name: values.name.trim(), partNumber: normalisePartNumber(values.partNumber) };
    const saved = type ? await update.mutateAsync({ id: type.id, ...body }) : await add.mutateAsync(body);
    // The type is saved either way: a refused icon leaves it with the icon before (the refusal is shown).
    const iconChange =
      icon instanceof File
        ? upload.mutateAsync({ id: saved.id, file: icon })
        : icon === null
          ? removeIcon.mutateAsync(saved.id)
          : undefined;
    const iconSaved = await Promise.resolve(iconChange).then(
      () => true,
      () => false,
    );
    if (iconSaved) void message.success(t(type ? 'library.saved' : 'library.added'));
    onClose();
  };

  return (
    <FormModal
      open={open}
      title={t(type ? 'library.editTitle' : 'library.addTitle')}
      width={640}
      okText={t('library.save')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterOpenChange={(visible) => visible || setIcon(undefined)}
      okButtonProps={{ 'data-testid': 'library-save' } as ButtonProps}
    >
      <Form<LibraryForm>
        form={form}
        layout="vertical"
        initialValues={initial}
        preserve={false}
        onFinish={(values) => void save(values).catch(() => undefined)}
        data-testid="library-form"
      >
        <Form.Item label={t('library.field.icon')}>
          <LibraryIconPicker saved={type?.icon ?? null} change={icon} onChange={setIcon} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="name"
              label={t('library.field.name')}
              rules={[
                { required: true, whitespace: true, message: t('library.form.nameRequired') },
                { max: NAME.max, message: t('library.form.nameLength', { max: NAME.max }) },
              ]}
            >
              <Input maxLength={NAME.max} showCount data-testid="library-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="type" label={t('library.field.type')} rules={[{ required: true, message: t('library.form.typeRequired') }]}>
              <Select
                options={options}
                showSearch
                optionFilterProp="label"
                placeholder={t('library.form.typePlaceholder')}
                data-testid="library-type"
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="partNumber"
              label={t('library.field.partNumber')}
              extra={t('library.form.partHint', { min: PART.min, max: PART.max })}
              normalize={(value: string | undefined) => value?.toUpperCase()}
              rules={[
                { required: true, whitespace: true, message: t('library.form.partRequired') },
                {
                  validator: async (_rule, value: string | undefined) => {
                    if (value?.trim() && partNumberProblem(normalisePartNumber(value)))
                      throw new Error(errorMessage(100601, currentLang()));
                  },
                },
              ]}
            >
              <Input maxLength={PART.max + 8} style={{ fontFamily: 'monospace' }} data-testid="library-part-number" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="initialPower"
              label={t('library.field.initialPower')}
              extra={t('library.form.range', { min: POWER.min, max: POWER.max.toLocaleString() })}
              rules={[{ required: true, message: t('library.form.powerRequired', { min: POWER.min, max: POWER.max }) }]}
            >
              <InputNumber
                min={POWER.min}
                max={POWER.max}
                precision={1}
                addonAfter="W"
                style={{ width: '100%' }}
                data-testid="library-power"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="lifespan"
              label={t('library.field.lifespan')}
              extra={t('library.form.range', { min: LIFE.min.toLocaleString(), max: LIFE.max.toLocaleString() })}
              rules={[{ required: true, message: t('library.form.lifespanRequired', { min: LIFE.min, max: LIFE.max }) }]}
            >
              <InputNumber
                min={LIFE.min}
                max={LIFE.max}
                step={1000}
                precision={0}
                addonAfter={t('library.hours')}
                style={{ width: '100%' }}
                data-testid="library-lifespan"
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
