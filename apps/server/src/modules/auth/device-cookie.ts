import { authEndpoints, LIMITS } from '@lumigrid/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie that names a browser to the sign-in: 256 random bits, the server keeps only their SHA-256. */
const DEVICE_COOKIE = 'lg_device';
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

/** A cookie the request carries, when it is well-formed. */
export function cookieValue(request: FastifyRequest, name: string, shape: RegExp): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === name && value !== undefined && shape.test(value)) return value;
  }
  return undefined;
}

/** The device id the browser sent with a sign-in, when it sent a well-formed one. */
export function deviceIdOf(request: FastifyRequest): string | undefined {
  return cookieValue(request, DEVICE_COOKIE, DEVICE_ID);
}

/**
 * Keeps the device id in the browser for as long as the account remembers the device. Only the sign-in
 * receives it (its path), no script reads it (HttpOnly), and no other site's request carries it (SameSite).
 */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, device: string): void {
  const maxAge = Math.floor(LIMITS.signIn.knownDevice.keptMs / 1000);
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${device}; Path=${authEndpoints.login.path}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`,
  );
}
