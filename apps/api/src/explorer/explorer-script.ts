/**
 * The browser side of /explorer, plain ES2020 run as it is (no build step). It reads only this
 * server: GET /route/explain for the route, its proof and costs; GET /orderbook for the books of
 * the first hop's routed venues (the depth chart); /stream/route for live updates of the route.
 * Every value from the server is inserted as text (textContent), never as HTML.
 */
export const EXPLORER_SCRIPT = String.raw`
(function () {
  'use strict';
  var state = { socket: null, chart: null, updates: 0 };
  window.explorer = state;
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = String(text);
    return e;
  };
  var fmt = function (n) { return n === null || n === undefined ? '-' : String(Number(Number(n).toPrecision(8))); };
  var bps = function (n) { return n === null ? 'n/a' : (n >= 0 ? '+' : '') + n.toFixed(2) + ' bps'; };

  function query(form) {
    var p = new URLSearchParams();
    ['from', 'to', 'amountIn', 'strategy'].forEach(function (k) { p.set(k, form.elements[k].value.trim()); });
    return p.toString();
  }

  function diagram(result) {
    var d = $('diagram');
    d.replaceChildren();
    if (result.hops.length === 0) { d.append(el('div', 'asset', result.unroutableReason || 'no route')); return; }
    var asset = function (hop, first) { return hop.side === 'sell' ? (first ? hop.base : hop.quote) : (first ? hop.quote : hop.base); };
    d.append(el('div', 'asset', fmt(result.amountIn) + ' ' + result.from));
    result.hops.forEach(function (hop) {
      d.append(el('div', 'arrow', '\u2192'));
      var box = el('div', 'hop');
      box.dataset.title = hop.pair + ' ' + hop.side + ': ' + fmt(hop.amountIn) + ' ' + asset(hop, true) + ' \u2192 ' + fmt(hop.amountOut) + ' ' + asset(hop, false);
      box.dataset.pair = hop.pair;
      hop.legs.forEach(function (leg) {
        var row = el('div', 'leg');
        row.dataset.exchange = leg.exchangeId;
        row.dataset.amount = String(leg.amount);
        row.append(el('span', '', leg.exchangeId), el('span', '', fmt(leg.amount) + ' @ ' + fmt(leg.averagePrice)));
        box.append(row);
      });
      d.append(box);
      d.append(el('div', 'arrow', '\u2192'));
      d.append(el('div', 'asset', fmt(hop.amountOut) + ' ' + asset(hop, false)));
    });
  }

  function proofView(proof) {
    var p = $('proof');
    p.replaceChildren();
    var dec = proof.decision;
    p.append(el('div', '', 'decision: ' + (dec.winner === null ? 'nothing routed' : 'candidate ' + dec.winner) + ' (' + dec.rule + ')' + (dec.marginBps === null ? '' : ', margin ' + bps(dec.marginBps))));
    proof.candidates.forEach(function (c) {
      var box = el('div', 'cand' + (c.verdict === 'chosen' ? ' chosen' : ''));
      box.dataset.verdict = c.verdict;
      box.append(el('div', '', '#' + c.index + ' ' + c.pairs.join(' \u2192 ') + ': ' + c.verdict + ', out ' + fmt(c.amountOut) + (c.score ? ', score ' + fmt(c.score.score) : '')));
      c.hops.forEach(function (h) {
        h.legs.forEach(function (l) {
          box.append(el('div', '', '  ' + h.pair + ' ' + l.exchangeId + ': ' + l.levels.map(function (v) { return fmt(v.base) + '@' + fmt(v.price); }).join(', ') + ' = ' + fmt(l.amount) + ' for ' + fmt(l.cost) + ', fee ' + fmt(l.feeCost)));
        });
      });
      p.append(box);
    });
  }

  function costsView(c) {
    var t = $('costs');
    t.replaceChildren();
    var head = el('tr');
    ['alternative', c.valueAsset, 'fill', 'bps'].forEach(function (h) { head.append(el('th', '', h)); });
    t.append(head);
    var add = function (name, r) {
      var tr = el('tr');
      tr.dataset.row = name;
      tr.append(el('td', '', name), el('td', 'num', fmt(r.value)), el('td', 'num', fmt(r.fillRatio)), el('td', 'num', r.costBps === undefined ? '' : bps(r.costBps)));
      t.append(tr);
    };
    add('route', c.route);
    c.strategies.forEach(function (s) { add('strategy ' + s.name + (s.current ? ' (route)' : ''), s); });
    c.paths.forEach(function (p) { add('path ' + p.pairs.join('>') + (p.chosen ? ' (chosen)' : ''), p); });
    c.constraints.forEach(function (k) { add('without ' + k.name, k); });
  }

  async function depth(result, proof) {
    var hop = result.hops[0];
    var chosen = proof.decision.hopsFrom === null ? null : proof.candidates[proof.decision.hopsFrom];
    if (!hop || !chosen) { $('depth-note').textContent = 'no hop'; return; }
    var taken = {};
    chosen.hops[0].legs.forEach(function (l) { l.levels.forEach(function (v) { taken[l.exchangeId + '#' + v.level] = v.base; }); });
    var sideKey = hop.side === 'sell' ? 'bids' : 'asks';
    var levels = [];
    var moved = [];
    var seqOf = {};
    chosen.hops[0].legs.forEach(function (l) { seqOf[l.exchangeId] = l.bookSequence; });
    for (const leg of hop.legs) {
      var parts = hop.pair.split('/');
      var r = await fetch('/orderbook/' + encodeURIComponent(leg.exchangeId) + '/' + encodeURIComponent(parts[0]) + '/' + encodeURIComponent(parts[1]));
      if (!r.ok) continue;
      var book = await r.json();
      // The books are read after the quote: a venue whose book moved since is named, not hidden.
      if (book.sequence !== seqOf[leg.exchangeId]) moved.push(leg.exchangeId);
      book[sideKey].forEach(function (lv, i) { levels.push({ price: lv.price, size: lv.amount, taken: taken[leg.exchangeId + '#' + i] || 0 }); });
    }
    levels.sort(function (a, b) { return hop.side === 'sell' ? b.price - a.price : a.price - b.price; });
    var cum = 0, cumTaken = 0, all = [], used = [];
    levels.forEach(function (l) {
      all.push({ x: l.price, y: cum }); used.push({ x: l.price, y: cumTaken });
      cum += l.size; cumTaken += l.taken;
      all.push({ x: l.price, y: cum }); used.push({ x: l.price, y: cumTaken });
    });
    // Carry the last step a little past the worst price, so the last level shows its width too.
    if (levels.length > 0) {
      var first = levels[0].price, last = levels[levels.length - 1].price;
      var pad = Math.abs(first - last) / 20 || Math.abs(last) * 0.001;
      var end = hop.side === 'sell' ? last - pad : last + pad;
      all.push({ x: end, y: cum }); used.push({ x: end, y: cumTaken });
    }
    var canvas = $('depth');
    canvas.dataset.consumedBase = String(cumTaken);
    canvas.dataset.totalBase = String(cum);
    $('depth-note').textContent = hop.pair + ' ' + sideKey + ' of the routed venues: consumed ' + fmt(cumTaken) + ' of ' + fmt(cum) + ' ' + hop.base + (moved.length ? ' (books moved since the quote: ' + moved.join(', ') + ')' : '');
    if (state.chart) state.chart.destroy();
    state.chart = new Chart(canvas, {
      type: 'scatter',
      data: { datasets: [
        { label: 'depth (' + hop.base + ')', data: all, showLine: true, pointRadius: 0, borderColor: '#7a8ca6', backgroundColor: 'rgba(122,140,166,0.12)', fill: 'origin' },
        { label: 'consumed by the route', data: used, showLine: true, pointRadius: 0, borderColor: '#2a8a4a', backgroundColor: 'rgba(42,138,74,0.45)', fill: 'origin' }
      ] },
      options: { animation: false, maintainAspectRatio: false, scales: { x: { title: { display: true, text: 'price (' + hop.quote + ')' }, reverse: hop.side === 'sell' }, y: { title: { display: true, text: 'cumulative ' + hop.base } } } }
    });
  }

  function live(q) {
    if (state.socket) state.socket.close();
    state.updates = 0;
    var proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
    var ws = new WebSocket(proto + location.host + '/stream/route?' + q);
    state.socket = ws;
    ws.onmessage = function (m) {
      var r = JSON.parse(m.data);
      if (r.error) { $('status').textContent = 'stream: ' + r.error; return; }
      state.updates += 1;
      var l = $('live');
      l.dataset.updates = String(state.updates);
      l.textContent = 'live: ' + fmt(r.amountOut) + ' ' + r.to + ' at ' + new Date(r.calculatedAt).toISOString() + ' (' + state.updates + ' frames)';
      diagram(r);
    };
  }

  async function run(ev) {
    if (ev) ev.preventDefault();
    var q = query($('form'));
    $('status').textContent = 'quoting...';
    var r = await fetch('/route/explain?' + q);
    var body = await r.json();
    if (body.error) { $('status').textContent = body.error; return; }
    $('status').textContent = '';
    diagram(body.result);
    proofView(body.proof);
    costsView(body.constraintCosts);
    await depth(body.result, body.proof);
    document.body.dataset.ready = 'true';
    live(q);
  }

  $('form').addEventListener('submit', function (ev) { run(ev).catch(function (e) { $('status').textContent = String(e); }); });
})();
`;
