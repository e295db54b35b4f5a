import { Suspense, type ReactNode } from 'react';
import { LightSpin } from '../components/light-controls.tsx';

/** Suspense boundary for a lazily loaded page: a quiet spinner while its chunk arrives (drawn without antd). */
export function LazyPage({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, height: '100%' }}>
          <LightSpin />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
