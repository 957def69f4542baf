(() => {
'use strict';
const T0 = performance.now();
const app = document.getElementById('app');
let data;
try {
  data = JSON.parse(document.getElementById('layoutsnap-results').textContent);
} catch (e) {
  app.textContent = 'Could not read the results embedded in this report: ' + e;
  return;
}
const PARSE_MS = performance.now() - T0;

const FAILING = new Set(['failed', 'missing', 'unreadable', 'error']);
const SEVERITY = { passed: 0, similar: 1, failed: 3, missing: 3, unreadable: 4, error: 4 };
const ORDER = ['failed', 'missing', 'unreadable', 'error', 'similar', 'passed'];
const PAGE = 200;        // fixture headers rendered per "show more"
const STRIP_MAX = 240;   // strip cells per state; longer animations are bucketed
const AUTO_OPEN = 3;     // failing fixtures opened on load
const MODES = [['side', 'Side by side'], ['slider', 'Slider'], ['blend', 'Blend'], ['blink', 'Blink']];
let preferredMode = 'side';

// ---------- helpers ----------
function h(tag, props, ...kids) {
  const e = document.createElement(tag);
  if (props) for (const k in props) {
    const v = props[k];
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'style') e.style.cssText = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
}
const nf = new Intl.NumberFormat('en-US');
const int = (n) => nf.format(n);
function num(x, digits) { x = Number(x); return Number.isFinite(x) ? x.toFixed(digits) : String(x); }
function duration(s) {
  s = Number(s);
  if (!Number.isFinite(s)) return '–';
  if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + ' s';
  const m = Math.floor(s / 60);
  return m + ' min ' + String(Math.round(s - m * 60)).padStart(2, '0') + ' s';
}
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const plural = (n, word) => int(n) + ' ' + word + (n === 1 ? '' : 's');
// Paths are relative to the report folder; encode each segment so ids with
// spaces, '#' or '?' still resolve (and nothing can become a scheme).
const url = (p) => String(p).split('/').map(encodeURIComponent).join('/');
function pill(kind, text) { return h('span', { class: 'pill ' + kind, text: text || kind }); }
function counts(c) {
  const wrap = h('span', { class: 'counts' });
  for (const k of ORDER) if (c[k]) wrap.append(h('span', { class: 'c-' + k, text: int(c[k]) + ' ' + k }));
  return wrap;
}

// ---------- model ----------
const fixtures = (data.fixtures || []).map((f, i) => {
  const total = { passed: 0, similar: 0, failed: 0, missing: 0, unreadable: 0, error: 0 };
  const states = (f.states || []).map((s) => {
    const c = { passed: 0, similar: 0, failed: 0, missing: 0, unreadable: 0, error: 0 };
    for (const fr of s.frames) c[fr.status] = (c[fr.status] || 0) + 1;
    for (const k in c) total[k] = (total[k] || 0) + c[k];
    const lints = s.frames.filter((fr) => fr.lints && fr.lints.length).length;
    // Lints fail a state only under --lint error (their severity says so).
    const lintFailing = s.frames.filter((fr) => (fr.lints || []).some((l) => l.severity !== 'warning')).length;
    const failing = c.failed + c.missing + c.unreadable + c.error + lintFailing;
    let sel = s.frames.findIndex((fr) => FAILING.has(fr.status));
    if (sel < 0) sel = s.frames.findIndex((fr) => fr.status === 'similar');
    if (sel < 0) sel = s.frames.findIndex((fr) => fr.lints && fr.lints.length);
    return { s, c, failing, lints, canvas: f.canvas, sel: Math.max(0, sel), mode: null, pos: 50, op: 50, regions: false };
  });
  const failing = total.failed + total.missing + total.unreadable + total.error + states.reduce((n, st) => n + (st.failing ? 1 : 0), 0);
  const kind = f.error ? 'error' : failing ? 'failed' : total.similar ? 'similar' : 'passed';
  const rank = kind === 'error' || kind === 'failed' ? 0 : kind === 'similar' ? 1 : 2;
  return { f, i, total, states, failing, kind, rank, open: false, section: null, body: null, toggle: null };
});
const order = fixtures.slice().sort((a, b) => a.rank - b.rank); // stable: input order within a rank
const failingFixtures = order.filter((fx) => fx.rank === 0).length;

// ---------- header & toolbar ----------
const sum = data.summary || {};
// The badge is the run's outcome as layoutsnap decided it (the exit code's), never recounted here.
const bad = sum.outcome ? sum.outcome !== 'passed' : (sum.failed || 0) + (sum.missing || 0) + (sum.errors || 0) > 0;
const findings = data.findings || [];
const header = h('header', { class: 'masthead' },
  h('div', { class: 'title-row' },
    h('h1', null, h('span', { class: 'brand', text: data.tool || 'layoutsnap' }), ' ' + (data.command || '')),
    h('span', { class: 'verdict ' + (bad ? 'fail' : 'ok'), text: bad ? 'failed' : 'passed' }),
    h('span', { class: 'meta', text: [
      'version ' + data.version,
      duration(data.durationSeconds),
      plural(sum.frames || 0, 'frame'),
      plural(fixtures.length, 'fixture')].join(' · ') })),
  (() => {
    const ul = h('ul', { class: 'stats', 'aria-label': 'Summary' });
    for (const k of ['failed', 'missing', 'errors', 'orphans', 'lints', 'similar', 'passed']) {
      if ((k === 'orphans' || k === 'lints') && !sum[k]) continue;
      const n = sum[k] || 0;
      ul.append(h('li', { class: 'stat ' + k + (n ? ' nz' : '') }, h('b', { text: int(n) }), k));
    }
    return ul;
  })(),
  findings.length
    ? h('div', { class: 'findings', role: 'note' },
        h('strong', { text: 'Run findings' }),
        h('ul', null, ...findings.map((f) => h('li', { class: 'finding ' + f.severity },
          h('span', { class: 'pill ' + (f.severity === 'warning' ? 'similar' : f.severity === 'error' ? 'error' : 'failed'),
            text: String(f.kind).replace(/([A-Z])/g, ' $1').toLowerCase() }),
          ' ', h('span', { class: 'mono', text: f.message })))))
    : null,
  (data.environmentDifferences || []).length
    ? h('div', { class: 'env', role: 'note' },
        h('strong', { text: 'The goldens were recorded in a different environment' }),
        h('ul', null, ...data.environmentDifferences.map((d) => h('li', { class: 'mono', text: d }))))
    : null);

const failOnly = h('input', { type: 'checkbox', id: 'failures-only' });
failOnly.checked = failingFixtures > 0;
const search = h('input', { type: 'search', id: 'fixture-filter', placeholder: 'fixture id contains…', autocomplete: 'off' });
const zoom = h('input', { type: 'checkbox', id: 'zoom-1' });
const countEl = h('span', { class: 'count', 'aria-live': 'polite' });
const expandBtn = h('button', { type: 'button', class: 'btn', onclick: () => {
  for (const fx of listed) if (fx.rank === 0) setOpen(fx, true);
} }, 'Expand failing');
const collapseBtn = h('button', { type: 'button', class: 'btn', onclick: () => {
  for (const fx of fixtures) setOpen(fx, false);
} }, 'Collapse all');
const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Report filters' },
  h('label', { for: 'failures-only' }, failOnly, 'Failures only'),
  h('label', { for: 'fixture-filter' }, 'Filter', search),
  h('label', { for: 'zoom-1' }, zoom, 'Images at 1:1'),
  expandBtn, collapseBtn, countEl);
const list = h('main', { id: 'fixtures', 'aria-label': 'Fixtures' });
const footer = h('footer', { text: 'Generated by ' + (data.tool || 'layoutsnap') + ' ' + data.version +
  '. Self-contained: images are loaded from this folder; the results are embedded in this file (script#layoutsnap-results).' });
app.append(header, toolbar, list, footer);

// ---------- fixture list ----------
let limit = PAGE;
let listed = [];
function renderList() {
  document.body.classList.toggle('failures-only', failOnly.checked);
  document.body.classList.toggle('zoom-1', zoom.checked);
  const q = search.value.trim().toLowerCase();
  const visible = order.filter((fx) => (!failOnly.checked || fx.rank === 0) && (!q || fx.f.id.toLowerCase().includes(q)));
  listed = visible.slice(0, limit);
  const frag = document.createDocumentFragment();
  for (const fx of listed) frag.append(section(fx));
  if (visible.length > listed.length) {
    const rest = visible.length - listed.length;
    frag.append(h('button', { type: 'button', class: 'btn more', onclick: () => { limit += PAGE; renderList(); } },
      'Show ' + int(Math.min(PAGE, rest)) + ' more (' + int(rest) + ' not shown)'));
  }
  if (!visible.length) {
    frag.append(h('p', { class: 'empty', text: failOnly.checked && !q
      ? 'No failing fixtures. Uncheck “Failures only” to see all ' + plural(fixtures.length, 'fixture') + '.'
      : 'No fixtures match the filter.' }));
  }
  list.replaceChildren(frag);
  countEl.textContent = listed.length < visible.length
    ? 'Showing ' + int(listed.length) + ' of ' + int(visible.length) + ' matching fixtures (' + int(fixtures.length) + ' in total)'
    : visible.length < fixtures.length
      ? 'Showing ' + int(visible.length) + ' of ' + int(fixtures.length) + ' fixtures'
      : fixtures.length === 1 ? 'Showing 1 fixture' : 'Showing all ' + plural(fixtures.length, 'fixture');
}
failOnly.addEventListener('change', () => { limit = PAGE; renderList(); });
search.addEventListener('input', () => { limit = PAGE; renderList(); });
zoom.addEventListener('change', renderList);

function section(fx) {
  if (fx.section) return fx.section;
  const id = 'fx-' + fx.i;
  fx.toggle = h('button', { type: 'button', class: 'fx-toggle', 'aria-expanded': 'false', 'aria-controls': id + '-body',
      onclick: () => setOpen(fx, !fx.open) },
    h('span', { class: 'chev', 'aria-hidden': 'true' }),
    pill(fx.kind),
    h('span', { class: 'fx-id mono', text: fx.f.id }),
    counts(fx.total));
  fx.section = h('section', { class: 'fixture k-' + fx.kind, id, 'data-fixture': fx.f.id },
    h('h2', { class: 'fx-h' }, fx.toggle, h('span', { class: 'fx-file mono', title: fx.f.file, text: fx.f.file })),
    fx.f.error ? h('div', { class: 'fx-error' }, h('strong', { text: 'Fixture error' }), h('pre', { class: 'mono', text: fx.f.error })) : null);
  return fx.section;
}

// Bodies exist only while a fixture is open: nothing (no images) is in the
// DOM for collapsed fixtures. Selected frames and view modes are kept.
function setOpen(fx, open) {
  if (fx.open === open) return;
  fx.open = open;
  section(fx);
  fx.toggle.setAttribute('aria-expanded', String(open));
  fx.section.classList.toggle('open', open);
  if (open) {
    fx.body = buildBody(fx);
    fx.section.append(fx.body);
  } else if (fx.body) {
    fx.body.remove();
    fx.body = null;
  }
}

function buildBody(fx) {
  const body = h('div', { class: 'fx-body', id: 'fx-' + fx.i + '-body' });
  if (!fx.states.length) body.append(h('p', { class: 'muted', text: fx.f.error ? 'No frames were rendered.' : 'No states.' }));
  const passing = fx.states.filter((st) => !st.failing).length;
  if (passing) body.append(h('p', { class: 'hidden-note', text: plural(passing, 'passing state') + ' hidden by “Failures only”.' }));
  for (const st of fx.states) body.append(stateView(fx, st));
  return body;
}

// ---------- state: strip, scrubber, view modes ----------
function stateView(fx, st) {
  const frames = st.s.frames, n = frames.length;
  // A state failing by its lints alone (--lint error) is failed, even with similar frames.
  const kind = ['failed', 'missing', 'unreadable', 'error'].find((k) => st.c[k]) || (st.failing ? 'failed' : st.c.similar ? 'similar' : 'passed');
  const wrap = h('div', { class: 'state' + (st.failing ? '' : ' ok') });
  const plain = kind === 'passed' && !frames.some((fr) => fr.expected || fr.actual || fr.diff);
  wrap.append(h('div', { class: 'st-h' }, pill(kind), st.lints ? pill('lint', plural(st.lints, 'lint frame')) : null, h('h3', { class: 'mono', text: st.s.name }),
    h('span', { class: 'muted', text: plural(n, 'frame') + (plain && n ? ' · all match their goldens' : '') }), counts(st.c)));
  if (!n) { wrap.append(h('p', { class: 'muted', text: 'No frames.' })); return wrap; }
  if (plain) return wrap; // nothing to look at: no images are stored for passing states
  // What changed in motion terms (verify's MOTION line), before the pixels.
  if (st.s.motion && st.s.motion.summary) {
    wrap.append(h('div', { class: 'changes motion' }, h('span', { class: 'lbl', text: 'Motion' }),
      ...(st.s.motion.kinds || []).map((k) => h('span', { class: 'chip', text: k })),
      h('span', { class: 'mono', text: st.s.motion.summary })));
  }

  // One plot per changed track, expected and actual over time, under the scrubber.
  const plots = st.s.motion ? motionPlots(st) : null;
  const view = h('div', { class: 'fv-wrap' });
  let range = null, label = null, cells = null, bucketOf = null;

  function show(pos) {
    pos = clamp(pos | 0, 0, n - 1);
    st.sel = pos;
    const fr = frames[pos];
    if (range) {
      range.value = String(pos);
      range.setAttribute('aria-valuetext', 'frame ' + fr.index + ', ' + fr.status);
      label.replaceChildren(h('b', { text: 'frame ' + fr.index }), ' · ' + (pos + 1) + ' of ' + n +
        ' · t = ' + num(fr.time, 3) + ' s · progress ' + num(fr.progress * 100, 0) + '%');
      for (const c of cells.querySelectorAll('.cur')) c.classList.remove('cur');
      cells.children[bucketOf[pos]].classList.add('cur');
    }
    view.replaceChildren(frameView(st, fr));
    if (plots) plots.cursor(fr.time);
    for (const p of [pos - 1, pos + 1]) if (p >= 0 && p < n) preload(frames[p]);
  }
  function jump(dir) {
    for (let k = 1; k <= n; k++) {
      const p = ((st.sel + dir * k) % n + n) % n;
      if (FAILING.has(frames[p].status)) { show(p); return; }
    }
  }

  if (n > 1) {
    // One cell per frame, or per bucket of frames (showing the worst status) for long animations.
    const C = Math.min(n, STRIP_MAX);
    cells = h('div', { class: 'strip', 'aria-hidden': 'true' });
    bucketOf = new Uint16Array(n);
    for (let b = 0; b < C; b++) {
      const lo = Math.floor(b * n / C), hi = Math.floor((b + 1) * n / C);
      let worst = frames[lo].status, target = lo, linted = false;
      for (let p = lo; p < hi; p++) {
        bucketOf[p] = b;
        if (SEVERITY[frames[p].status] > SEVERITY[worst]) { worst = frames[p].status; target = p; }
        if (frames[p].lints && frames[p].lints.length) linted = true;
      }
      const title = (hi - lo === 1 ? 'frame ' + frames[lo].index + ': ' + worst
        : 'frames ' + frames[lo].index + '–' + frames[hi - 1].index + ': ' + worst) + (linted ? ' · lint' : '');
      cells.append(h('span', { class: 'cell s-' + worst + (linted ? ' lint' : ''), title, 'data-p': target }));
    }
    cells.addEventListener('click', (e) => { const p = e.target.getAttribute('data-p'); if (p !== null) show(+p); });
    range = h('input', { type: 'range', class: 'scrubber', min: 0, max: n - 1, step: 1, value: st.sel,
      'aria-label': 'Frame of state ' + st.s.name, oninput: () => show(+range.value) });
    label = h('output', { class: 'scrub-label' });
    const prev = h('button', { type: 'button', class: 'btn', disabled: !st.failing, onclick: () => jump(-1) }, '◂ Previous failing');
    const next = h('button', { type: 'button', class: 'btn', disabled: !st.failing, onclick: () => jump(1) }, 'Next failing ▸');
    wrap.append(h('div', { class: 'scrub' }, cells, range,
      h('div', { class: 'scrub-row' }, prev, label,
        h('span', { class: 'muted' }, h('span', { class: 'kbd', text: '←' }), ' ', h('span', { class: 'kbd', text: '→' }), ' step'),
        next)));
    // ←/→ step frames when focus is anywhere in the state (the range input handles them itself).
    wrap.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.target.tagName === 'INPUT') return;
      if (e.key === 'ArrowLeft') { show(st.sel - 1); e.preventDefault(); }
      else if (e.key === 'ArrowRight') { show(st.sel + 1); e.preventDefault(); }
    });
  }

  if (plots) wrap.append(plots.el);
  if (frames.some((fr) => fr.expected || fr.actual || fr.diff)) {
    st.mode = st.mode || preferredMode;
    const bar = h('div', { class: 'modes', role: 'group', 'aria-label': 'Comparison view for ' + st.s.name },
      h('span', { class: 'lbl', text: 'View' }));
    const buttons = MODES.map(([m, text]) => h('button', { type: 'button', class: 'btn', 'aria-pressed': String(st.mode === m),
      onclick: () => {
        st.mode = m; preferredMode = m;
        for (const b of buttons) b.setAttribute('aria-pressed', String(b === buttonFor(m)));
        show(st.sel);
      } }, text));
    const buttonFor = (m) => buttons[MODES.findIndex((x) => x[0] === m)];
    bar.append(...buttons);
    if (frames.some((fr) => fr.metrics && fr.metrics.regions && fr.metrics.regions.length)) {
      const cb = h('input', { type: 'checkbox', onchange: () => { st.regions = cb.checked; show(st.sel); } });
      cb.checked = st.regions;
      bar.append(h('label', null, cb, 'Outline changed regions'));
    }
    wrap.append(bar);
  }
  wrap.append(view);
  show(st.sel);
  return wrap;
}

