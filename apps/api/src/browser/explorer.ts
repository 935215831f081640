/**
 * The browser side of /explorer, built to a classic script the page inlines (scripts/build.mjs).
 * It reads only this server: GET /route/explain for the route, its proof and costs; GET /orderbook
 * for the books of the first hop's routed venues (the depth chart); /stream/route (with the v2 envelope) for live updates
 * of the route. Every value from the server is inserted as text (textContent), never as HTML.
 * The answers' shapes are the typed client's (@app/client, generated from the OpenAPI document).
 */
import type { Chart as ChartJs } from 'chart.js';
import type { OrderBook, RouteResult, Schemas } from '@app/client';

type Explained = Schemas['ExplainedRoute'];
type Proof = Schemas['SolveProof'];
type Costs = Schemas['ConstraintCosts'];
/** An answer or a stream frame that may be an error body instead. */
type OrError<T> = T & { error?: string };

/** Chart.js's browser build, inlined in the page before this script, defines the global. */
declare const Chart: typeof ChartJs;

/** What the page keeps between quotes; window.explorer, so a test can read the chart's data. */
interface ExplorerState {
  socket: WebSocket | null;
  chart: ChartJs<'scatter'> | null;
  updates: number;
}
declare global {
  interface Window {
    explorer: ExplorerState;
  }
}

const state: ExplorerState = { socket: null, chart: null, updates: 0 };
window.explorer = state;

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls = '',
  text?: string | number,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

const fmt = (n: number | null | undefined): string =>
  n === null || n === undefined ? '-' : String(Number(Number(n).toPrecision(8)));
const bps = (n: number | null): string => (n === null ? 'n/a' : `${n >= 0 ? '+' : ''}${n.toFixed(2)} bps`);

function query(form: HTMLFormElement): string {
  const p = new URLSearchParams();
  for (const k of ['from', 'to', 'amountIn', 'strategy']) {
    const field = form.elements.namedItem(k) as HTMLInputElement | HTMLSelectElement;
    p.set(k, field.value.trim());
  }
  return p.toString();
}

function diagram(result: RouteResult): void {
  const d = $('diagram');
  d.replaceChildren();
  if (result.hops.length === 0) {
    d.append(el('div', 'asset', result.unroutableReason || 'no route'));
    return;
  }
  const asset = (hop: RouteResult['hops'][number], first: boolean): string =>
    hop.side === 'sell' ? (first ? hop.base : hop.quote) : first ? hop.quote : hop.base;
  d.append(el('div', 'asset', `${fmt(result.amountIn)} ${result.from}`));
  for (const hop of result.hops) {
    d.append(el('div', 'arrow', '\u2192'));
    const box = el('div', 'hop');
    box.dataset.title = `${hop.pair} ${hop.side}: ${fmt(hop.amountIn)} ${asset(hop, true)} \u2192 ${fmt(hop.amountOut)} ${asset(hop, false)}`;
    box.dataset.pair = hop.pair;
    for (const leg of hop.legs) {
      const row = el('div', 'leg');
      row.dataset.exchange = leg.exchangeId;
      row.dataset.amount = String(leg.amount);
      row.append(
        el('span', '', leg.exchangeId),
        el('span', '', `${fmt(leg.amount)} @ ${fmt(leg.averagePrice)}`),
      );
      box.append(row);
    }
    d.append(box);
    d.append(el('div', 'arrow', '\u2192'));
    d.append(el('div', 'asset', `${fmt(hop.amountOut)} ${asset(hop, false)}`));
  }
}

