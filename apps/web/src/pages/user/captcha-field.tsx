import { useEffect } from 'react';
import { Form, Input, Spin, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CodePurpose } from '@lumigrid/contract/browser';
import { useCaptcha } from '../../features/auth/api.ts';

/**
 * The picture code of a form: the id travels in a hidden field, clicking the picture draws a new one. The
 * sign-in draws one only once the server asked for it (`enabled`).
 */
export function useCaptchaField(form: FormInstance, purpose: CodePurpose | 'login', enabled = true) {
  const captcha = useCaptcha(purpose, enabled);
  useEffect(() => {
    if (captcha.data) form.setFieldValue('captchaId', captcha.data.captchaId);
  }, [captcha.data, form]);
  const refresh = () => {
    form.setFieldValue('captcha', '');
    void captcha.refetch();
  };
  return { captcha, refresh };
}

export function CaptchaField({
  state,
  size,
  rules,
}: {
  state: ReturnType<typeof useCaptchaField>;
  size: 'large' | 'middle';
  /** The field's own check; without it the send-code button checks the picture code (it guards sending, not the form). */
  rules?: Rule[];
}) {
  const { t } = useTranslation();
  const { captcha, refresh } = state;
  const image = captcha.data?.image;
  return (
    <>
      <Form.Item name="captchaId" hidden>
        <Input />
      </Form.Item>
      <Form.Item required>
        <div style={{ display: 'flex', gap: 8 }}>
          <Form.Item name="captcha" noStyle rules={rules}>
            <Input
              size={size}
              prefix={<SafetyOutlined />}
              placeholder={t('register.captcha')}
              aria-label={t('register.captcha')}
              maxLength={10}
              autoComplete="off"
            />
          </Form.Item>
          <button
            type="button"
            onClick={refresh}
            title={t('register.captchaRefresh')}
            aria-label={t('register.captchaRefresh')}
            style={{ padding: 0, border: 0, background: 'none', flex: 'none' }}
          >
            {image && !captcha.isFetching ? (
              <img className="lg-user__captcha" src={image} alt={t('register.captcha')} />
            ) : (
              <span className="lg-user__captcha" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                {captcha.isFetching ? <Spin size="small" /> : <SafetyOutlined />}
              </span>
            )}
          </button>
        </div>
      </Form.Item>
    </>
  );
}
