import { useEffect } from 'react';
import { Form, Input, Spin, type FormInstance } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CodePurpose } from '@lumigrid/contract';
import { useCaptcha } from '../../features/auth/api.ts';

/** The picture code of a form: the id travels in a hidden field, clicking the picture draws a new one. */
export function useCaptchaField(form: FormInstance, purpose: CodePurpose) {
  const captcha = useCaptcha(purpose);
  useEffect(() => {
    if (captcha.data) form.setFieldValue('captchaId', captcha.data.captchaId);
  }, [captcha.data, form]);
  const refresh = () => {
    form.setFieldValue('captcha', '');
    void captcha.refetch();
  };
  return { captcha, refresh };
}

export function CaptchaField({ state, size }: { state: ReturnType<typeof useCaptchaField>; size: 'large' | 'middle' }) {
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
          {/* Checked by the send-code button only: the picture code guards sending, not the form. */}
          <Form.Item name="captcha" noStyle>
            <Input size={size} prefix={<SafetyOutlined />} placeholder={t('register.captcha')} maxLength={10} autoComplete="off" />
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
