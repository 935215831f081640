/**
 * The browser side of /explorer, built to a classic script the page inlines (scripts/build.mjs).
 * It reads only this server: GET /route/explain for the route, its proof and costs; GET /orderbook
 * for the books of the first hop's routed venues (the depth chart); GET /stream (routestream.v2)
 * for live updates of the route, through the typed client's RouteStreamV2, which the page inlines
 * before this script: a dropped connection reconnects with jitter, honours goaway, and resumes.
 * Every value from the server is inserted as text (textContent), never as HTML.
 * The answers' shapes are the typed client's (@app/client, generated from the OpenAPI document).
 */
import type { Chart as ChartJs } from 'chart.js';
import type {
  OrderBook,
  ResumeVerdict,
  RouteResult,
  RouteStreamV2,
  Schemas,
  SendingWebSocket,
  StreamRoute,
  V2Quote,
} from '@app/client';

type Explained = Schemas['ExplainedRoute'];
type Proof = Schemas['SolveProof'];
type Costs = Schemas['ConstraintCosts'];
/** An answer that may be an error body instead. */
type OrError<T> = T & { error?: string };

/** Chart.js's browser build, inlined in the page before this script, defines the global. */
declare const Chart: typeof ChartJs;

/** What the page keeps between quotes; window.explorer, so a test can read the chart's data. */
interface ExplorerState {
  stream: RouteStreamV2 | null;
  chart: ChartJs<'scatter'> | null;
  updates: number;
}
declare global {
  interface Window {
    explorer: ExplorerState;
    /** The typed client's stream v2, inlined before this script (explorer/page-script.ts). */
    routeStreamV2: { RouteStreamV2: typeof RouteStreamV2 };
  }
}

const state: ExplorerState = { stream: null, chart: null, updates: 0 };
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

function showQuote(q: V2Quote): void {
  const r = q.result;
  state.updates += 1;
  const l = $('live');
  l.dataset.updates = String(state.updates);
  l.dataset.streamId = q.streamId;
  l.dataset.seq = String(q.seq);
  l.dataset.skipped = String(q.ticksSkipped);
  l.dataset.validUntil = q.validUntil === null ? '' : String(q.validUntil);
  const at = new Date(r.calculatedAt).toISOString();
  const until = q.validUntil === null ? 'no book' : new Date(q.validUntil).toISOString();
  l.textContent = `live: ${fmt(r.amountOut)} ${r.to} at ${at} (seq ${q.seq}, ${q.ticksSkipped} skipped, valid until ${until})`;
  diagram(r);
}

/** What the last (re)subscription came to: a fresh stream, or a resume and how it went. */
function verdictText(resume: ResumeVerdict | null): string {
  if (resume === null) return 'subscribed';
  if (resume.resumed) return `resumed, ${resume.missedFrames} missed`;
  return `not resumed (${resume.reason}), started afresh`;
}

/** Follow the route on GET /stream: seq, skipped states and validUntil with every quote. */
function live(q: string): void {
  state.stream?.close();
  state.updates = 0;
  const p = new URLSearchParams(q);
  const route = {
    from: p.get('from') ?? '',
    to: p.get('to') ?? '',
    amountIn: p.get('amountIn') ?? '',
    strategy: p.get('strategy') as StreamRoute['strategy'],
  };
  const conn = $('connection');
  const stream = new window.routeStreamV2.RouteStreamV2(
    `${location.protocol}//${location.host}`,
    {
      onQuote: showQuote,
      onSubscribed: (_id, streamId, resume) => {
        conn.dataset.resume = resume === null ? '' : JSON.stringify(resume);
        conn.textContent = `stream ${streamId}: ${verdictText(resume)}`;
      },
      onError: (e) => {
        $('status').textContent = `stream: ${e.message}`;
      },
      onGap: (_id, expected, got) => {
        conn.textContent = `stream: seq ${got} came where ${expected} was due (frames lost)`;
      },
      onConnection: (up, detail) => {
        conn.dataset.state = up;
        conn.dataset.connections = String(Number(conn.dataset.connections ?? '0') + (up === 'up' ? 1 : 0));
        if (up === 'down') conn.textContent = `stream: ${detail}, reconnecting`;
      },
    },
    // The browser's WebSocket is one: its handlers take a MessageEvent/CloseEvent, which carry
    // the fields the client reads (data; code and reason).
    { connect: (url, protocol) => new WebSocket(url, protocol) as unknown as SendingWebSocket },
  );
  stream.subscribe('explorer', route);
  state.stream = stream;
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
