import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Provider, { type ClientMetadata } from 'oidc-provider';

/**
 * A real OpenID provider (the certified `oidc-provider` package) on a local port, for tests. Its
 * development login page signs in whoever types an account name; an account name that is an e-mail
 * address gets that address as its verified `email` unless `accounts` says otherwise.
 */
export interface TestIdentityProvider {
  issuer: string;
  /** Seconds an authorization code stays good (a test shortens it to see an expired code refused). */
  codeTtlSeconds: number;
  /** Follows the provider's redirects from an authorization URL, signs in as `login`, and answers the redirect back to the client. */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export interface TestIdentityProviderOptions {
  clients: ClientMetadata[];
  accounts?: Record<string, { email: string; email_verified: boolean; name?: string }>;
  /** Listen on this host name in the issuer (127.0.0.1 by default). */
  host?: string;
}

export async function startTestIdentityProvider(options: TestIdentityProviderOptions): Promise<TestIdentityProvider> {
  const settings = { codeTtlSeconds: 60 };
  const server: Server = await new Promise((resolve) => {
    const listening = createServer();
    listening.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const provider = new Provider(issuer, {
    clients: options.clients,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    ttl: { AuthorizationCode: () => settings.codeTtlSeconds, Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
    // The portal asks only for what the person agreed to with their organisation: no consent screen here.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, id) {
      const known = options.accounts?.[id];
      const claims = known ?? (id.includes('@') ? { email: id, email_verified: true, name: id.split('@')[0] } : { email: undefined, email_verified: false });
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
  });
  // Development interactions log a warning on every start; tests do not need it.
  provider.on('server_error', () => {});
  server.on('request', provider.callback());

  const signIn = async (authorizationUrl: string, login: string): Promise<URL> => {
    const cookies = new Map<string, string>();
    const request = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    };
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await request(url);
      const location = response.headers.get('location');
      if (response.status === 200) {
        // The development login form: post the account name to its action.
        const html = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`no login form at ${url}`);
        const posted = await request(new URL(action, issuer).href, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
        });
        url = new URL(posted.headers.get('location')!, issuer).href;
        continue;
      }
      if (!location) throw new Error(`${url} answered ${response.status} without a redirect`);
      const next = new URL(location, url);
      if (next.origin !== new URL(issuer).origin) return next;
      url = next.href;
    }
    throw new Error('too many redirects at the identity provider');
  };

  return {
    issuer,
    get codeTtlSeconds() {
      return settings.codeTtlSeconds;
    },
    set codeTtlSeconds(value: number) {
      settings.codeTtlSeconds = value;
    },
    signIn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
