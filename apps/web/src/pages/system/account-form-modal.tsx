import { Col, Form, Input, Radio, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, OPERATE_AUTH, USER_AUTH, type ManagedAccount } from '@lumigrid/contract/browser';
import { useRule } from '../../components/form-rules.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { checkAccount, checkMail, checkNewPassword, checkPhone, checkWeightedMax, ifGiven } from '../../components/validators.ts';
import { useMe } from '../../features/auth/api.ts';
import { operateAuthKey } from '../../features/auth/role-label.ts';
import { useProjectTree } from '../../features/projects/api.ts';
import { useAddAccount, useUpdateAccount } from '../../features/users/api.ts';
import { FormModal } from '../../components/form-modal.tsx';

interface AccountFormValues {
  account: string;
  password?: string;
  name?: string;
  mail?: string;
  phone?: string;
  company?: string;
  country?: string;
  address?: string;
  remarks?: string;
  operateAuth?: number;
  /** Whether a sub-account sees every project of the account or only projectIds. */
  scope?: 'all' | 'some';
  projectIds?: string[];
  /** An administrator's push permission (push review, docs/roles.md). */
  pushAuth?: boolean;
}

export interface AccountFormModalProps {
  open: boolean;
  /** What the form creates or edits: 1 administrator, 2 account, 3 sub-account. */
  userAuth: number;
  /** The account to edit; absent to add one. */
  account?: ManagedAccount;
  onClose(): void;
}

const optional = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** Adds or edits an account with the fields of spec section 3; a sub-account also gets its authority. */
export function AccountFormModal({ open, userAuth, account, onClose }: AccountFormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AccountFormValues>();
  const add = useAddAccount();
  const update = useUpdateAccount();
  const isSub = userAuth === USER_AUTH.subAccount;
  const tree = useProjectTree(isSub ? '0' : undefined);
  const scope = Form.useWatch('scope', form);
  const { data: me } = useMe();
  // Another administrator's push permission; nobody grants it to themselves.
  const grantsPush = userAuth === USER_AUTH.admin && account !== undefined && account.id !== me?.id;

  const rule = useRule();
  const weighted = (max: number) => rule(checkWeightedMax(max), { max }, false);

  const submit = async () => {
    const values = await form.validateFields();
    // Adding leaves empty fields out; editing sends them empty, which clears them.
    const field = (value: string | undefined) => (account ? (value?.trim() ?? '') : optional(value));
    const fields = {
      name: optional(values.name),
      mail: field(values.mail),
      phone: field(values.phone),
      company: field(values.company),
      country: field(values.country),
      address: field(values.address),
      remarks: field(values.remarks),
      ...(isSub && values.operateAuth !== undefined ? { operateAuth: values.operateAuth as 2 | 3 | 4 } : {}),
      ...(isSub ? { projectIds: values.scope === 'some' ? (values.projectIds ?? []) : null } : {}),
      ...(grantsPush && values.pushAuth !== account?.pushAuth ? { pushAuth: values.pushAuth } : {}),
    };
    if (account) await update.mutateAsync({ id: account.id, ...fields });
    else
      await add.mutateAsync({
        userAuth: userAuth as 1 | 2 | 3,
        account: values.account.trim(),
        password: values.password ?? '',
        ...fields,
      });
    onClose();
  };

  const initialValues: AccountFormValues = account
    ? {
        account: account.account,
        name: account.name,
        mail: account.mail ?? undefined,
        phone: account.phone ?? undefined,
        company: account.company ?? undefined,
        country: account.country ?? undefined,
        address: account.address ?? undefined,
        remarks: account.remarks ?? undefined,
        operateAuth: account.operateAuth,
        scope: account.projectIds ? 'some' : 'all',
        projectIds: account.projectIds ?? [],
        pushAuth: account.pushAuth,
      }
    : { account: '', operateAuth: OPERATE_AUTH.viewOnly, scope: 'all', projectIds: [] };

  return (
    <FormModal
      open={open}
      title={t(account ? 'accounts.editTitle' : isSub ? 'accounts.addSub' : 'accounts.addTitle')}
      okText={t('installation.save')}
      confirmLoading={add.isPending || update.isPending}
      onSubmit={submit}
      onCancel={onClose}
      width={560}
    >
      <Form form={form} layout="vertical" initialValues={initialValues} data-testid="account-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="account" label={t('accounts.account')} rules={[rule(checkAccount), weighted(LIMITS.personName.max)]}>
              <Input disabled={account !== undefined} autoComplete="off" />
            </Form.Item>
          </Col>
          {!account && (
            <Col xs={24} sm={12}>
              <Form.Item
                name="password"
                label={t('accounts.password')}
                rules={[rule(checkNewPassword, { min: LIMITS.password.min, max: LIMITS.password.max })]}
              >
                <PasswordInput autoComplete="new-password" />
              </Form.Item>
            </Col>
          )}
          {isSub && (
            <Col xs={24} sm={12}>
              <Form.Item name="operateAuth" label={t('accounts.authority')}>
                <Select
                  options={[OPERATE_AUTH.editable, OPERATE_AUTH.controllable, OPERATE_AUTH.viewOnly].map((value) => ({
                    value,
                    label: t(operateAuthKey(value)!),
                  }))}
                />
              </Form.Item>
            </Col>
          )}
          {isSub && (
            <Col xs={24} sm={24}>
              <Form.Item name="scope" label={t('accounts.projects')} extra={t('accounts.projectsHint')}>
                <Radio.Group
                  options={[
                    { value: 'all', label: t('accounts.everyProject') },
                    { value: 'some', label: t('accounts.someProjects') },
                  ]}
                />
              </Form.Item>
              {scope === 'some' && (
                <Form.Item name="projectIds" rules={[{ required: true, type: 'array', min: 1, message: t('accounts.projectsRequired') }]}>
                  <Select
                    mode="multiple"
                    aria-label={t('accounts.projects')}
                    loading={tree.isLoading}
                    optionFilterProp="label"
                    options={(tree.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
                  />
                </Form.Item>
              )}
            </Col>
          )}
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('accounts.name')} rules={[weighted(LIMITS.personName.max)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="mail" label={t('accounts.mail')} rules={[rule(ifGiven(checkMail), {}, false)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="phone" label={t('accounts.phone')} rules={[rule(ifGiven(checkPhone), {}, false)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="company" label={t('accounts.company')} rules={[weighted(LIMITS.company.max)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="country" label={t('accounts.country')}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={24}>
            <Form.Item name="address" label={t('accounts.address')}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={24}>
            <Form.Item name="remarks" label={t('accounts.remarks')}>
              <Input.TextArea rows={3} maxLength={LIMITS.remarks.max} showCount />
            </Form.Item>
          </Col>
          {grantsPush && (
            <Col xs={24} sm={24}>
              <Form.Item name="pushAuth" label={t('push.permission.label')} extra={t('push.permission.hint')} valuePropName="checked">
                <Switch data-testid="account-push-auth" />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Form>
    </FormModal>
  );
}
