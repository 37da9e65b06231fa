/**
 * The metrics a k6 run collects (samples with tags), its thresholds and its end-of-test summary, in
 * k6's terms: trends (durations), rates (failed requests, checks) and counters (requests, iterations).
 */

export type Tags = Record<string, string>;
type Kind = 'trend' | 'rate' | 'counter';

interface Sample {
  value: number;
  tags: Tags;
}

const KINDS: Record<string, Kind> = {
  http_req_duration: 'trend',
  http_req_waiting: 'trend',
  iteration_duration: 'trend',
  group_duration: 'trend',
  http_req_failed: 'rate',
  checks: 'rate',
  http_reqs: 'counter',
  iterations: 'counter',
  dropped_iterations: 'counter',
  data_received: 'counter',
  data_sent: 'counter',
};

export class Metrics {
  private readonly samples = new Map<string, Sample[]>();
  /** Check results by group and name, in first-seen order, for the summary's check tree. */
  readonly checkTree = new Map<string, Map<string, { passes: number; fails: number }>>();
  vusMax = 0;

  add(metric: string, value: number, tags: Tags = {}): void {
    let list = this.samples.get(metric);
    if (!list) this.samples.set(metric, (list = []));
    list.push({ value, tags });
  }

  addCheck(group: string, name: string, pass: boolean, tags: Tags): void {
    this.add('checks', pass ? 1 : 0, tags);
    let names = this.checkTree.get(group);
    if (!names) this.checkTree.set(group, (names = new Map()));
    const counts = names.get(name) ?? { passes: 0, fails: 0 };
    if (pass) counts.passes++;
    else counts.fails++;
    names.set(name, counts);
  }

  kind(metric: string): Kind {
    return KINDS[metric] ?? 'trend';
  }

  names(): string[] {
    return [...this.samples.keys()];
  }

  /** Every sample of a metric with its tags. */
  samplesOf(metric: string): ReadonlyArray<{ value: number; tags: Tags }> {
    return this.samples.get(metric) ?? [];
  }

  values(metric: string, filter: Tags = {}): number[] {
    const wanted = Object.entries(filter);
    return (this.samples.get(metric) ?? []).filter((s) => wanted.every(([k, v]) => s.tags[k] === v)).map((s) => s.value);
  }

