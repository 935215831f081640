import { escapeHtml, inlineScript, scriptJson } from '@app/html';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readBuiltFile } from '@app/config';
import type { CellSummary, StrategyCounts } from './cells';
import { requestCharts, sizeUnit, type ChartSpec } from './report-charts';
import type { Schedule } from './schedule';
import type { SavingSeries } from './series';
import type { DecayRow } from './decay-tracker';

export interface ReportInput {
  readonly title: string;
  readonly source: string;
  readonly from: number;
  readonly to: number;
  readonly schedule: Schedule;
  readonly counts: readonly StrategyCounts[];
  readonly cells: readonly CellSummary[];
  readonly series: readonly SavingSeries[];
  readonly figures: readonly (readonly [string, string])[];
  /** Quote decay per request, size and strategy; null when the run skipped it (--no-decay). */
  readonly decay: readonly DecayRow[] | null;
}

/** Chart.js's browser build, inlined so the report works offline and from a mail attachment. */
function chartJs(): { source: string; version: string } {
  // The package exports neither its package.json nor the UMD file: find them next to its main.
  const dist = dirname(require.resolve('chart.js'));
  const { version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { source: inlineScript(readFileSync(join(dist, 'chart.umd.min.js'), 'utf8')), version };
}

/** The report's own script (apps/replay/src/browser/report.ts, type-checked and linted there), as built. */
const reportScript = (): string => inlineScript(readBuiltFile('apps/replay/src/browser/report.js'));

const n = (v: number | null, digits = 2): string => (v === null ? '-' : v.toFixed(digits));
const pct = (v: number | null): string => (v === null ? '-' : `${(v * 100).toFixed(1)}%`);
const amount = (v: number | null): string =>
  v === null ? '-' : Math.abs(v) >= 1000 ? v.toFixed(2) : v.toPrecision(8).replace(/\.?0+$/, '');

function cellTable(cells: readonly CellSummary[]): string {
  const head = [
    'size',
    'strategy',
    'quotes',
    'routed',
    'full fills',
    'mean fill ratio',
    `mean amount in (${cells[0]!.from})`,
    `mean amount out (${cells[0]!.to})`,
    'mean saving (bps)',
    'median',
    'p10',
    'p90',
    'beats best_single',
    'mean impact (bps)',
    'via a bridge',
    'paths',
    'top venues',
  ];
  const rows = cells.map((c) =>
    [
      `${c.size} ${sizeUnit(c)}`,
      c.strategy,
      String(c.quotes),
      String(c.routed),
      String(c.fullFills),
      n(c.meanFillRatio, 4),
      amount(c.meanAmountIn),
      amount(c.meanAmountOut),
      n(c.meanSavingBps),
      n(c.medianSavingBps),
      n(c.p10SavingBps),
      n(c.p90SavingBps),
      pct(c.beatBestSingle),
      n(c.meanImpactBps),
      pct(c.bridgeShare),
      c.paths.map((p) => `${p.name} ${(p.share * 100).toFixed(0)}%`).join(', ') || '-',
      c.venues
        .slice(0, 4)
        .map((v) => `${v.name} ${(v.share * 100).toFixed(0)}%`)
        .join(', ') || '-',
    ]
      .map((t) => `<td>${escapeHtml(t)}</td>`)
      .join(''),
  );
  return `<div class="scroll"><table><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r}</tr>`).join('')}</table></div>`;
}

/**
 * One self-contained HTML page: tables per request and size, interactive Chart.js charts (hover
 * for values, click a legend entry to hide a line), the library and the data inline, no request
 * to anything outside the file.
 */
export function reportHtml(r: ReportInput): string {
  const since = new Date(r.from).toISOString();
  const charts: ChartSpec[] = [];
  const sections = r.schedule.requests.map((q, i) => {
    const cells = r.cells.filter((c) => c.label === q.label);
    if (cells.length === 0) return '';
    const specs = requestCharts(
      `r${i}`,
      cells,
      r.series.filter((s) => s.label === q.label),
      since,
    );
    charts.push(...specs);
    const c0 = cells[0]!;
    return `<section class="request"><h2>${escapeHtml(q.label)}: ${escapeHtml(c0.from)} &rarr; ${escapeHtml(c0.to)}, exact ${escapeHtml(c0.exactSide)}, sizes in ${escapeHtml(sizeUnit(c0))}</h2>