// ---------- motion plots ----------
// One plot per changed track (MotionPlot, shared with preview): the golden's
// dashed, now's solid, failing frames as red dots, removed golden frames as
// rings, the frame shown as a cursor line.
function motionPlots(st) {
  const m = st.s.motion, tracks = m.tracks || {}, times = m.times || [[], []];
  const changed = (m.changes || []).filter((c) => c.property).map((c) => c.element + '.' + c.property);
  const keys = [...new Set([...changed, ...Object.keys(tracks).sort()])].filter((k) => tracks[k]);
  if (!keys.length) return null;
  const el = h('div', { class: 'plots', role: 'group', 'aria-label': 'Motion of ' + st.s.name + ': golden and new tracks' });
  const tmax = Math.max(0, ...times[0], ...times[1]);
  const failing = new Set(st.s.frames.filter((fr) => FAILING.has(fr.status) && fr.pairing !== 'removed').map((fr) => fr.index));
  const removed = new Set(st.s.frames.filter((fr) => fr.pairing === 'removed').map((fr) => fr.index));
  for (const key of keys) {
    const [ev, av] = tracks[key];
    const change = (m.changes || []).find((c) => c.element + '.' + c.property === key);
    const note = change ? change.kind + (change.largest !== undefined && change.largest !== null ? ' ' + (change.largest > 0 ? '+' : '') + num(change.largest, 2) : '')
      + (change.curve ? ' · now ' + change.curve : '') : '';
    const box = h('figure', { class: 'plot', 'data-track': key });
    box.innerHTML = MotionPlot.svg(key + ' over time', [
      { values: ev, times: times[0], cls: 'expected', dots: removed, dotCls: 'removed' },
      { values: av, times: times[1], cls: 'actual', dots: failing, dotCls: 'fail' }], tmax);
    box.append(h('figcaption', null, h('span', { class: 'mono', text: key }), note ? h('span', { class: 'muted', text: ' ' + note }) : null));
    el.append(box);
  }
  el.append(h('p', { class: 'plot-key' }, h('span', { class: 'k-exp' }), ' golden  ', h('span', { class: 'k-act' }), ' now  ',
    failing.size ? h('span', { class: 'k-fail' }) : null, failing.size ? ' failing frame  ' : null,
    removed.size ? h('span', { class: 'k-rem' }) : null, removed.size ? ' removed golden frame' : null));
  return { el, cursor: (t) => MotionPlot.cursor(el, t, tmax) };
}