  /** The aggregate a threshold or the summary names: avg, min, max, med, p(N), rate, count. */
  aggregate(metric: string, filter: Tags, statistic: string, seconds: number): number {
    const values = this.values(metric, filter);
    const kind = this.kind(metric);
    if (statistic === 'count') return kind === 'counter' ? sum(values) : values.length;
    if (statistic === 'rate') {
      if (kind === 'counter') return seconds > 0 ? sum(values) / seconds : 0;
      return values.length ? sum(values) / values.length : 0;
    }
    if (statistic === 'value') return values.at(-1) ?? 0;
    if (!values.length) return Number.NaN;
    const sorted = [...values].sort((a, b) => a - b);
    switch (statistic) {
      case 'avg':
        return sum(sorted) / sorted.length;
      case 'min':
        return sorted[0];
      case 'max':
        return sorted[sorted.length - 1];
      case 'med':
        return percentile(sorted, 50);
      default: {
        const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(statistic);
        if (!p) throw new Error(`Unknown statistic "${statistic}".`);
        return percentile(sorted, Number(p[1]));
      }
    }
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Linear interpolation between the closest ranks, as k6 computes trend percentiles. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const position = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

// ---- thresholds ----

export interface ThresholdResult {
  /** As written in options.thresholds, e.g. `http_req_duration{type:read}`. */
  key: string;
  metric: string;
  filter: Tags;
  expression: string;
  statistic: string;
  /** The measured aggregate; NaN when the metric has no samples. */
  value: number;
  ok: boolean;
}

/** `http_req_duration{type:read,method:GET}` → metric and tag filter. */
export function parseThresholdKey(key: string): { metric: string; filter: Tags } {
  const match = /^([\w.]+)(?:\{(.*)\})?$/.exec(key.trim());
  if (!match) throw new Error(`Invalid threshold metric "${key}".`);
  const filter: Tags = {};
  for (const pair of (match[2] ?? '').split(',').filter((p) => p.trim())) {
    const colon = pair.indexOf(':');
    if (colon < 0) throw new Error(`Invalid tag filter "${pair}" in threshold "${key}".`);
    filter[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return { metric: match[1], filter };
}

const COMPARISON = /^\s*(avg|min|max|med|count|rate|value|p\(\d+(?:\.\d+)?\))\s*(<=|>=|<|>|===|==|!=)\s*(-?\d+(?:\.\d+)?)\s*$/;

export function evaluateThresholds(metrics: Metrics, thresholds: Record<string, unknown>, seconds: number): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const [key, raw] of Object.entries(thresholds ?? {})) {
    const { metric, filter } = parseThresholdKey(key);
    for (const entry of Array.isArray(raw) ? raw : [raw]) {
      const expression = typeof entry === 'string' ? entry : String((entry as { threshold?: string })?.threshold ?? '');
      const match = COMPARISON.exec(expression);
      if (!match) throw new Error(`Invalid threshold "${expression}" on ${key}.`);
      const [, statistic, operator, limitText] = match;
      const value = metrics.aggregate(metric, filter, statistic, seconds);
      const limit = Number(limitText);
      // A threshold on a metric without samples holds, as in k6 (nothing crossed it).
      const ok = Number.isNaN(value) || compare(value, operator, limit);
      results.push({ key, metric, filter, expression, statistic, value, ok });
    }
  }
  return results;
}

function compare(value: number, operator: string, limit: number): boolean {
  switch (operator) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
    case '!=':
      return value !== limit;
    default:
      return value === limit;
  }
}

// ---- the end-of-test summary ----

const ms = (value: number) => (Number.isNaN(value) ? '-' : value >= 1000 ? `${(value / 1000).toFixed(2)}s` : `${value.toFixed(2)}ms`);
const pct = (value: number) => `${(value * 100).toFixed(2)}%`;
const dotted = (label: string, width = 34) => `${label}${'.'.repeat(Math.max(3, width - label.length))}:`;

function describeMetric(metrics: Metrics, metric: string, filter: Tags, seconds: number): string {
  const kind = metrics.kind(metric);
  const values = metrics.values(metric, filter);
  if (kind === 'trend') {
    const stat = (s: string) => metrics.aggregate(metric, filter, s, seconds);
    return `avg=${ms(stat('avg'))} min=${ms(stat('min'))} med=${ms(stat('med'))} max=${ms(stat('max'))} p(90)=${ms(stat('p(90)'))} p(95)=${ms(stat('p(95)'))} p(99)=${ms(stat('p(99)'))}`;
  }
  if (kind === 'rate') {
    const passes = values.filter((v) => v).length;
    return `${pct(values.length ? passes / values.length : 0)} ✓ ${passes} ✗ ${values.length - passes}`;
  }
  const total = sum(values);
  return `${total} ${(seconds > 0 ? total / seconds : 0).toFixed(2)}/s`;
}

export function renderSummary(metrics: Metrics, thresholds: ThresholdResult[], seconds: number, scenarios: string[]): string {
  const lines: string[] = [''];
  lines.push(`     scenarios: ${scenarios.join(', ')}`, '');
  for (const [group, names] of metrics.checkTree) {
    const depth = group ? group.split('::').length - 1 : 0;
    const indent = '     ' + '  '.repeat(depth);
    if (group) lines.push(`${indent}█ ${group.split('::').at(-1)}`, '');
    for (const [name, { passes, fails }] of names) {
      lines.push(`${indent}${fails ? '✗' : '✓'} ${name}`);
      if (fails) lines.push(`${indent} ↳  ${Math.floor((passes / (passes + fails)) * 100)}% — ✓ ${passes} / ✗ ${fails}`);
    }
    lines.push('');
  }
  const mark = (metric: string, filter: Tags) => {
    const own = thresholds.filter((t) => t.metric === metric && JSON.stringify(t.filter) === JSON.stringify(filter));
    return own.length ? (own.every((t) => t.ok) ? '✓' : '✗') : ' ';
  };
  for (const metric of metrics.names().sort()) {
    lines.push(`   ${mark(metric, {})} ${dotted(metric)} ${describeMetric(metrics, metric, {}, seconds)}`);
    const filters = thresholds.filter((t) => t.metric === metric && Object.keys(t.filter).length);
    const seen = new Set<string>();
    for (const { filter } of filters) {
      const label = `{ ${Object.entries(filter)
        .map(([k, v]) => `${k}:${v}`)
        .join(', ')} }`;
      if (seen.has(label)) continue;
      seen.add(label);
      lines.push(`   ${mark(metric, filter)}   ${dotted(label, 32)} ${describeMetric(metrics, metric, filter, seconds)}`);
    }
  }
  lines.push(`     ${dotted('vus_max')} ${metrics.vusMax}`);
  lines.push('', `     THRESHOLDS (${seconds.toFixed(1)} s)`);
  for (const t of thresholds) {
    const shown = Number.isNaN(t.value)
      ? 'no samples'
      : t.metric === 'http_req_failed' || t.metric === 'checks' || t.statistic === 'rate'
        ? t.metric.endsWith('s') && metrics.kind(t.metric) === 'counter'
          ? `${t.value.toFixed(2)}/s`
          : pct(t.value)
        : t.statistic === 'count'
          ? String(t.value)
          : ms(t.value);
    lines.push(`     ${t.ok ? '✓' : '✗'} ${t.key} '${t.expression}' ${t.statistic}=${shown}`);
  }
  lines.push('');
  return lines.join('\n');
}
