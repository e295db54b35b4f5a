import { Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';

/** Suspense boundary for a lazily loaded page: a quiet spinner while its chunk arrives. */
export function LazyPage({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, height: '100%' }}>
          <Spin />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
