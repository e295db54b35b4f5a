import { Input } from 'antd';
import type { PasswordProps } from 'antd/es/input';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * antd's password field with its show/hide toggle as a real button: reachable with Tab, pressed with Enter
 * or Space, and named for screen readers (antd draws a bare icon a keyboard cannot reach).
 */
export function PasswordInput(props: PasswordProps) {
  const { t } = useTranslation();
  return (
    <Input.Password
      {...props}
      iconRender={(visible) => (
        <button type="button" aria-label={t(visible ? 'common.hidePassword' : 'common.showPassword')} aria-pressed={visible}>
          {visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </button>
      )}
    />
  );
}
