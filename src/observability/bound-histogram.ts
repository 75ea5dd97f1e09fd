/**
 * Prometheus histograms for the per-request path. prom-client's `labels()` child
 * still validates and hashes its label set on every observe(); a request records
 * two histograms (its own latency and its store operation's), so here a label set
 * is bound once and an observation is a bucket search and three additions. The
 * metric is registered in the prom-client Registry and rendered by it, in the
 * format prom-client's own Histogram gives (`_bucket` with `le`, `_sum`, `_count`).
 */
import type { MetricObjectWithValues, MetricValueWithName, Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last entry is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

/** Records one observation (in the metric's unit) in a bound series. */
export type Observe = (value: number) => void;

export class BoundHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The observer of one label set, made on first use and kept (label sets must be few: route patterns, not paths). */
  bind(labels: Record<string, string>): Observe {
    const id = JSON.stringify(labels);
    let series = this.#series.get(id);
    if (series === undefined) {
      series = { labels: { ...labels }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.#series.set(id, series);
    }
    const target = series;
    const { buckets } = this;
    return (value) => {
      let i = 0;
      while (i < buckets.length && value > (buckets[i] as number)) i++;
      (target.counts[i] as number)++;
      target.sum += value;
      target.count++;
    };
  }

  /** Every series, as a counter (`name`) of its observations: a request counter shares the histogram's counts. */
  counts(): { labels: Record<string, string>; value: number }[] {
    return [...this.#series.values()].filter((series) => series.count > 0).map((series) => ({ labels: series.labels, value: series.count }));
  }

  /** Called by the registry when scraped. The series' labels are shared labels, so `le` comes first, as prom-client writes it. */
  get(): MetricObjectWithValues<MetricValueWithName<string>> {
    const values: (MetricValueWithName<string> & { sharedLabels: Record<string, string> })[] = [];
    for (const series of this.#series.values()) {
      // A series appears once observed, as with prom-client.
      if (series.count === 0) continue;
      const sharedLabels = series.labels;
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += series.counts[i] as number;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound }, sharedLabels, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, sharedLabels, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels, value: series.count });
    }
    return { name: this.name, help: this.help, type: 'histogram' as never, aggregator: 'sum', values } as never;
  }

  /** Registry.resetMetrics(): every series back to nothing observed (bound observers keep working). */
  reset(): void {
    for (const series of this.#series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

/** A counter of the observations of `histogram`, registered under its own name. */
export function countOf(histogram: BoundHistogram, name: string, help: string, registry: Registry): void {
  registry.registerMetric({
    name,
    help,
    type: 'counter',
    aggregator: 'sum',
    get: () => ({ name, help, type: 'counter', aggregator: 'sum', values: histogram.counts() }),
    reset: () => {},
  } as never);
}
