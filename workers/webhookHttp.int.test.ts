import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, postWebhook } from './webhookHttp';

let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    if (request.url === '/slow') return void setTimeout(() => response.end('late'), 2000);
    if (request.url === '/big') return void response.end('x'.repeat(200_000));
    response.writeHead(202).end('accepted');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const options = { timeoutMs: 500, maxResponseBytes: 1024, allowPrivateNetworks: true };

describe('the SSRF guard', () => {
  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(address), address).toBe(false);
  });
  it('refuses a loopback IP literal and a name that resolves to loopback, without the development override', async () => {
    const literal = await postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, { ...options, allowPrivateNetworks: false });
    expect(literal.statusCode).toBeNull();
    expect(literal.error).toMatch(/Refused/);
    const named = await postWebhook(`http://localhost:${port}/`, '{}', {}, { ...options, allowPrivateNetworks: false });
    expect(named.statusCode).toBeNull();
    expect(named.error).toMatch(/Refused: localhost resolves to/);
  });
  it('reaches a local consumer with the development override', async () => {
    const result = await postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, options);
    expect(result).toMatchObject({ statusCode: 202, excerpt: 'accepted', error: null });
  });
});

describe('limits', () => {
  it('gives up on a consumer that does not answer in time', async () => {
    const result = await postWebhook(`http://127.0.0.1:${port}/slow`, '{}', {}, options);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/No answer within 500 ms/);
  });
  it('reads no more of the answer than the cap', async () => {
    const result = await postWebhook(`http://127.0.0.1:${port}/big`, '{}', {}, options);
    expect(result.statusCode).toBe(200);
    expect(result.excerpt!.length).toBeLessThanOrEqual(1000);
  });
});
