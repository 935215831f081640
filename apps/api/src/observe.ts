import type { ConsoleConfig, MetricsConfig } from '@app/config';
import { startAdminServer, venueSummary, type ServiceLogger } from '@app/telemetry';
import type { ApiServer } from './bootstrap';
import type { StatusReport } from './health/service-status';

/** The first periodic summary comes this soon (venues have had time to connect or fail). */
const FIRST_SUMMARY_MS = 10_000;
/** How often /health's status is checked for a change worth a line of its own. */
const STATUS_CHECK_MS = 5_000;
/** At most one status-change line this often; the periodic summary says the rest. */
const STATUS_LINE_EVERY_MS = 30_000;

/**
 * The console and the admin port of an API process: one summary of venues and books at start,
 * then one line every LOG_SUMMARY_MS (and a line when /health's status changes, at most one per
 * 30 s); the Prometheus endpoint when METRICS_PORT is set. Returns what stops them.
 */
export async function observe(
  server: ApiServer,
  settings: { readonly console: ConsoleConfig; readonly metrics: MetricsConfig | null },
  logger: ServiceLogger,
): Promise<() => Promise<void>> {
  const log = logger.child({ component: 'Status' });
  const summary = (prefix: string): StatusReport => {
    const report = server.status.report();
    const line = venueSummary({ status: report.status, venues: report.venues });
    const level = report.status === 'ok' ? 'info' : 'warn';
    const reasons = report.reasons.length > 0 ? { reasons: report.reasons } : {};
    // The ingestor's clock less this API's (clock-skew.ts): a line says it whenever it is known.
    const skew = report.clockSkewMs === null ? {} : { clockSkewMs: Math.round(report.clockSkewMs) };
    const skewText = report.clockSkewMs === null ? '' : `; clock skew ${Math.round(report.clockSkewMs)} ms`;
    log[level](`${prefix}${line.message}${skewText}`, { ...line.fields, ...skew, ...reasons });
    return report;
  };
  let lastStatus = summary('serving: ').status;
  const timers: NodeJS.Timeout[] = [];
  const every = settings.console.summaryEveryMs;
  if (every > 0) {
    const first = setTimeout(
      () => {
        lastStatus = summary('').status;
        const periodic = setInterval(() => (lastStatus = summary('').status), every);
        periodic.unref();
        timers.push(periodic);
      },
      Math.min(FIRST_SUMMARY_MS, every),
    );
    first.unref();
    timers.push(first);
  }
  let lastLineAt = -Infinity;
  const watch = setInterval(() => {
    const now = performance.now();
    if (now - lastLineAt < STATUS_LINE_EVERY_MS) return;
    const report = server.status.report();
    if (report.status === lastStatus) return;
    const level = report.status === 'ok' ? 'info' : 'warn';
    log[level](
      `health ${lastStatus} -> ${report.status}${report.reasons.length > 0 ? `: ${report.reasons.join('; ')}` : ''}`,
      {
        status: report.status,
        was: lastStatus,
      },
    );
    lastStatus = report.status;
    lastLineAt = now;
  }, STATUS_CHECK_MS);
  watch.unref();
  timers.push(watch);

  const metrics = settings.metrics;
  const admin =
    metrics === null ? null : await startAdminServer(server.metrics.registry, metrics.port, metrics.host);
  // Tests and scripts read the bound port from this line (useful with METRICS_PORT=0).
  if (admin !== null) logger.info('metrics listening', { port: admin.port, url: admin.url });
  return async () => {
    for (const t of timers) clearTimeout(t);
    await admin?.close();
  };
}
