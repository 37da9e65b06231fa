import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, retryDelayMs } from './webhooks';

describe('webhook delivery rules', () => {
  it('retries after the base delay, doubling, never more than the cap apart', () => {
    const config = { WEBHOOK_RETRY_BASE_MS: 30_000, WEBHOOK_RETRY_MAX_DELAY_MS: 2 * 3_600_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(config, n))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(config, 30)).toBe(2 * 3_600_000);
  });

  it('makes secrets in Standard Webhooks form that its library signs and verifies with', () => {
    const secret = newSigningSecret(randomBytes);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: 'order.placed', data: {} });
    const timestamp = new Date();
    const signature = new Webhook(secret).sign('msg_1', timestamp, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret(randomBytes)).verify(body, headers)).toThrow();
  });
});
