import fastifyMultipart from '@fastify/multipart';
import { sizeText, type EndpointAnswer, type EndpointSpec } from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import type { EndpointContext, RouteOf } from './endpoint-route.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The file of a single-file upload, read before validation. */
    uploadedFile?: Buffer;
  }
}

/** Multipart errors of @fastify/multipart: a file over the limit, or more parts, files or fields than one upload has. */
const TOO_LARGE = 'FST_REQ_FILE_TOO_LARGE';
const TOO_MANY = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads a multipart upload (one `file` part and the plain fields named) into memory, at most maxBytes, before
 * validation; the body the schema validates is then just those fields. No file answers 100013, a larger one
 * 100014 with the limit.
 */
function readSingleFile(maxBytes: number, fields: readonly string[]) {
  return async (request: FastifyRequest) => {
    if (!request.isMultipart()) throw new AppError(100013);
    const body: Record<string, string> = {};
    let data: Buffer | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.fieldname === 'file' && !data) data = bytes;
        } else if (fields.includes(part.fieldname) && typeof part.value === 'string' && part.value !== '') {
          body[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === TOO_LARGE) throw new AppError(100014, sizeText(maxBytes));
      if (code && TOO_MANY.has(code)) throw new AppError(100001, 'one file and its fields at most');
      if (error instanceof AppError) throw error;
      throw new AppError(100013);
    }
    if (!data) throw new AppError(100013);
    request.uploadedFile = data;
    request.body = body;
  };
}

/**
 * Registers a single-file upload endpoint in a plugin scope of its own: multipart is accepted by upload
 * routes only, each with its own size limit. The handler gets the file beside the validated fields.
 */
export function uploadRoute<E extends EndpointSpec>(
  route: RouteOf,
  spec: E,
  options: { maxBytes: number; fields?: readonly string[] },
  handler: (context: EndpointContext<E>, file: Buffer) => Promise<EndpointAnswer<E>>,
) {
  const fields = options.fields ?? [];
  void route.scope(async (scopedRoute, scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: options.maxBytes,
        files: 1,
        fields: fields.length + 2,
        fieldSize: 1024,
        parts: fields.length + 3,
        headerPairs: 50,
      },
    });
    scopedRoute(spec, (context) => handler(context, context.request.uploadedFile!), {
      preValidation: readSingleFile(options.maxBytes, fields),
    });
  });
}
