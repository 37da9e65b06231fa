import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outbound webhook requests: never to a private, loopback, link-local or otherwise non-public address
 * (unless the development override allows them), with a timeout and a cap on the answer read.
 *
 * The address is checked where the connection is made (the socket's DNS lookup), so a name that
 * resolves to a public address when checked and a private one when connecting (DNS rebinding) is
 * refused too; an IP literal in the URL is checked before connecting.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a webhook may never reach in production. IPv4 mapped into IPv6 is checked as IPv4. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`Refused: ${host} resolves to ${address}, a private, loopback or link-local address.`);
  }
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address), '', 0);
    // With `all: true` Node's callback takes the address list, a form LookupFunction's type does not describe.
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

export interface OutboundOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  allowPrivateNetworks: boolean;
}

export interface OutboundResult {
  /** null when no answer came (refused, timed out, blocked). */
  statusCode: number | null;
  durationMs: number;
  /** The start of the answer's body (text), at most EXCERPT_CHARS characters. */
  excerpt: string | null;
  error: string | null;
}

export const EXCERPT_CHARS = 1000;

/** POSTs the body; resolves with what happened (never rejects). */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: OutboundOptions): Promise<OutboundResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Omit<OutboundResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ statusCode: null, excerpt: null, error: 'The URL is not valid.' });
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivateNetworks && isIP(host) && isPrivateAddress(host))
      return finish({ statusCode: null, excerpt: null, error: new BlockedAddressError(host, host).message });
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'PartnerHub-Webhooks/1', 'content-length': Buffer.byteLength(body), ...headers },
        ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup }),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= options.maxResponseBytes) return;
          chunks.push(chunk.subarray(0, options.maxResponseBytes - size));
          size += chunk.length;
          // Past the cap the rest is not read: the connection is closed.
          if (size >= options.maxResponseBytes) {
            response.destroy();
            done();
          }
        });
        const done = () =>
          finish({ statusCode: response.statusCode ?? null, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS), error: null });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, excerpt: null, error: `No answer within ${options.timeoutMs} ms.` });
    }, options.timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, excerpt: null, error: error.message }));
    request.end(body);
  });
}
