// Builds the server for `npm start`: plain JavaScript in dist/, so production does not compile TypeScript in
// memory at every start (tsx). Plain .mjs so it runs on bare Node before anything is built.
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env } from 'node:process';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
// SERVER_BUNDLE_DIR: another folder (under apps/server, so the packages resolve), for suites that build their own
// bundle while others run the one in dist/.
const dist = env.SERVER_BUNDLE_DIR ? resolve(root, env.SERVER_BUNDLE_DIR) : join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  // Every npm script entry; each file is self-contained (no shared chunks to keep in step).
  entryPoints: ['src/main.ts', 'src/provision.ts', 'src/mosquitto-acl.ts'],
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Stack traces name the .ts files (start with --enable-source-maps); the sources are in the repository, so
  // the maps carry no copy of them and stay small in memory.
  sourcemap: true,
  sourcesContent: false,
  // Class and function names stay as written, also where bundling would rename a clash (logged error types).
  keepNames: true,
  logLevel: 'warning',
  plugins: [
    {
      // The workspace packages (@lumigrid/*) are TypeScript source, so they are bundled. Every other package
      // stays an import resolved from node_modules at run time: native addons (@napi-rs/canvas,
      // @node-rs/argon2), PGlite's wasm and data files, pdf.js and its fonts, pino's worker transports.
      name: 'npm-packages-external',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, ({ path }) => (path.startsWith('@lumigrid/') ? undefined : { path, external: true }));
      },
    },
  ],
});

// Read next to the bundle at run time, as they are next to their source files under tsx:
// db/client.ts opens ./migrations, pglite-thread.ts starts ./pglite.worker.mjs and map-image.ts
// ./pdf-render.worker.mjs (plain JavaScript already).
cpSync(join(root, 'src/db/migrations'), join(dist, 'migrations'), { recursive: true });
cpSync(join(root, 'src/db/pglite.worker.mjs'), join(dist, 'pglite.worker.mjs'));
cpSync(join(root, 'src/modules/projects/pdf-render.worker.mjs'), join(dist, 'pdf-render.worker.mjs'));
