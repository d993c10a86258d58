/**
 * The OpenMetrics registry (spec "Events" item 8). Every series is label-free: trace ids, agent
 * ids, model names, URLs and error text never become labels, so the series count is fixed.
 */
import { Counter, Gauge, Registry } from 'prom-client';

export interface GaugeSources {
  queueDepth: () => number;
  sseClients: () => number;
  agents: () => number;
}

export class Metrics {
  readonly registry = openMetricsRegistry();
  readonly contentType = Registry.OPENMETRICS_CONTENT_TYPE;
  private sources: GaugeSources | null = null;

  // The six series the spec names.
  readonly otlpFailedBatches = this.counter('svc_otlp_exporter_failed_batches', 'OTLP export batches that failed');
  readonly otlpDroppedSpans = this.counter('svc_otlp_exporter_dropped_spans', 'Spans dropped by the OTLP exporter (queue full or failed batch)');
  readonly otlpQueueDepth = new Gauge({ name: 'svc_otlp_exporter_queue_depth', help: 'Spans waiting in the OTLP export queue', registers: [this.registry] });
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

  constructor(private readonly startedAt: number, private readonly now: () => number) {
    new Gauge({
      name: 'svc_process_uptime_seconds',
      help: 'Seconds since the daemon started',
      registers: [this.registry],
      collect: () => undefined,
    });
    const self = this;
    const gauge = (name: string, help: string, read: (s: GaugeSources) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          if (self.sources) this.set(read(self.sources));
        },
      });
    gauge('svc_queue_pending_messages', 'Messages waiting in agent queues', (s) => s.queueDepth());
    gauge('svc_sse_clients', 'Open SSE connections', (s) => s.sseClients());
    gauge('svc_agents', 'Agents known to the daemon', (s) => s.agents());
  }

  bind(sources: GaugeSources): void {
    this.sources = sources;
  }

  async render(): Promise<string> {
    const uptime = this.registry.getSingleMetric('svc_process_uptime_seconds') as Gauge;
    uptime.set((this.now() - this.startedAt) / 1000);
    return this.registry.metrics();
  }

  private counter(name: string, help: string): Counter {
    return new Counter({ name, help, registers: [this.registry] });
  }
}

function openMetricsRegistry(): Registry {
  const registry = new Registry();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE as never);
  return registry;
}
