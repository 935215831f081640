import type { CellSummary } from './cells';
import type { SavingSeries } from './series';

/** A Chart.js chart as JSON: the page's script hands `config` to `new Chart(canvas, config)`. */
export interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly config: unknown;
}

const COLORS: Record<string, string> = {
  best_single: '#6b7280',
  split_optimal: '#2563eb',
  split_capped: '#dc2626',
};
const EXTRA = ['#16a34a', '#9333ea', '#ea580c', '#0891b2'];
const DASHES: number[][] = [[], [8, 4], [2, 3], [12, 4, 2, 4]];

/** Color of a strategy, stable across charts. */
function color(strategy: string, i: number): string {
  return COLORS[strategy] ?? EXTRA[i % EXTRA.length]!;
}

/** The unit a size is given in: the input asset for exact-in, the output asset for exact-out. */
export function sizeUnit(c: { from: string; to: string; exactSide: string }): string {
  return c.exactSide === 'out' ? c.to : c.from;
}

const title = (text: string): unknown => ({ display: true, text, font: { size: 16, weight: 'bold' } });
const axis = (text: string, extra: object = {}): unknown => ({ title: { display: true, text }, ...extra });

function bars(
  id: string,
  text: string,
  sizes: readonly string[],
  datasets: readonly { label: string; data: (number | null)[]; color: string }[],
  yTitle: string,
  horizontal = false,
): ChartSpec {
  return {
    id,
    title: text,
    config: {
      type: 'bar',
      data: {
        labels: sizes,
        datasets: datasets.map((d) => ({ label: d.label, data: d.data, backgroundColor: d.color })),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        plugins: { title: title(text) },
        scales: horizontal ? { x: axis(yTitle) } : { y: axis(yTitle) },
      },
    },
  };
}

/** The charts of one scheduled request (its cells and lines), ids prefixed with `prefix`. */
export function requestCharts(
  prefix: string,
  cells: readonly CellSummary[],
  series: readonly SavingSeries[],
  since: string,
): ChartSpec[] {
  const first = cells[0]!;
  const unit = sizeUnit(first);
  const sizes = [...new Set(cells.map((c) => c.size))];
  const strategies = [...new Set(cells.map((c) => c.strategy))];
  const sizeLabels = sizes.map((s) => `${s} ${unit}`);
  const cell = (size: number, strategy: string): CellSummary | undefined =>
    cells.find((c) => c.size === size && c.strategy === strategy);
  const per = (pick: (c: CellSummary) => number | null, only = strategies) =>
    only.map((s) => ({
      label: s,
      color: color(s, strategies.indexOf(s)),
      data: sizes.map((z) => {
        const c = cell(z, s);
        return c === undefined ? null : pick(c);
      }),
    }));
  const compared = strategies.filter((s) => s !== 'best_single');
  const charts: ChartSpec[] = [];
  if (series.length > 0) {
    const text = `${first.label}: saving vs best_single over time (bps; 0 = best single venue)`;
    charts.push({
      id: `${prefix}-series`,
      title: text,
      config: {
        type: 'line',
        data: {
          datasets: series.map((s) => ({
            label: `${s.strategy} · ${s.size} ${unit}`,
            data: s.points.map(([x, y]) => ({ x, y })),
            borderColor: color(s.strategy, strategies.indexOf(s.strategy as never)),
            backgroundColor: color(s.strategy, strategies.indexOf(s.strategy as never)),
            borderDash: DASHES[sizes.indexOf(s.size) % DASHES.length],
            borderWidth: 2,
            pointRadius: 0,
            pointStyle: 'line',
            spanGaps: false,
          })),
        },
        options: {
          parsing: false,
          interaction: { mode: 'nearest', axis: 'x', intersect: false },
          plugins: { title: title(text), legend: { labels: { usePointStyle: true, pointStyleWidth: 36 } } },
          scales: {
            x: axis(`seconds since ${since}`, { type: 'linear' }),
            y: axis('bps vs best_single'),
          },
        },
      },
    });
  }
  if (compared.length > 0)
    charts.push(
      bars(
        `${prefix}-saving`,
        `${first.label}: mean saving vs best_single by size`,
        sizeLabels,
        per((c) => c.meanSavingBps, compared),
        'bps',
      ),
    );
  charts.push(
    bars(
      `${prefix}-fill`,
      `${first.label}: mean fill ratio by size`,
      sizeLabels,
      per((c) => c.meanFillRatio),
      'fill ratio (1 = full)',
    ),
    bars(
      `${prefix}-bridge`,
      `${first.label}: routed through a bridge asset, by size`,
      sizeLabels,
      per((c) => (c.bridgeShare === null ? null : c.bridgeShare * 100)),
      '% of routed quotes',
    ),
  );
  // Venue shares: how often a venue carried a leg, over every size of this request (a count ratio).
  const counts = new Map<string, Map<string, number>>();
  const routed = new Map<string, number>();
  for (const c of cells) {
    routed.set(c.strategy, (routed.get(c.strategy) ?? 0) + c.routed);
    const m = counts.get(c.strategy) ?? new Map<string, number>();
    for (const v of c.venues) m.set(v.name, (m.get(v.name) ?? 0) + v.count);
    counts.set(c.strategy, m);
  }
  const total = new Map<string, number>();
  for (const m of counts.values()) for (const [v, n] of m) total.set(v, (total.get(v) ?? 0) + n);
  const top = [...total.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 12)
    .map(([v]) => v);
  if (top.length > 0)
    charts.push(
      bars(
        `${prefix}-venues`,
        `${first.label}: venues carrying a leg (top ${top.length})`,
        top,
        strategies.map((s, i) => ({
          label: s,
          color: color(s, i),
          data: top.map((v) => {
            const r = routed.get(s) ?? 0;
            return r > 0 ? ((counts.get(s)?.get(v) ?? 0) / r) * 100 : 0;
          }),
        })),
        '% of routed quotes',
        true,
      ),
    );
  return charts;
}
