import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this a compressed copy saves less than its extra request header costs. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (.br, maximum quality) and a gzip (.gz) copy beside every compressible output file, once at
 * build time, so the server sends the smallest encoding a browser accepts without compressing per request.
 * A copy that is not smaller than the original is not written.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'lumigrid-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      await Promise.all(
        Object.values(bundle).map(async (file) => {
          if (!COMPRESSIBLE.test(file.fileName)) return;
          const source = Buffer.from(file.type === 'chunk' ? file.code : file.source);
          if (source.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(source, {
              params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
            }),
            gz(source, { level: 9 }),
          ]);
          const path = join(dir, file.fileName);
          if (br.length < source.length) await writeFile(`${path}.br`, br);
          if (gzipped.length < source.length) await writeFile(`${path}.gz`, gzipped);
        }),
      );
    },
  };
}