function proofView(proof: Proof): void {
  const p = $('proof');
  p.replaceChildren();
  const dec = proof.decision;
  const winner = dec.winner === null ? 'nothing routed' : `candidate ${dec.winner}`;
  const margin = dec.marginBps === null ? '' : `, margin ${bps(dec.marginBps)}`;
  p.append(el('div', '', `decision: ${winner} (${dec.rule})${margin}`));
  for (const c of proof.candidates) {
    const box = el('div', `cand${c.verdict === 'chosen' ? ' chosen' : ''}`);
    box.dataset.verdict = c.verdict;
    const score = c.score ? `, score ${fmt(c.score.score)}` : '';
    box.append(
      el('div', '', `#${c.index} ${c.pairs.join(' \u2192 ')}: ${c.verdict}, out ${fmt(c.amountOut)}${score}`),
    );
    for (const h of c.hops)
      for (const l of h.legs) {
        const levels = l.levels.map((v) => `${fmt(v.base)}@${fmt(v.price)}`).join(', ');
        const line = `  ${h.pair} ${l.exchangeId}: ${levels} = ${fmt(l.amount)} for ${fmt(l.cost)}, fee ${fmt(l.feeCost)}`;
        box.append(el('div', '', line));
      }
    p.append(box);
  }
}

function costsView(c: Costs): void {
  const t = $('costs');
  t.replaceChildren();
  const head = el('tr');
  for (const h of ['alternative', c.valueAsset, 'fill', 'bps']) head.append(el('th', '', h));
  t.append(head);
  const add = (name: string, r: { value: number; fillRatio: number; costBps?: number | null }): void => {
    const tr = el('tr');
    tr.dataset.row = name;
    const cost = r.costBps === undefined ? '' : bps(r.costBps);
    tr.append(
      el('td', '', name),
      el('td', 'num', fmt(r.value)),
      el('td', 'num', fmt(r.fillRatio)),
      el('td', 'num', cost),
    );
    t.append(tr);
  };
  add('route', c.route);
  for (const s of c.strategies) add(`strategy ${s.name}${s.current ? ' (route)' : ''}`, s);
  for (const p of c.paths) add(`path ${p.pairs.join('>')}${p.chosen ? ' (chosen)' : ''}`, p);
  for (const k of c.constraints) add(`without ${k.name}`, k);
}

interface DepthLevel {
  price: number;
  size: number;
  taken: number;
}

async function depth(result: RouteResult, proof: Proof): Promise<void> {
  const hop = result.hops[0];
  const chosen = proof.decision.hopsFrom === null ? null : proof.candidates[proof.decision.hopsFrom];
  if (!hop || !chosen) {
    $('depth-note').textContent = 'no hop';
    return;
  }
  const chosenLegs = chosen.hops[0]!.legs;
  const taken: Record<string, number> = {};
  const seqOf: Record<string, number | null> = {};
  for (const l of chosenLegs) {
    for (const v of l.levels) taken[`${l.exchangeId}#${v.level}`] = v.base;
    seqOf[l.exchangeId] = l.bookSequence;
  }
  const sideKey = hop.side === 'sell' ? 'bids' : 'asks';
  const levels: DepthLevel[] = [];
  const moved: string[] = [];
  const [base, quote] = hop.pair.split('/') as [string, string];
  for (const leg of hop.legs) {
    const path = [leg.exchangeId, base, quote].map(encodeURIComponent).join('/');
    const r = await fetch(`/orderbook/${path}`);
    if (!r.ok) continue;
    const book = (await r.json()) as OrderBook;
    // The books are read after the quote: a venue whose book moved since is named, not hidden.
    if (book.sequence !== seqOf[leg.exchangeId]) moved.push(leg.exchangeId);
    book[sideKey].forEach((lv, i) =>
      levels.push({ price: lv.price, size: lv.amount, taken: taken[`${leg.exchangeId}#${i}`] || 0 }),
    );
  }
  levels.sort((a, b) => (hop.side === 'sell' ? b.price - a.price : a.price - b.price));
  let cum = 0;
  let cumTaken = 0;
  const all: { x: number; y: number }[] = [];
  const used: { x: number; y: number }[] = [];
  for (const l of levels) {
    all.push({ x: l.price, y: cum });
    used.push({ x: l.price, y: cumTaken });
    cum += l.size;
    cumTaken += l.taken;
    all.push({ x: l.price, y: cum });
    used.push({ x: l.price, y: cumTaken });
  }
  // Carry the last step a little past the worst price, so the last level shows its width too.
  if (levels.length > 0) {
    const first = levels[0]!.price;
    const last = levels[levels.length - 1]!.price;
    const pad = Math.abs(first - last) / 20 || Math.abs(last) * 0.001;
    const end = hop.side === 'sell' ? last - pad : last + pad;
    all.push({ x: end, y: cum });
    used.push({ x: end, y: cumTaken });
  }
  const canvas = $<HTMLCanvasElement>('depth');
  canvas.dataset.consumedBase = String(cumTaken);
  canvas.dataset.totalBase = String(cum);
  const movedNote = moved.length ? ` (books moved since the quote: ${moved.join(', ')})` : '';
  $('depth-note').textContent =
    `${hop.pair} ${sideKey} of the routed venues: consumed ${fmt(cumTaken)} of ${fmt(cum)} ${hop.base}${movedNote}`;
  if (state.chart) state.chart.destroy();
  state.chart = new Chart(canvas, {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: `depth (${hop.base})`,
          data: all,
          showLine: true,
          pointRadius: 0,
          borderColor: '#7a8ca6',
          backgroundColor: 'rgba(122,140,166,0.12)',
          fill: 'origin',
        },
        {
          label: 'consumed by the route',
          data: used,
          showLine: true,
          pointRadius: 0,
          borderColor: '#2a8a4a',
          backgroundColor: 'rgba(42,138,74,0.45)',
          fill: 'origin',
        },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { title: { display: true, text: `price (${hop.quote})` }, reverse: hop.side === 'sell' },
        y: { title: { display: true, text: `cumulative ${hop.base}` } },
      },
    },
  });
}

