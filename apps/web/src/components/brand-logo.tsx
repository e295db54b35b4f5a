import { useState } from 'react';
import { DEFAULT_ASSET_BASE } from '../features/branding/branding.ts';

const FALLBACK = `${DEFAULT_ASSET_BASE}/logo.svg`;

/** The branding logo; a broken picture falls back to the shipped default rather than an empty frame. */
export function BrandLogo({ src, alt, className, size }: { src: string; alt: string; className?: string; size?: number }) {
  const [failed, setFailed] = useState<string | undefined>();
  return (
    <img
      className={className}
      src={failed === src ? FALLBACK : src}
      alt={alt}
      height={size}
      onError={() => setFailed(src)}
      style={size ? { height: size, width: 'auto' } : undefined}
    />
  );
}
