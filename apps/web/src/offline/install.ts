import { brandingEndpoints, endpointPath, normaliseHost } from '@lumigrid/contract/browser';

/**
 * Makes the app installable on this host: the manifest with the host's brand, and the service worker that
 * answers a page load with the offline page when the server cannot be reached. Only the built app has one
 * (the development server rebuilds files the worker would keep).
 */
export function makeInstallable(): void {
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = endpointPath(brandingEndpoints.manifest, { host: normaliseHost(window.location.hostname) });
  document.head.appendChild(link);

  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.warn('service worker not registered', error));
  });
}
