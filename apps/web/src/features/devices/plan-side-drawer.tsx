import type { ReactNode } from 'react';
import { Drawer } from 'antd';
import { usePhone } from '../../components/use-phone.ts';

/**
 * The drawer a floor-plan panel opens in, beside the plan so it stays usable. A phone: a bottom sheet over the
 * lower part of the screen; the page shrinks the plan to the part above it.
 */
export function PlanSideDrawer({
  title,
  extra,
  testId,
  rootClassName,
  onClose,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  testId: string;
  rootClassName?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const phone = usePhone();
  return (
    <Drawer
      open
      mask={false}
      getContainer={phone ? undefined : false}
      placement={phone ? 'bottom' : 'right'}
      width={phone ? undefined : 380}
      height={phone ? '45dvh' : undefined}
      onClose={onClose}
      title={title}
      extra={extra}
      data-testid={testId}
      rootClassName={rootClassName}
    >
      {children}
    </Drawer>
  );
}
