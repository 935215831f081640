import type { Schedule } from './schedule';
import { barChart, escapeHtml, lineChart, type Series } from './svg-charts';
import type { StrategySummary } from './summary';

export interface ReportInput {
  readonly title: string;
  readonly source: string;
  readonly from: number;
  readonly to: number;
  readonly schedule: Schedule;
  readonly summaries: readonly StrategySummary[];
  /** amountOut over time of one scheduled request and size, per strategy. */
  readonly series: readonly Series[];
  readonly seriesLabel: string;
  readonly figures: readonly (readonly [string, string])[];
}

const num = (v: number | null, digits = 2): string => (v === null ? '-' : v.toFixed(digits));

/** One self-contained HTML page: inline CSS and SVG, no scripts, no external references. */
export function reportHtml(r: ReportInput): string {
  const rows = r.summaries
    .map(
      (s) =>
        `<tr><td>${s.strategy}</td><td>${s.quotes}</td><td>${s.routed}</td><td>${s.fullFills}</td><td>${num(s.meanFillRatio, 4)}</td><td>${num(s.meanImpactBps)}</td><td>${num(s.meanSavingVsBestSingleBps)}</td><td>${num(s.medianSavingVsBestSingleBps)}</td></tr>`,
    )
    .join('');
  const saving = barChart(
    'Mean saving vs best single venue',
    r.summaries.map((s) => ({ label: s.strategy, value: s.meanSavingVsBestSingleBps ?? 0 })),
    'bps',
  );
  const fill = barChart(
    'Mean fill ratio',
    r.summaries.map((s) => ({ label: s.strategy, value: s.meanFillRatio })),
    '',
  );
  const impact = barChart(
    'Mean price impact',
    r.summaries.map((s) => ({ label: s.strategy, value: s.meanImpactBps ?? 0 })),
    'bps',
  );
  const venues = r.summaries
    .map((s) =>
      barChart(
        `Venues carrying a leg: ${s.strategy} (share of routed quotes, top 12)`,
        s.venues.slice(0, 12).map((v) => ({ label: v.name, value: v.share * 100 })),
        '%',
      ),
    )
    .join('');
  const bridges = r.summaries
    .map(
      (s) =>
        `<tr><td>${s.strategy}</td><td>${s.bridges.map((b) => `${escapeHtml(b.name)} ${(b.share * 100).toFixed(1)}% (${b.count})`).join(', ') || '-'}</td></tr>`,
    )
    .join('');
  const requests = r.schedule.requests
    .map(
      (q) =>
        `<li>${escapeHtml(q.label)}: ${q.from} &rarr; ${q.to}, exact ${q.exactSide}, sizes ${q.sizes.join(', ')}, bridges [${q.bridges.join(', ')}], maxVenues ${q.maxVenues}${q.exchanges === null ? '' : `, venues ${escapeHtml(q.exchanges.join(','))}`}</li>`,
    )
    .join('');
  const figures = r.figures
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(r.title)}</title>
<style>body{font-family:sans-serif;margin:24px;color:#111;max-width:1000px}table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}section{margin-bottom:24px}</style>
</head><body>
<h1>${escapeHtml(r.title)}</h1>
<p>Source: ${escapeHtml(r.source)}. Range ${new Date(r.from).toISOString()} to ${new Date(r.to).toISOString()}, a round every ${r.schedule.intervalMs} ms.</p>
<section><h2>Schedule</h2><ul>${requests}</ul></section>
<section><h2>Summary per strategy</h2><table><tr><th>strategy</th><th>quotes</th><th>routed</th><th>full fills</th><th>mean fill ratio</th><th>mean impact (bps)</th><th>mean saving vs best single (bps)</th><th>median saving (bps)</th></tr>${rows}</table>
${saving}${fill}${impact}</section>
<section><h2>${escapeHtml(r.seriesLabel)}</h2>${lineChart('Amount out over time', r.series, 'amountOut')}</section>
<section><h2>Which venues won</h2>${venues}</section>
<section><h2>Which paths won</h2><table><tr><th>strategy</th><th>direct / bridge share of routed quotes</th></tr>${bridges}</table></section>
<section><h2>Run</h2><table>${figures}</table></section>
</body></html>
`;
}
