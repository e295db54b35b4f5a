import { forwardRef } from 'react';
import { Button, Tooltip, type ButtonProps } from 'antd';

/**
 * A button that shows only an icon: `label` names it for screen readers and shows as its tooltip, so
 * neither a mouse user nor a screen-reader user has to guess what it does.
 */
export const IconButton = forwardRef<HTMLButtonElement, ButtonProps & { label: string }>(function IconButton({ label, ...props }, ref) {
  return (
    <Tooltip title={label}>
      <Button ref={ref} aria-label={label} {...props} />
    </Tooltip>
  );
});
