// The `k6/http` module for scripts run by the Node runner: requests (one at a time, or in parallel with
// http.batch) with string, form, JSON-string and multipart bodies (http.file), expected statuses, tags,
// timeouts, and k6's Response (status, body, headers, timings, json(selector)).
import { exchange, exchangeAll } from '../runtime.mjs';

const FILE = Symbol('k6 file');
const DEFAULT_EXPECTED = { expected: [[200, 399]] };
let defaultCallback = DEFAULT_EXPECTED;

export function file(data, filename = 'file', contentType = 'application/octet-stream') {
  return { [FILE]: true, data, filename, content_type: contentType };
}

export function expectedStatuses(...statuses) {
  return { expected: statuses.map((s) => (typeof s === 'number' ? [s, s] : [s.min, s.max])) };
}

export function setResponseCallback(callback) {
  defaultCallback = callback;
}

const toBytes = (data) => {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(String(data), 'utf8');
};

const isFile = (value) => value !== null && typeof value === 'object' && value[FILE] === true;

function multipart(fields) {
  const boundary = `----k6node${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const parts = [];
  for (const [name, raw] of Object.entries(fields)) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (isFile(value)) {
        parts.push(
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.content_type}\r\n\r\n`,
          ),
        );
        parts.push(toBytes(value.data));
      } else {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`));
      }
      parts.push(Buffer.from('\r\n'));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { bytes: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** k6's body rules: strings and bytes as they are; an object is a form, multipart when it holds a file. */
function encodeBody(body) {
  if (body === undefined || body === null) return { bytes: undefined, contentType: undefined };
  if (typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { bytes: toBytes(body), contentType: undefined };
  if (typeof body === 'object') {
    if (Object.values(body).some((v) => isFile(v) || (Array.isArray(v) && v.some(isFile)))) return multipart(body);
    return {
      bytes: Buffer.from(new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString()),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  return { bytes: toBytes(String(body)), contentType: undefined };
}

function timeoutMs(timeout) {
  if (timeout === undefined) return 60_000;
  if (typeof timeout === 'number') return timeout;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(timeout).trim());
  if (!match) throw new Error(`Invalid timeout "${timeout}".`);
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2] ?? 'ms'];
}

/** A gjson-like path: `data.users`, `data.orders.0.id`, `data.orders.#` (length). */
function select(value, selector) {
  let current = value;
  for (const key of selector.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (key === '#' && Array.isArray(current)) current = current.length;
    else current = current[key];
  }
  return current;
}

const canonical = (name) =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-');

class Response {
  constructor(answer, request) {
    this.status = answer.status;
    this.status_text = answer.statusText ?? '';
    this.url = request.url;
    this.error = answer.error ?? '';
    this.error_code = answer.error ? 1000 : 0;
    this.headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([k, v]) => [canonical(k), Array.isArray(v) ? v.join(', ') : v]));
    this.body =
      request.responseType === 'none'
        ? null
        : request.responseType === 'binary'
          ? new Uint8Array(answer.body ?? []).buffer
          : Buffer.from(answer.body ?? []).toString('utf8');
    this.timings = {
      duration: answer.duration,
      waiting: answer.waiting ?? answer.duration,
      sending: 0,
      receiving: answer.duration - (answer.waiting ?? answer.duration),
      blocked: 0,
      connecting: 0,
      tls_handshaking: 0,
    };
    this.request = { method: request.method, url: request.url, headers: request.headers, body: request.bodyText };
  }

  json(selector) {
    if (typeof this.body !== 'string') throw new Error('The response has no text body to parse as JSON.');
    let parsed;
    try {
      parsed = JSON.parse(this.body);
    } catch (error) {
      throw new Error(`The response body is not JSON: ${error.message}`, { cause: error });
    }
    return selector === undefined ? parsed : select(parsed, selector);
  }
}

/** The request as the main thread sends it, and the body as the Response reports it. */
function prepare(method, url, body, params = {}) {
  const { bytes, contentType } = encodeBody(body);
  const headers = { ...(params.headers ?? {}) };
  const hasContentType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  if (contentType && !hasContentType) headers['Content-Type'] = contentType;
  const callback = Object.hasOwn(params, 'responseCallback') ? params.responseCallback : defaultCallback;
  const outgoing = {
    method: method.toUpperCase(),
    url: String(url),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
    body: bytes ? new Uint8Array(bytes) : undefined,
    tags: { ...(params.tags ?? {}) },
    timeout: timeoutMs(params.timeout),
    expected: callback ? callback.expected : null,
    responseType: params.responseType ?? 'text',
  };
  return { outgoing, bodyText: typeof body === 'string' ? body : undefined };
}

const respond = (answer, { outgoing, bodyText }) => new Response(answer, { ...outgoing, bodyText });

export function request(method, url, body, params = {}) {
  const prepared = prepare(method, url, body, params);
  return respond(exchange(prepared.outgoing), prepared);
}

/** One entry of http.batch: a URL (GET), [method, url, body, params] or { method, url, body, params }. */
function batchEntry(entry) {
  if (typeof entry === 'string') return prepare('GET', entry, null);
  if (Array.isArray(entry)) {
    const [method, url, body, params] = entry;
    return prepare(method, url, body, params);
  }
  if (entry && typeof entry === 'object' && entry.url) return prepare(entry.method ?? 'GET', entry.url, entry.body, entry.params);
  throw new Error(`http.batch takes URLs, [method, url, body, params] arrays or { method, url, body, params } objects (got ${JSON.stringify(entry)}).`);
}

/**
 * k6's http.batch: the requests go out in parallel (at most the options' `batch` at once, `batchPerHost`
 * to one host) and the Responses come back in the same array positions or under the same keys.
 */
export function batch(requests) {
  const named = !Array.isArray(requests);
  const keys = named ? Object.keys(requests ?? {}) : requests.map((_, i) => i);
  const prepared = keys.map((key) => batchEntry(requests[key]));
  const answers = prepared.length ? exchangeAll(prepared.map((p) => p.outgoing)) : [];
  const responses = answers.map((answer, i) => respond(answer, prepared[i]));
  return named ? Object.fromEntries(keys.map((key, i) => [key, responses[i]])) : responses;
}

export const get = (url, params) => request('GET', url, null, params);
export const head = (url, params) => request('HEAD', url, null, params);
export const post = (url, body, params) => request('POST', url, body, params);
export const put = (url, body, params) => request('PUT', url, body, params);
export const patch = (url, body, params) => request('PATCH', url, body, params);
export const del = (url, body, params) => request('DELETE', url, body, params);
export const options = (url, body, params) => request('OPTIONS', url, body, params);

export default { request, batch, get, head, post, put, patch, del, options, file, expectedStatuses, setResponseCallback };
