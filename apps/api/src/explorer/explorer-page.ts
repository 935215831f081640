import { inlineScript } from '@app/html';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { browserScript, streamClientScript } from './page-script';

/**
 * The /explorer page (an extension beyond the spec): a form, the route as a diagram, the
 * consolidated depth chart of the first hop with the consumed levels shaded, live updates from
 * GET /stream (the typed client's RouteStreamV2, inlined: it reconnects and resumes), and the proof and constraint costs beside them. One self-contained response:
 * Chart.js (already the backtest report's charting library, well kept, MIT) is inlined from
 * node_modules, so the page works offline and fetches nothing but this server's own endpoints. The
 * page's own script is apps/api/src/browser/explorer.ts, as built.
 */
export function renderExplorerPage(): string {
  const chart = readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Route explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>${CSS}</style>
</head><body>
<header><b>Route explorer</b> <small>GET /route/explain and /stream (extensions: docs/explain.md)</small></header>
<form id="form">
<label>from <input name="from" value="BTC" required maxlength="32"></label>
<label>to <input name="to" value="USDT" required maxlength="32"></label>
<label>amountIn <input name="amountIn" value="1" required inputmode="decimal" maxlength="40"></label>
<label>strategy <select name="strategy"><option>best_single</option><option selected>split_optimal</option><option>split_capped</option></select></label>
<button type="submit">Quote</button>
<span id="status" role="status"></span>
</form>
<main>
<section class="left">
<h2>Route <small id="live" data-updates="0"></small> <small id="connection"></small></h2>
<div id="diagram"></div>
<h2>Depth of the first hop <small id="depth-note"></small></h2>
<div class="chart"><canvas id="depth"></canvas></div>
</section>
<section class="right">
<h2>Why this route</h2>
<div id="proof"></div>
<h2>What each constraint costs</h2>
<table id="costs"></table>
</section>
</main>
<script>${inlineScript(chart)}</script>
<script>${streamClientScript()}</script>
<script>${browserScript('explorer')}</script>
</body></html>`;
}

const CSS = `
body{font:14px system-ui,sans-serif;margin:0;color:#1d2430}
header{padding:10px 16px;background:#1d2430;color:#fff}header small{opacity:.7;margin-left:8px}
form{display:flex;gap:12px;align-items:end;flex-wrap:wrap;padding:12px 16px;border-bottom:1px solid #ddd}
label{display:flex;flex-direction:column;font-size:12px;color:#555}input,select{font:inherit;padding:4px 6px;width:110px}
button{font:inherit;padding:5px 14px}#status{color:#a33}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:16px;padding:0 16px 16px}
h2{font-size:15px;margin:16px 0 8px}h2 small{font-weight:normal;color:#555;margin-left:6px}
#diagram{display:flex;align-items:stretch;gap:0;flex-wrap:wrap}
.asset{align-self:center;padding:8px 12px;border-radius:16px;background:#eef3fb;font-weight:600}
.hop{border:1px solid #9ab;border-radius:6px;padding:6px 8px;margin:0 4px;min-width:170px}
.hop::before{content:attr(data-title);display:block;font-size:12px;color:#555;margin-bottom:4px}
.arrow{align-self:center;color:#789}
.leg{display:flex;justify-content:space-between;gap:8px;padding:3px 6px;margin:2px 0;background:#f4f7fb;border-left:4px solid #4b7bd0}
.chart{height:280px;position:relative}
#proof{font-size:13px}#proof .cand{margin:4px 0;padding:4px 6px;border-left:3px solid #ccc}#proof .chosen{border-color:#2a8a4a;background:#f2faf4}
table{border-collapse:collapse;font-size:13px;width:100%}td,th{border-bottom:1px solid #e3e3e3;padding:3px 6px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}`;