// ---------- one frame ----------
function frameView(st, fr) {
  const v = h('div', { class: 'fv s-' + fr.status });
  v.append(h('div', { class: 'fv-h' }, pill(fr.status),
    h('span', { class: 'fv-title mono', text: st.s.name + ' frame ' + fr.index }),
    fr.message ? h('span', { class: 'fv-msg', text: fr.message }) : null));
  const dl = h('dl', { class: 'facts' });
  const fact = (k, val) => dl.append(h('dt', { text: k }), h('dd', null, val));
  fact('Golden', h('span', { class: 'mono', text: fr.golden }));
  if (fr.pairedWith !== undefined && fr.pairedWith !== null) {
    fact('Paired', 'compared with golden frame ' + fr.pairedWith + ', at the same point of the motion');
  } else if (fr.pairing === 'new') {
    fact('Paired', 'new: the golden motion has no frame at this point');
  } else if (fr.pairing === 'removed') {
    fact('Paired', 'removed: this golden frame has no counterpart in the new motion');
  }
  fact('Time', num(fr.time, 3) + ' s after the step · progress ' + num(fr.progress * 100, 0) + '%');
  const m = fr.metrics;
  if (m) {
    fact('Pixels', int(m.differentPixels) + ' differ (' + num(m.ratio * 100, 3) + '%) of ' + m.width + '×' + m.height +
      ' · max channel difference ' + m.maxChannelDifference);
    if (m.regions && m.regions.length) {
      const shown = m.regions.slice(0, 8).map((r) => '[' + r.join(', ') + ']').join(' ');
      fact('Regions', h('span', { class: 'mono', text: shown + (m.regions.length > 8 ? ' … ' + (m.regions.length - 8) + ' more' : '') }));
    }
  }
  v.append(dl);
  if (fr.layoutChanges && fr.layoutChanges.length) {
    v.append(h('div', { class: 'changes' }, h('span', { class: 'lbl', text: 'Layout changes' }),
      ...fr.layoutChanges.map((c) => h('span', { class: 'chip' + (/\s\+/.test(c) ? ' up' : /\s-/.test(c) ? ' down' : ''), text: c }))));
  }
  if (fr.lints && fr.lints.length) {
    v.append(h('div', { class: 'changes lints' }, h('span', { class: 'lbl', text: 'Lints' }),
      ...fr.lints.map((l) => h('span', { class: 'chip lint', title: l.rule + ' at [' + l.rect.join(', ') + '] pt', text: l.rule + ': ' + l.detail }))));
  }
  v.append(images(st, fr));
  return v;
}

