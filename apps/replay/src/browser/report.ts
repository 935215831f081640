/**
 * The backtest report's charts (report.html), built to a classic script the page inlines
 * (scripts/build.mjs): each chart's Chart.js configuration is in the page as JSON
 * (backtest/report-charts.ts writes them), drawn on the canvas of the same id.
 */
import type { Chart as ChartJs, ChartConfiguration } from 'chart.js';

/** Chart.js's browser build, inlined in the page before this script, defines the global. */
declare const Chart: typeof ChartJs;

/** One chart as report-charts.ts writes it. */
interface ChartSpec {
  id: string;
  config: ChartConfiguration;
}

Chart.defaults.font.size = 14;
Chart.defaults.color = '#111';
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;
const specs = JSON.parse(document.getElementById('chart-specs')?.textContent ?? '') as ChartSpec[];
for (const s of specs) new Chart(document.getElementById(s.id) as HTMLCanvasElement, s.config);
