import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { DEMO_PASSWORD } from '../seed/identity';

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: string; role: string; permissions: string[]; effectivePermissions: string[] };
}

export async function login(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<Session> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login of ${email} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** app.inject with the session's bearer token. */
export function as(app: FastifyInstance, session: Session | undefined) {
  return (options: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(session ? { authorization: `Bearer ${session.accessToken}` } : {}) } });
}
