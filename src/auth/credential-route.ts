/**
 * GET /credential: who the caller is, as the service sees its credential (its
 * id and scopes, never the secret). A client decides from it what to offer
 * (the console shows no edit buttons to a read-only key); the server still
 * checks every request on its own. Any valid credential may ask, whatever its
 * scopes (route access `credential`); without one it is a 401 like any route.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { SCOPES, type AuthConfig } from '../config.js';
import { H, operationErrors, response, successHeaders } from '../http/openapi/responses.js';

const CredentialDescription = Type.Object(
  {
    auth_mode: Type.Union([Type.Literal('none'), Type.Literal('api-key'), Type.Literal('jwt')], { description: 'AUTH_MODE: with `none` nothing is checked and every scope is held.' }),
    id: Type.Optional(Type.String({ description: "The API key's id, or the token's subject (absent with AUTH_MODE=none)." })),
    scopes: Type.Array(Type.Union(SCOPES.map((scope) => Type.Literal(scope))), { description: 'The scopes this credential holds.' }),
    client: Type.Optional(Type.String({ description: 'The OAuth client the token was issued to, when it is not the subject.' })),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: "When the token stops being valid (a JWT's `exp`)." })),
  },
  { additionalProperties: false },
);

const schema = {
  operationId: 'getCredential',
  summary: 'The credential this request carries: its id and scopes',
  description: 'For clients that adapt to what the caller may do. Any valid credential may read its own; the secret is never part of the answer.',
  tags: ['service'],
  response: {
    200: response({ description: 'The credential, as the service sees it.', headers: successHeaders('protected', [H.cacheControl]), body: { schema: CredentialDescription } }),
    ...operationErrors({ kind: 'protected' }),
  },
};

export async function credentialRoute(app: FastifyInstance, { auth }: { auth: AuthConfig }): Promise<void> {
  app.get('/credential', { config: { access: 'credential' }, schema }, async (request, reply) => {
    const credential = request.credential;
    const body =
      auth.mode === 'none' || credential === undefined
        ? { auth_mode: auth.mode, scopes: [...SCOPES] }
        : {
            auth_mode: auth.mode,
            id: credential.id,
            scopes: SCOPES.filter((scope) => credential.scopes.has(scope)),
            ...(credential.client === undefined ? {} : { client: credential.client }),
            ...(credential.expiresAt === undefined ? {} : { expires_at: new Date(credential.expiresAt).toISOString() }),
          };
    return reply.header('cache-control', 'no-store').send(body);
  });
}
