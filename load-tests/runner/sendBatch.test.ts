import { describe, expect, it } from 'vitest';
import { sendBatch } from './run';

/** Requests that answer when told, recording how many were in flight at once, overall and per host. */
function controlledExchange() {
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  const perHost = new Map<string, number>();
  const peaks = { total: 0, perHost: new Map<string, number>() };
  const exchange = (request: { url: string }) =>
    new Promise<string>((resolve) => {
      const host = new URL(request.url).host;
      inFlight++;
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      peaks.total = Math.max(peaks.total, inFlight);
      peaks.perHost.set(host, Math.max(peaks.perHost.get(host) ?? 0, perHost.get(host)!));
      waiting.push(() => {
        inFlight--;
        perHost.set(host, perHost.get(host)! - 1);
        resolve(request.url);
      });
    });
  const answerAll = async () => {
    while (waiting.length) {
      // Answer the latest first, so answers arrive out of order.
      waiting.pop()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { exchange, answerAll, peaks };
}

const urls = (host: string, count: number) => Array.from({ length: count }, (_, i) => ({ url: `http://${host}/${i}` }));

describe('sendBatch (http.batch on the wire)', () => {
  it('keeps at most `perHost` requests to one host and `total` overall in flight, and answers in the requests’ order', async () => {
    const { exchange, answerAll, peaks } = controlledExchange();
    const requests = [...urls('a.test', 10), ...urls('b.test', 10)];
    const done = sendBatch(requests, { total: 8, perHost: 3 }, exchange);
    await answerAll();
    expect(await done).toEqual(requests.map((r) => r.url));
    expect(peaks.perHost.get('a.test')).toBe(3);
    expect(peaks.perHost.get('b.test')).toBe(3);
    expect(peaks.total).toBe(6);
  });

  it('starts everything at once when the limits are 0, and answers an empty batch at once', async () => {
    const { exchange, answerAll, peaks } = controlledExchange();
    const done = sendBatch(urls('a.test', 12), { total: 0, perHost: 0 }, exchange);
    expect(peaks.total).toBe(12);
    await answerAll();
    expect(await done).toHaveLength(12);
    expect(await sendBatch([], { total: 20, perHost: 6 }, exchange)).toEqual([]);
  });
});
