/** Minimal inline SVG charts for the self-contained backtest report (no scripts, no external assets). */

export interface Bar {
  readonly label: string;
  readonly value: number;
}

export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'];

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 1000 ? v.toFixed(0) : a >= 1 ? v.toFixed(2) : v.toPrecision(3);
}

/** Horizontal bars, zero-based; negative values extend left of the axis. */
export function barChart(title: string, bars: readonly Bar[], unit: string): string {
  const rowH = 22;
  const labelW = 150;
  const plotW = 420;
  const h = 30 + bars.length * rowH + 10;
  const max = Math.max(1e-12, ...bars.map((b) => Math.abs(b.value)));
  const hasNeg = bars.some((b) => b.value < 0);
  const zero = labelW + (hasNeg ? plotW / 2 : 0);
  const scale = (hasNeg ? plotW / 2 : plotW) / max;
  const rows = bars.map((b, i) => {
    const y = 30 + i * rowH;
    const w = Math.abs(b.value) * scale;
    const x = b.value < 0 ? zero - w : zero;
    const color = b.value < 0 ? COLORS[1] : COLORS[0];
    return `<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${escapeHtml(b.label)}</text><rect x="${x.toFixed(1)}" y="${y + 3}" width="${Math.max(0.5, w).toFixed(1)}" height="${rowH - 7}" fill="${color}"/><text x="${(b.value < 0 ? x - 4 : x + w + 4).toFixed(1)}" y="${y + 14}" text-anchor="${b.value < 0 ? 'end' : 'start'}">${fmt(b.value)} ${escapeHtml(unit)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + plotW + 120}" height="${h}" font-family="sans-serif" font-size="12" role="img"><title>${escapeHtml(title)}</title><text x="4" y="16" font-weight="bold">${escapeHtml(title)}</text><line x1="${zero}" y1="26" x2="${zero}" y2="${h - 6}" stroke="#999"/>${rows.join('')}</svg>`;
}

/** Lines over time (x in epoch ms, shown as seconds from the first point). */
export function lineChart(title: string, series: readonly Series[], yLabel: string): string {
  const W = 700;
  const H = 300;
  const L = 80;
  const R = 20;
  const T = 30;
  const B = 40;
  const pts = series.flatMap((s) => s.points);
  if (pts.length === 0) return `<p>${escapeHtml(title)}: no routed quotes to plot.</p>`;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs);
  const x1 = Math.max(x0 + 1, ...xs);
  let y0 = Math.min(...ys);
  let y1 = Math.max(...ys);
  if (y1 - y0 < Math.abs(y1) * 1e-9 || y1 === y0) {
    y0 -= Math.abs(y0) * 1e-4 + 1e-9;
    y1 += Math.abs(y1) * 1e-4 + 1e-9;
  }
  const sx = (x: number): number => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const sy = (y: number): number => T + (1 - (y - y0) / (y1 - y0)) * (H - T - B);
  const lines = series.map((s, i) => {
    const d = s.points
      .map((p, k) => `${k === 0 ? 'M' : 'L'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`)
      .join('');
    return `<path d="${d}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.5"/>`;
  });
  const legend = series.map(
    (s, i) =>
      `<rect x="${L + i * 150}" y="${H - 14}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/><text x="${L + i * 150 + 14}" y="${H - 5}">${escapeHtml(s.name)}</text>`,
  );
  const ticks = [0, 0.5, 1].map((f) => {
    const y = y0 + f * (y1 - y0);
    return `<text x="${L - 6}" y="${sy(y) + 4}" text-anchor="end">${fmt(y)}</text><line x1="${L}" x2="${W - R}" y1="${sy(y)}" y2="${sy(y)}" stroke="#eee"/>`;
  });
  const xt = [0, 0.5, 1].map(
    (f) =>
      `<text x="${sx(x0 + f * (x1 - x0))}" y="${H - B + 14}" text-anchor="middle">${((f * (x1 - x0)) / 1000).toFixed(0)} s</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12" role="img"><title>${escapeHtml(title)}</title><text x="4" y="16" font-weight="bold">${escapeHtml(title)} (${escapeHtml(yLabel)})</text>${ticks.join('')}${xt.join('')}<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#999"/>${lines.join('')}${legend.join('')}</svg>`;
}
