/**
 * The metrics registry (spec "Events" item 8) and its two text formats. Every series is label-free:
 * trace ids, agent ids, model names, URLs and error text never become labels, so the series count
 * is fixed.
 *
 * OpenMetrics is what the spec serves; the classic Prometheus text format (0.0.4) is there for the
 * scrapers and tools that ask for it (`promtool check metrics` reads only that format). The two
 * name counters differently: in OpenMetrics the family is `svc_x` and its sample `svc_x_total`; the
 * classic format has no family/sample split, so there the family itself is `svc_x_total`.
 *
 * prom-client renders a registry in the one format it is set to, and `metrics()` reads that setting
 * again after each metric's asynchronous `get()`: switching one registry per request would let
 * concurrent scrapes of the two formats corrupt each other. So each format has its own registry,
 * fixed at construction, over the same metric objects.
 */
import { Counter, Gauge, Registry, type OpenMetricsContentType, type PrometheusContentType } from 'prom-client';

export const OPENMETRICS_CONTENT_TYPE = Registry.OPENMETRICS_CONTENT_TYPE;
export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
export type MetricsContentType = OpenMetricsContentType | PrometheusContentType;

export interface GaugeSources {
  queueDepth: () => number;
  sseClients: () => number;
  agents: () => number;
}

export class Metrics {
  /** The OpenMetrics registry; counters are registered here under their family names. */
  readonly registry = new Registry<OpenMetricsContentType>();
  /** The classic text format of the same metrics. */
  private readonly classic = new Registry<PrometheusContentType>();
  private sources: GaugeSources | null = null;

  // The six series the spec names.
  readonly otlpFailedBatches = this.counter('svc_otlp_exporter_failed_batches', 'OTLP export batches that failed');
  readonly otlpDroppedSpans = this.counter('svc_otlp_exporter_dropped_spans', 'Spans dropped by the OTLP exporter (queue full or failed batch)');
  readonly otlpQueueDepth = new Gauge({ name: 'svc_otlp_exporter_queue_depth', help: 'Spans waiting in the OTLP export queue', registers: this.both() });
  readonly diagnosticsDropped = this.counter('svc_diagnostics_writer_dropped_traces', 'Traces the diagnostics writer dropped');
  readonly diagnosticsFailures = this.counter('svc_diagnostics_writer_failures', 'Diagnostics writer failures');

  // Our own.
  readonly httpRequests = this.counter('svc_http_requests', 'HTTP requests answered (both surfaces)');
  readonly httpErrors = this.counter('svc_http_errors', 'HTTP requests answered with a 4xx or 5xx status');
  readonly eventsAppended = this.counter('svc_events_appended', 'Events appended to the durable event logs');
  readonly eventsPruned = this.counter('svc_events_pruned', 'Events deleted from the durable event logs by retention');
  readonly messagesEnqueued = this.counter('svc_messages_enqueued', 'Messages admitted into agent queues');
  readonly storeCommits = this.counter('svc_store_commits', 'SQLite transactions committed');
  readonly sseDisconnectedLagging = this.counter('svc_sse_lagging_disconnects', 'SSE clients disconnected for falling too far behind');
  readonly httpConnectionsRefused = this.counter('svc_http_connections_refused', 'TCP connections reset because their peer was over its connection budget');

  // Model usage (src/runtime/usage/): every agent and model together, as everywhere here.
  readonly modelInputTokens = this.counter('svc_model_input_tokens', 'Prompt tokens of model rounds (cache reads and writes included)');
  readonly modelOutputTokens = this.counter('svc_model_output_tokens', 'Output tokens of model rounds (reasoning included)');
  readonly modelCacheReadTokens = this.counter('svc_model_cache_read_tokens', 'Prompt tokens read from a provider\'s prompt cache');
  readonly modelCacheWriteTokens = this.counter('svc_model_cache_write_tokens', 'Prompt tokens written to a provider\'s prompt cache');
  readonly modelReasoningTokens = this.counter('svc_model_reasoning_tokens', 'Reasoning tokens of model rounds');
  readonly modelCostUsd = this.counter('svc_model_cost_usd', 'USD of model rounds at the models\' prices (unpriced rounds add nothing)');

  private readonly uptime: Gauge;

  constructor(private readonly startedAt: number, private readonly now: () => number) {
    this.registry.setContentType(OPENMETRICS_CONTENT_TYPE);
    this.classic.setContentType(PROMETHEUS_CONTENT_TYPE);
    this.uptime = new Gauge({ name: 'svc_process_uptime_seconds', help: 'Seconds since the daemon started', registers: this.both() });
    const self = this;
    const gauge = (name: string, help: string, read: (s: GaugeSources) => number) =>
      new Gauge({
        name,
        help,
        registers: this.both(),
        collect() {
          if (self.sources) this.set(read(self.sources));
        },
      });
    gauge('svc_queue_pending_messages', 'Messages waiting in agent queues', (s) => s.queueDepth());
    gauge('svc_sse_clients', 'Open SSE connections', (s) => s.sseClients());
    gauge('svc_agents', 'Agents known to the daemon', (s) => s.agents());
  }

  /** One model round, after its commit. */
  modelUsage(u: { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; reasoning_tokens: number }, costUsd: number | null): void {
    this.modelInputTokens.inc(u.input_tokens);
    this.modelOutputTokens.inc(u.output_tokens);
    this.modelCacheReadTokens.inc(u.cache_read_tokens);
    this.modelCacheWriteTokens.inc(u.cache_write_tokens);
    this.modelReasoningTokens.inc(u.reasoning_tokens);
    if (costUsd) this.modelCostUsd.inc(costUsd);
  }

  bind(sources: GaugeSources): void {
    this.sources = sources;
  }

  /** The exposition in one of the two formats (OpenMetrics unless told otherwise). */
  async render(contentType: MetricsContentType = OPENMETRICS_CONTENT_TYPE): Promise<string> {
    this.uptime.set((this.now() - this.startedAt) / 1000);
    return (contentType === OPENMETRICS_CONTENT_TYPE ? this.registry : this.classic).metrics();
  }

  private both(): Array<Registry<OpenMetricsContentType> | Registry<PrometheusContentType>> {
    return [this.registry, this.classic];
  }

  /** `name` is the family name, without `_total`. */
  private counter(name: string, help: string): Counter {
    const counter = new Counter({ name, help, registers: [this.registry] });
    // The classic registry gets a stateless view under the `_total` family name that reads the live
    // counter at each scrape. A registry takes any object with `name` and `get()`: prom-client's own
    // cluster aggregator registers such wrappers.
    const classicName = `${name}_total`;
    const view = { name: classicName, get: async () => ({ ...(await counter.get()), name: classicName }) };
    this.classic.registerMetric(view as unknown as Counter);
    return counter;
  }
}
