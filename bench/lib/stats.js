/** Percentiles and number formatting shared by the scenarios. */

/** Sorted copy of finite samples as a Float64Array (NaN marks a missing sample and is dropped). */
export function sorted(samples) {
  const out = Float64Array.from(samples).filter((v) => Number.isFinite(v));
  out.sort();
  return out;
}

/** Nearest-rank percentile of an ascending array; p in [0, 100]. */
export function percentile(asc, p) {
  if (asc.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * asc.length);
  return asc[Math.min(asc.length - 1, Math.max(0, rank - 1))];
}

/** The usual latency summary of a sample set, in the samples' unit. */
export function summary(samples) {
  const asc = sorted(samples);
  let sum = 0;
  for (const v of asc) sum += v;
  return {
    count: asc.length,
    mean: asc.length ? sum / asc.length : NaN,
    p50: percentile(asc, 50),
    p90: percentile(asc, 90),
    p99: percentile(asc, 99),
    p999: percentile(asc, 99.9),
    max: asc.length ? asc[asc.length - 1] : NaN,
  };
}

export function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Half the spread of a set of values, as a fraction of their mean (our "± tolerance"). */
export function halfSpread(values) {
  if (values.length < 2) return 0;
  return (Math.max(...values) - Math.min(...values)) / 2 / Math.abs(mean(values));
}

export const ms = (v, digits = 2) => (Number.isFinite(v) ? `${v.toFixed(digits)} ms` : 'n/a');
export const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
export const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const ratio = (v, tol) => (Number.isFinite(v) ? `${v.toFixed(2)}x${tol ? ` ± ${(tol * 100).toFixed(0)} %` : ''}` : 'n/a');

/** Nanoseconds on the monotonic clock. libuv reads CLOCK_MONOTONIC, which every process shares. */
export const nowNs = () => Number(process.hrtime.bigint());
