import { useMutation } from '@tanstack/react-query';
import type { EndpointInput, RouteDeclaration, RouteFields } from '@lumigrid/contract/browser';
import { callFile, type CallOptions, type DownloadedFile } from './client.ts';

/** Hands a file to the browser's downloads, under the server's name or the fallback. */
export function saveFile(file: DownloadedFile, fallbackName: string): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? fallbackName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL is no longer needed once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Calls a raw endpoint that answers a file (an export) and saves what it answers. */
export async function downloadFile<R extends RouteFields & { kind: 'raw' }>(
  spec: R,
  input: EndpointInput<RouteDeclaration<R>>,
  fallbackName: string,
  options?: CallOptions,
): Promise<void> {
  saveFile(await callFile(spec, input, options), fallbackName);
}

/**
 * A download behind a button: `isPending` while the server writes the file. A failure is only recorded in
 * the mutation, since the client has already shown it.
 */
export function useDownload(download: () => Promise<void>) {
  return useMutation({ mutationFn: download });
}