function img(path, alt, cls) {
  // loading before src, so the browser defers it.
  const i = h('img', { loading: 'lazy', decoding: 'async', alt, class: cls, draggable: 'false', src: url(path) });
  i.addEventListener('load', () => {
    i.setAttribute('data-loaded', 'true');
    if (i.naturalWidth && i.clientWidth > i.naturalWidth * 1.25) i.classList.add('pix');
  });
  i.addEventListener('error', () => { i.setAttribute('data-loaded', 'error'); });
  return i;
}
function preload(fr) {
  for (const p of [fr.expected, fr.actual, fr.diff]) if (p) { const im = new Image(); im.src = url(p); }
}

function figure(title, path, empty, regions, lints) {
  const box = h('div', { class: 'imgbox' });
  if (path) {
    const im = img(path, title + ': ' + path, '');
    im.addEventListener('error', () => box.replaceChildren(h('div', { class: 'placeholder', text: 'Image not found: ' + path })));
    box.append(h('a', { href: url(path), target: '_blank', rel: 'noopener', title: 'Open ' + path + ' at full size' }, im));
    if (regions) for (const r of regions.list) {
      box.append(h('span', { class: 'region', style:
        'left:' + (r[0] / regions.w * 100) + '%;top:' + (r[1] / regions.h * 100) + '%;width:' +
        (r[2] / regions.w * 100) + '%;height:' + (r[3] / regions.h * 100) + '%' }));
    }
    // What the lints found, in canvas points: drawn over the frame where it is.
    if (lints) for (const l of lints.list) {
      box.append(h('span', { class: 'lintbox', title: l.rule + ': ' + l.detail, style:
        'left:' + (l.rect[0] / lints.w * 100) + '%;top:' + (l.rect[1] / lints.h * 100) + '%;width:' +
        (l.rect[2] / lints.w * 100) + '%;height:' + (l.rect[3] / lints.h * 100) + '%' }));
    }
  } else {
    box.append(h('div', { class: 'placeholder', text: empty }));
  }
  return h('figure', { class: 'fig' }, box,
    h('figcaption', null, h('span', { class: 'cap', text: title }), path ? h('span', { class: 'path mono', title: path, text: path }) : null));
}