<p class="note">bridges [${escapeHtml(q.bridges.join(', '))}], maxVenues ${q.maxVenues}${q.exchanges === null ? '' : `, venues ${escapeHtml(q.exchanges.join(','))}`}. Every average below is over quotes of this request at one size.</p>
${cellTable(cells)}
<div class="charts">${specs.map((s) => `<figure><canvas id="${s.id}" role="img" aria-label="${escapeHtml(s.title)}"></canvas></figure>`).join('')}</div></section>`;
  });
  const counts = r.counts
    .map(
      (s) => `<tr><td>${s.strategy}</td><td>${s.quotes}</td><td>${s.routed}</td><td>${s.fullFills}</td></tr>`,
    )
    .join('');
  const figures = r.figures
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  const lib = chartJs();
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(r.title)}</title>
<style>
body{font-family:system-ui,sans-serif;font-size:16px;line-height:1.45;margin:24px auto;padding:0 16px;color:#111;max-width:1400px}
h1{font-size:28px}h2{font-size:21px;margin-top:36px;border-top:2px solid #ddd;padding-top:16px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:14px}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right;white-space:nowrap}
td:first-child,th:first-child,td:nth-child(2){text-align:left}th{background:#f3f4f6}.scroll{overflow-x:auto}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:16px}figure{margin:0;border:1px solid #e5e7eb;padding:8px;height:380px;position:relative}
.note{color:#374151}
</style>
</head><body>
<h1>${escapeHtml(r.title)}</h1>
<p>Source: ${escapeHtml(r.source)}. Range ${since} to ${new Date(r.to).toISOString()}, a round every ${r.schedule.intervalMs} ms.
Savings are in basis points against best_single (the best single venue) at the same instant, request and size: positive = more out (exact-in) or less in (exact-out).
Hover a chart for values; click a legend entry to hide or show a line.</p>
<section><h2>Quotes per strategy</h2><table><tr><th>strategy</th><th>quotes</th><th>routed</th><th>full fills</th></tr>${counts}</table>
<p class="note">Averages are per request and size only (sections below), never across requests of different assets.</p></section>
${sections.join('\n')}
${decaySection(r.decay)}
<section><h2>Run</h2><table>${figures}</table><p class="note">Charts: Chart.js ${escapeHtml(lib.version)} (MIT licence), inlined. Data: quotes.parquet, quotes.csv, quotes.jsonl, summary.json, summary.parquet next to this file.</p></section>
<script>${lib.source}</script>
<script type="application/json" id="chart-specs">${scriptJson(charts)}</script>
<script>${reportScript()}</script>
</body></html>
`;
}

/** The quote decay table: per request, size and strategy, each horizon's mean bps and share holding. */
function decaySection(rows: readonly DecayRow[] | null): string {
  if (rows === null) return '';
  const cell = (h: DecayRow['horizons'][number] | undefined): string =>
    h === undefined || h.meanBps === null
      ? '<td>n/a</td>'
      : `<td>${h.meanBps.toFixed(2)} bps, ${(h.holding! * 100).toFixed(0)}% hold (${h.priced})</td>`;
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.label)}</td><td>${r.amount}</td><td>${escapeHtml(r.strategy)}</td><td>${r.quotes}</td>${[0, 1, 2].map((i) => cell(r.horizons[i])).join('')}<td>${r.halfLifeMs === null ? '&gt; 30 s' : `${(r.halfLifeMs / 1000).toFixed(1)} s`}</td></tr>`,
    )
    .join('');
  return `<section id="decay"><h2>Quote decay</h2><p class="note">Each quote's legs (venue and size) re-priced against the recorded books 1 s, 5 s and 30 s later: mean difference from the quoted rate (negative = worse), the share of quotes still within 1 bps, and the half-life (time until half no longer hold; docs/explain.md section 3). Horizons after the range, stale books or thinner books are not priced.</p>
<div class="scroll"><table><tr><th>request</th><th>size</th><th>strategy</th><th>quotes</th><th>+1 s</th><th>+5 s</th><th>+30 s</th><th>half-life</th></tr>${body}</table></div></section>`;
}
