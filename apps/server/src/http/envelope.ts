import { DEFAULT_LANG, SUCCESS, SUCCESS_MESSAGE, langFromAcceptLanguage, type Lang } from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The caller's language: the Accept-Language header first (the web client sends its interface language),
 * then the signed-in user's saved language, then the default.
 */
export function requestLang(request: FastifyRequest): Lang {
  return langFromAcceptLanguage(request.headers['accept-language']) ?? request.auth?.lang ?? DEFAULT_LANG;
}

/** A success envelope in the caller's language. */
export function ok<T>(request: FastifyRequest, data: T) {
  return { code: SUCCESS, msg: SUCCESS_MESSAGE[requestLang(request)], data };
}
