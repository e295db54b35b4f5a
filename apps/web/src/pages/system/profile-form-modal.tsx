import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, type LoginUser } from '@lumigrid/contract/browser';
import { useRule } from '../../components/form-rules.ts';
import { checkMail, checkPhone, checkWeightedMax, ifGiven } from '../../components/validators.ts';
import { useUpdateProfile } from '../../features/auth/api.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface ProfileValues {
  name?: string;
  mail?: string;
  phone?: string;
  remarks?: string;
}

/** The user centre's edit-own-info form: name, e-mail, phone and remarks (spec sections 2 and 3). */
export function ProfileFormModal({ user, onClose }: { user: LoginUser; onClose(): void }) {
  const { t } = useTranslation();
  const rule = useRule();
  const [form] = Form.useForm<ProfileValues>();
  const save = useUpdateProfile();

  const submit = async () => {
    const values = await form.validateFields();
    await save.mutateAsync({
      name: values.name?.trim() || undefined,
      mail: values.mail?.trim() ?? '',
      phone: values.phone?.trim() ?? '',
      remarks: values.remarks?.trim() ?? '',
    });
    onClose();
  };

  return (
    <FormModal
      open
      title={t('center.editInfo')}
      okText={t('installation.save')}
      confirmLoading={save.isPending}
      onSubmit={submit}
      onCancel={onClose}
      width={480}
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="profile-form"
        initialValues={{ name: user.name, mail: user.mail ?? '', phone: user.phone ?? '', remarks: user.remarks ?? '' }}
      >
        <Form.Item
          name="name"
          label={t('center.name')}
          rules={[rule(checkWeightedMax(LIMITS.personName.max), { max: LIMITS.personName.max }, false)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="mail" label={t('center.mail')} rules={[rule(ifGiven(checkMail), {}, false)]}>
          <Input />
        </Form.Item>
        <Form.Item name="phone" label={t('center.phone')} rules={[rule(ifGiven(checkPhone), {}, false)]}>
          <Input />
        </Form.Item>
        <Form.Item name="remarks" label={t('center.remarks')}>
          <Input.TextArea rows={3} maxLength={LIMITS.remarks.max} showCount />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