function images(st, fr, canvas) {
  if (!fr.expected && !fr.actual && !fr.diff) {
    return h('p', { class: 'muted noimg', text: fr.status === 'passed'
      ? 'Frame passed; no images are stored for passing frames of passing states.'
      : 'No images are stored for this frame.' });
  }
  const m = fr.metrics;
  const regions = st.regions && m && m.regions && m.regions.length && m.width && m.height
    ? { list: m.regions, w: m.width, h: m.height } : null;
  const same = fr.expected && fr.expected === fr.actual;
  const diff = figure('Diff', fr.diff, same ? 'Identical to the golden: no diff.' : 'No diff image.');
  const mode = st.mode || 'side';
  if (mode === 'side' || !fr.expected || !fr.actual) {
    return h('div', { class: 'imgs side' },
      figure('Expected', fr.expected, fr.status === 'missing' ? 'No golden image: this frame has no golden yet.' : 'No expected image.'),
      figure(same ? 'Actual (identical)' : 'Actual', fr.actual, 'No actual image.', regions,
        fr.lints && fr.lints.length && st.canvas ? { list: fr.lints, w: st.canvas[0], h: st.canvas[1] } : null),
      diff);
  }

  const base = img(fr.expected, 'Expected: ' + fr.expected, 'base');
  const top = img(fr.actual, 'Actual: ' + fr.actual, 'top');
  // Images of different sizes are drawn at the same scale, anchored top-left.
  let loaded = 0;
  const fit = () => {
    if (++loaded < 2) return;
    const w = Math.max(base.naturalWidth, top.naturalWidth);
    if (w && base.naturalWidth !== top.naturalWidth) {
      base.style.width = (base.naturalWidth / w * 100) + '%';
      top.style.width = (top.naturalWidth / w * 100) + '%';
    }
  };
  base.addEventListener('load', fit);
  top.addEventListener('load', fit);
  const stack = h('div', { class: 'stack mode-' + mode, style: '--pos:' + st.pos + '%;--op:' + (st.op / 100) }, base, top);
  const controls = h('div', { class: 'ctl' });
  if (mode === 'slider') {
    stack.append(h('span', { class: 'divider' }), h('span', { class: 'tag left', text: 'actual' }), h('span', { class: 'tag right', text: 'expected' }));
    const r = h('input', { type: 'range', min: 0, max: 100, step: 1, value: Math.round(st.pos), 'aria-label': 'Divider position (percent of width showing actual)' });
    const set = (p) => { st.pos = clamp(p, 0, 100); stack.style.setProperty('--pos', st.pos + '%'); r.value = String(Math.round(st.pos)); };
    r.addEventListener('input', () => set(+r.value));
    const move = (e) => { const b = stack.getBoundingClientRect(); if (b.width) set((e.clientX - b.left) / b.width * 100); };
    stack.addEventListener('pointerdown', (e) => { stack.setPointerCapture(e.pointerId); move(e); e.preventDefault(); });
    stack.addEventListener('pointermove', (e) => { if (stack.hasPointerCapture(e.pointerId)) move(e); });
    controls.append(h('span', { text: 'actual' }), r, h('span', { text: 'expected' }));
  } else if (mode === 'blend') {
    const r = h('input', { type: 'range', min: 0, max: 100, step: 1, value: st.op, 'aria-label': 'Opacity of the actual image over the expected one' });
    r.addEventListener('input', () => { st.op = +r.value; stack.style.setProperty('--op', String(st.op / 100)); });
    controls.append(h('span', { text: 'expected' }), r, h('span', { text: 'actual' }));
  } else {
    stack.append(h('span', { class: 'tag left t-actual', text: 'actual' }), h('span', { class: 'tag left t-expected', text: 'expected' }));
    const b = h('button', { type: 'button', class: 'btn', 'aria-pressed': 'false' }, 'Pause');
    b.addEventListener('click', () => {
      const paused = stack.classList.toggle('paused');
      b.setAttribute('aria-pressed', String(paused));
      b.textContent = paused ? 'Resume' : 'Pause';
    });
    controls.append(b, h('span', { class: 'muted', text: 'alternates actual and expected every 500 ms' }));
  }
  return h('div', { class: 'imgs stacked' },
    h('figure', { class: 'fig' }, stack,
      h('figcaption', null, h('span', { class: 'cap', text: mode === 'slider' ? 'Slider' : mode === 'blend' ? 'Blend' : 'Blink' }),
        h('span', { class: 'path mono', title: fr.actual, text: fr.actual })),
      controls),
    diff);
}

// ---------- start ----------
renderList();
let opened = 0;
for (const fx of order) {
  if (opened >= AUTO_OPEN || fx.rank !== 0) break;
  if (!fx.states.some((st) => st.failing)) continue; // fixture errors already show their message
  setOpen(fx, true);
  opened++;
}
document.body.setAttribute('data-parse-ms', PARSE_MS.toFixed(1));
document.body.setAttribute('data-render-ms', (performance.now() - T0).toFixed(1));
document.body.setAttribute('data-ready', 'true');
})();