/** What the explorer reads of a routestream.v2 message (docs/api.md "Stream protocol v2"). */
interface StreamMessage {
  type?: string;
  error?: string;
  message?: string;
  seq?: number;
  ticksSkipped?: number;
  validUntil?: number | null;
  result?: RouteResult;
}

/** Follow the route with the v2 envelope (seq, skipped states, validUntil) on the one-route stream. */
function live(q: string): void {
  if (state.socket) state.socket.close();
  state.updates = 0;
  const proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const ws = new WebSocket(`${proto}${location.host}/stream/route?${q}&envelope=v2`);
  state.socket = ws;
  ws.onmessage = (m: MessageEvent<string>) => {
    const msg = JSON.parse(m.data) as StreamMessage;
    if (msg.error !== undefined || msg.type === 'error') {
      $('status').textContent = `stream: ${msg.error ?? msg.message ?? ''}`;
      return;
    }
    if (msg.type !== 'quote' || msg.result === undefined) return;
    const r = msg.result;
    state.updates += 1;
    const l = $('live');
    l.dataset.updates = String(state.updates);
    l.dataset.seq = String(msg.seq);
    l.dataset.skipped = String(msg.ticksSkipped);
    l.dataset.validUntil =
      msg.validUntil === null || msg.validUntil === undefined ? '' : String(msg.validUntil);
    const at = new Date(r.calculatedAt).toISOString();
    const until =
      l.dataset.validUntil === '' ? 'no book' : new Date(Number(l.dataset.validUntil)).toISOString();
    l.textContent = `live: ${fmt(r.amountOut)} ${r.to} at ${at} (seq ${msg.seq}, ${msg.ticksSkipped} skipped, valid until ${until})`;
    diagram(r);
  };
}

async function run(ev?: Event): Promise<void> {
  if (ev) ev.preventDefault();
  const q = query($<HTMLFormElement>('form'));
  $('status').textContent = 'quoting...';
  const r = await fetch(`/route/explain?${q}`);
  const body = (await r.json()) as OrError<Explained>;
  if (body.error) {
    $('status').textContent = body.error;
    return;
  }
  $('status').textContent = '';
  diagram(body.result);
  proofView(body.proof);
  costsView(body.constraintCosts);
  await depth(body.result, body.proof);
  document.body.dataset.ready = 'true';
  live(q);
}

$('form').addEventListener('submit', (ev) => {
  run(ev).catch((e: unknown) => {
    $('status').textContent = String(e);
  });
});
