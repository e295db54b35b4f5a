import { createHash } from 'node:crypto';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** The entry built to /sw.js (vite.config.ts names it); the rest of the build has content-hashed names. */
export const SERVICE_WORKER_ENTRY = 'sw';
const PLACEHOLDER = '__LUMIGRID_SHELL__';
/** Kept with the shell so the offline page shows a picture even before the host's icon was ever fetched. */
const STATIC_FILES = ['/branding/default/favicon.svg'];

/** A page entry's own files: its chunk, the chunks it imports at once, and their styles. */
function filesOf(entry: OutputChunk, bundle: OutputBundle, into: Set<string>) {
  if (into.has(`/${entry.fileName}`)) return;
  into.add(`/${entry.fileName}`);
  for (const css of entry.viteMetadata?.importedCss ?? []) into.add(`/${css}`);
  for (const name of entry.imports) {
    const chunk = bundle[name];
    if (chunk?.type === 'chunk') filesOf(chunk, bundle, into);
  }
}

/**
 * Fills the service worker's list of files to keep: the offline page and the app's shell (the entry of each
 * page with what it imports at once; lazy pages are kept as they are first loaded). The list's hash is the
 * cache version, so a new release replaces the old cache and nothing stale is left behind.
 */
export function serviceWorkerShell(): Plugin {
  return {
    name: 'lumigrid-service-worker-shell',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const worker = Object.values(bundle).find((file): file is OutputChunk => file.type === 'chunk' && file.name === SERVICE_WORKER_ENTRY);
      if (!worker) throw new Error('the build has no service worker entry');
      const files = new Set<string>(['/offline.html', ...STATIC_FILES]);
      for (const file of Object.values(bundle))
        if (file.type === 'chunk' && file.isEntry && file !== worker && file.facadeModuleId?.endsWith('.html'))
          filesOf(file, bundle, files);
      const list = [...files].sort();
      const version = createHash('sha256').update(list.join('\n')).digest('hex').slice(0, 12);
      if (!worker.code.includes(PLACEHOLDER)) throw new Error('the service worker lost its file list placeholder');
      worker.code = worker.code.replaceAll(PLACEHOLDER, JSON.stringify({ version, files: list }));
    },
  };
}
