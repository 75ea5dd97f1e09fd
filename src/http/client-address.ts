/**
 * The address a request comes from, as rate limits and logs use it. With
 * TRUST_PROXY, Fastify takes it from X-Forwarded-For, which a proxy may pass
 * through from the client unchecked: a value that is not an IP address would
 * otherwise become a rate-limit bucket of the client's choosing (a new one per
 * request) and text of the client's choosing in every log line. Such a value is
 * ignored, and the address of the connection (the proxy's) is used instead.
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

export function clientAddress(request: FastifyRequest): string {
  const ip = request.ip;
  return isIP(ip) !== 0 ? ip : (request.socket.remoteAddress ?? 'unknown');
}
