// The report page (docs/review.md, "The page"). What tests, Selenium drivers and scripts may rely on:
//   section#causes article.cause[data-cause="<id>"]       one per results.causes entry
//   button[data-filter-cause="<id>"]                       show only the frames of that cause
//   button#clear-cause                                     back to every frame (while a cause is shown)
//   .fv[data-golden="<golden key>"]                        the frame shown in a state (one per state)
//     [data-decision="approved"|"rejected"]                once decided; .focused: the frame j/k went to
//     .refusal                                             why the review server refused it
//   button[data-approve-frame="<golden key>"], button[data-reject-frame="<golden key>"]
//   button[data-approve-state="<fixture id>/<state name>"], button[data-reject-state=…]
//   button[data-approve-fixture="<fixture id>"], button[data-reject-fixture=…]
//   button[data-approve-cause="<id>"] ("Approve all of cause <id>"), button[data-reject-cause="<id>"]
//   #review-counter ("N approved, M rejected"); static only: button#download-approvals,
//     button#clear-decisions, code#accept-command
//   keys: j / k next / previous failing frame (in the fixtures listed), a approve it, r reject it
//   body[data-ready="true"], [data-interactive-ms] (ms since navigation start), [data-focused]
//   (the golden key j/k went to), [data-review="served"|"static"]
// A state, fixture or cause expands to its frames that did not pass and have an actual image to
// approve: status failed, missing, unreadable (approving writes a readable golden over the broken
// one) or similar, or paired with another golden frame (pairedWith); never a `removed` pairing
// entry (a golden frame the new motion has no counterpart for: there is nothing to write) nor an
// error frame (it was never rendered or written).
// Served (`layoutsnap review`: <meta name="layoutsnap-review" content="TOKEN">): decisions go to
// the server (POST /api/decisions) and `event: results` redraws from results.json. Static (from
// disk): decisions stay in this browser (localStorage, per run) and become approvals.json.
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

// Which frame statuses and lint severities fail, as layoutsnap decided (results.json's outcomeOf);
// the table stands in for results written before it.
const OUTCOME_OF_BEFORE = { status: { failed: 'failed', missing: 'failed', unreadable: 'error', error: 'error' },
  severity: { failure: 'failed', error: 'error' } };
let outcomeOf = OUTCOME_OF_BEFORE;
const fails = (status) => (outcomeOf.status[status] || 'passed') !== 'passed';
const failingCount = (counts) => Object.keys(counts).reduce((n, k) => n + (fails(k) ? counts[k] : 0), 0);
const SEVERITY = { passed: 0, similar: 1, failed: 3, missing: 3, unreadable: 4, error: 4 };
const ORDER = ['failed', 'missing', 'unreadable', 'error', 'similar', 'passed'];
const PAGE = 200;        // fixture headers rendered per "show more"
const STRIP_MAX = 240;   // strip cells per state; longer animations are bucketed
const AUTO_OPEN = 3;     // failing fixtures opened on load
const CAUSES_SHOWN = 12; // causes listed before "show more"
const MODES = [['side', 'Side by side'], ['slider', 'Slider'], ['blend', 'Blend'], ['blink', 'Blink']];
const CHANGE_KINDS = ['moved', 'resized', 'appeared', 'disappeared', 'restyled'];
let preferredMode = 'side';
const tokenMeta = document.querySelector('meta[name="layoutsnap-review"]');
const TOKEN = tokenMeta ? tokenMeta.getAttribute('content') : null;
const SERVED = !!TOKEN;

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
const signed = Words.signed;
function duration(s) {
  s = Number(s);
  if (!Number.isFinite(s)) return '–';
  if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + ' s';
  const m = Math.floor(s / 60);
  return m + ' min ' + String(Math.round(s - m * 60)).padStart(2, '0') + ' s';
}
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
// Paths are relative to the report folder; encode each segment so ids with
// spaces, '#' or '?' still resolve (and nothing can become a scheme).
const url = (p) => String(p).split('/').map(encodeURIComponent).join('/');
function pill(kind, text) { return h('span', { class: 'pill ' + kind, text: text || kind }); }
function counts(c) {
  const wrap = h('span', { class: 'counts' });
  // Statuses read as adjectives (`2 failed`), but `error` is a noun: `2 errors`.
  for (const k of ORDER) if (c[k]) wrap.append(h('span', { class: 'c-' + k, text: k === 'error' ? Words.count(c[k], k) : int(c[k]) + ' ' + k }));
  return wrap;
}
// `message:m4 moved (0.00, -22.00), pixels unchanged`, `body resized (+0.00, +18.00)`: as verify words it.
function describeChange(e) {
  if (e.change === 'moved') return e.id + ' moved (' + signed(e.dx) + ', ' + signed(e.dy) + ')' + (e.pixelsUnchanged ? ', pixels unchanged' : '');
  if (e.change === 'resized') return e.id + ' resized (' + signed(e.dw) + ', ' + signed(e.dh) + ')' +
    (e.dx || e.dy ? ' and moved (' + signed(e.dx) + ', ' + signed(e.dy) + ')' : '');
  return e.id + ' ' + e.change;
}
const quiet = (e) => e.change === 'moved' && e.pixelsUnchanged === true;
// A frame's key among the run's frames (a removed golden frame may share its golden with a new one).
const keyOf = (fr) => fr.pairing === 'removed' ? fr.golden + '#removed' : fr.golden;
// Whether approving the frame can write its golden (see the top of this file).
function approvable(fr) {
  if (fr.pairing === 'removed' || fr.status === 'error') return false;
  return ['failed', 'missing', 'unreadable', 'similar'].includes(fr.status) || (fr.pairedWith !== undefined && fr.pairedWith !== null);
}

// ---------- model ----------
// Rebuilt from scratch by load() (and again when the review server says results.json changed).
let fixtures = [], order = [], failingFixtures = 0, causes = [], causeById = new Map();
let refs = new Map();        // frame key -> { fx, st, pos, fr, key }, frames that did not pass only
let causeRefs = new Map();   // cause id -> refs of its frames, in page order
let reviewKeys = [];         // keys of every approvable frame, in page order
let runId = '';

function buildModel(d) {
  data = d;
  outcomeOf = d.outcomeOf || OUTCOME_OF_BEFORE;
  refs = new Map(); causeRefs = new Map(); reviewKeys = [];
  causes = Array.isArray(d.causes) ? d.causes : [];
  causeById = new Map(causes.map((c) => [c.id, c]));
  let hash = 0x811c9dc5;
  const mix = (s) => { for (let i = 0; i < s.length; i++) { hash ^= s.charCodeAt(i); hash = Math.imul(hash, 0x01000193) >>> 0; } };
  mix(String(d.version) + '|' + d.durationSeconds + '|' + (d.fixturesRoot || '') + '|' + (d.goldens || ''));
  fixtures = (d.fixtures || []).map((f, i) => {
    const total = { passed: 0, similar: 0, failed: 0, missing: 0, unreadable: 0, error: 0 };
    const fx = { f, i, total, states: null, failing: 0, kind: 'passed', rank: 2, open: false, section: null, body: null, toggle: null,
      nav: [], keys: [], causes: new Set(), groupEls: null };
    fx.states = (f.states || []).map((s) => {
      const c = { passed: 0, similar: 0, failed: 0, missing: 0, unreadable: 0, error: 0 };
      const st = { s, c, failing: 0, lints: 0, canvas: f.canvas, sel: 0, mode: null, pos: 50, op: 50, regions: false,
        keys: [], causes: new Set(), show: null, fx };
      s.frames.forEach((fr, pos) => {
        c[fr.status] = (c[fr.status] || 0) + 1;
        if (fr.status === 'passed' && (fr.pairedWith === undefined || fr.pairedWith === null)) return;
        const ref = { fx, st, pos, fr, key: keyOf(fr) };
        refs.set(ref.key, ref);
        if (fails(fr.status)) fx.nav.push(ref);
        if (approvable(fr)) { st.keys.push(ref.key); fx.keys.push(ref.key); reviewKeys.push(ref.key); mix(ref.key + (fr.goldenHash || '')); }
        if (fr.cause !== undefined && fr.cause !== null) {
          st.causes.add(fr.cause); fx.causes.add(fr.cause);
          let list = causeRefs.get(fr.cause);
          if (!list) causeRefs.set(fr.cause, list = []);
          list.push(ref);
        }
      });
      for (const k in c) total[k] = (total[k] || 0) + c[k];
      st.lints = s.frames.filter((fr) => fr.lints && fr.lints.length).length;
      // Lints fail a state only under --lint error (their severity says so).
      const lintFailing = s.frames.filter((fr) => (fr.lints || []).some((l) => (outcomeOf.severity[l.severity] || 'passed') !== 'passed')).length;
      st.failing = failingCount(c) + lintFailing;
      st.sel = Math.max(0, firstOfInterest(st, null));
      return st;
    });
    fx.failing = failingCount(total) + fx.states.reduce((n, st) => n + (st.failing ? 1 : 0), 0);
    fx.kind = f.error ? 'error' : fx.failing ? 'failed' : total.similar ? 'similar' : 'passed';
    fx.rank = fx.kind === 'error' || fx.kind === 'failed' ? 0 : fx.kind === 'similar' ? 1 : 2;
    return fx;
  });
  order = fixtures.slice().sort((a, b) => a.rank - b.rank); // stable: input order within a rank
  failingFixtures = order.filter((fx) => fx.rank === 0).length;
  // Page order for cause frames (fixtures failing first), as j/k walk them.
  const rank = new Map(order.map((fx, k) => [fx, k]));
  for (const list of causeRefs.values()) list.sort((a, b) => rank.get(a.fx) - rank.get(b.fx));
  runId = (hash >>> 0).toString(16);
}

// The frame a state opens on: the first of the cause shown, else the first failing, similar or linted one.
function firstOfInterest(st, cause) {
  const frames = st.s.frames;
  let sel = -1;
  if (cause !== null && cause !== undefined) sel = frames.findIndex((fr) => fr.cause === cause);
  if (sel < 0) sel = frames.findIndex((fr) => fails(fr.status));
  if (sel < 0) sel = frames.findIndex((fr) => fr.status === 'similar');
  if (sel < 0) sel = frames.findIndex((fr) => fr.lints && fr.lints.length);
  return sel;
}

// ---------- decisions ----------
const decisions = new Map();   // frame key -> 'approved' | 'rejected'
const refusals = new Map();    // frame key -> the server's reason
const pending = new Set();     // keys sent to the server, not answered yet
let focusKey = null;
let reviewNote = '';
const storageKey = () => 'layoutsnap-review:' + runId;

function loadStored() {
  if (SERVED) return;
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey()) || 'null');
    if (!saved) return;
    for (const k of saved.approved || []) if (refs.has(k) && approvable(refs.get(k).fr)) decisions.set(k, 'approved');
    for (const k of saved.rejected || []) if (refs.has(k) && approvable(refs.get(k).fr)) decisions.set(k, 'rejected');
  } catch (e) { /* storage unavailable or unreadable: decisions live in memory only */ }
}
function store() {
  if (SERVED) return;
  try {
    const out = { approved: [], rejected: [] };
    for (const [k, v] of decisions) out[v].push(k);
    if (out.approved.length || out.rejected.length) localStorage.setItem(storageKey(), JSON.stringify(out));
    else localStorage.removeItem(storageKey());
  } catch (e) { /* storage full or unavailable */ }
}

// Decides `keys` ('approve' | 'reject'): in memory (static) or by the review server (served).
function decide(keys, decision) {
  keys = keys.filter((k) => refs.has(k) && approvable(refs.get(k).fr));
  if (!keys.length) { note('Nothing to ' + decision + ' here: no frame of it can be approved.'); return Promise.resolve(); }
  if (!SERVED) {
    const value = decision === 'approve' ? 'approved' : 'rejected';
    for (const k of keys) decisions.set(k, value);
    store();
    refresh(keys);
    note(Words.count(keys.length, 'frame') + ' ' + value + '.');
    return Promise.resolve();
  }
  for (const k of keys) { pending.add(k); refusals.delete(k); }
  refresh(keys);
  // The server takes at most 1 MiB a request: send long lists in parts.
  const parts = [];
  for (let i = 0; i < keys.length; i += 4000) parts.push(keys.slice(i, i + 4000));
  let chain = Promise.resolve();
  for (const part of parts) {
    chain = chain.then(() => api('/api/decisions', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ decision, frames: part }) }))
      .then((res) => {
        for (const k of res.approved || []) { decisions.set(k, 'approved'); refusals.delete(k); }
        for (const k of res.rejected || []) { decisions.set(k, 'rejected'); refusals.delete(k); }
        for (const r of res.refused || []) refusals.set(r.golden, r.reason || 'refused');
        const refused = (res.refused || []).length;
        note(Words.count((res.approved || []).length, 'frame') + ' approved, ' + int((res.rejected || []).length) + ' rejected' +
          (refused ? ', ' + int(refused) + ' refused (the reasons are beside the frames)' : '') + '.');
      });
  }
  return chain.catch((e) => note('The review server did not take the decision: ' + e.message))
    .then(() => { for (const k of keys) pending.delete(k); refresh(keys); });
}

function decisionCounts(keys) {
  let a = 0, r = 0;
  for (const k of keys) { const d = decisions.get(k); if (d === 'approved') a++; else if (d === 'rejected') r++; }
  return { a, r };
}

// Updates what is on screen for `keys` (all when omitted): frames, group buttons, counters.
function refresh(keys) {
  const set = keys ? new Set(keys) : null;
  for (const el of document.querySelectorAll('.fv[data-golden]')) {
    const k = el.getAttribute('data-key');
    if (!set || set.has(k)) paintFrame(el, k);
  }
  for (const el of document.querySelectorAll('[data-group-keys]')) paintGroup(el);
  const all = decisionCounts(reviewKeys);
  counter.textContent = int(all.a) + ' approved, ' + int(all.r) + ' rejected' +
    (reviewKeys.length ? ' · ' + int(reviewKeys.length - all.a - all.r) + ' of ' + int(reviewKeys.length) + ' undecided' : '');
  if (downloadBtn) downloadBtn.disabled = !(all.a || all.r);
  if (clearBtn) clearBtn.disabled = !(all.a || all.r);
}
function paintFrame(el, k) {
  const d = decisions.get(k);
  if (d) el.setAttribute('data-decision', d); else el.removeAttribute('data-decision');
  el.classList.toggle('pending', pending.has(k));
  const badge = el.querySelector('.decision');
  if (badge) badge.textContent = pending.has(k) ? 'sending…' : d || '';
  const why = el.querySelector('.refusal');
  if (why) { why.textContent = refusals.has(k) ? 'Refused: ' + refusals.get(k) : ''; why.hidden = !refusals.has(k); }
}
// A group's decided count (its keys are looked up on the element's owner).
const groupKeys = new WeakMap();
function paintGroup(el) {
  const keys = groupKeys.get(el) || [];
  const { a, r } = decisionCounts(keys);
  el.textContent = a + r === 0 ? Words.count(keys.length, 'frame') + ' to review' : int(a) + ' approved, ' + int(r) + ' rejected of ' + int(keys.length);
  el.classList.toggle('done', a + r === keys.length && keys.length > 0);
}
function groupControls(kind, id, keys, label) {
  if (!keys.length) return null;
  const status = h('span', { class: 'group-status', 'data-group-keys': kind });
  groupKeys.set(status, keys);
  paintGroup(status);
  const stop = (e) => e.stopPropagation();
  return h('span', { class: 'review-ctl', onclick: stop },
    h('button', { type: 'button', class: 'btn approve', ['data-approve-' + kind]: id, title: 'Approve ' + Words.count(keys.length, 'frame') + ': ' +
        Words.word(keys.length, 'its actual image becomes the golden', 'their actual images become the goldens'),
      onclick: () => decide(keys, 'approve') }, 'Approve ' + label),
    h('button', { type: 'button', class: 'btn reject', ['data-reject-' + kind]: id, onclick: () => decide(keys, 'reject') }, 'Reject ' + label),
    status);
}

// ---------- served mode: the review server's API ----------
// Same-origin requests only (the page's own server), with the token the server put in the page.
function api(path, options) {
  const o = Object.assign({ credentials: 'same-origin', cache: 'no-store' }, options || {});
  o.headers = Object.assign({ 'X-LayoutSnap-Token': TOKEN }, (options && options.headers) || {});
  return fetch(path, o).then((res) => {
    if (!res.ok) return res.text().then((t) => { throw new Error(path + ': ' + res.status + (t ? ' ' + t.slice(0, 200) : '')); });
    return res.json();
  });
}
function syncReview() {
  return api('/api/review').then((r) => {
    decisions.clear();
    for (const k of r.rejected || []) decisions.set(k, 'rejected');
    for (const k of r.approved || []) decisions.set(k, 'approved');
    if (r.watch) reviewNote = 'Watching: the page redraws when verify runs again.';
    refresh();
  }).catch((e) => note('Could not read the decisions from the review server: ' + e.message));
}
function listen() {
  if (typeof EventSource !== 'function') return;
  const events = new EventSource('/api/events');
  events.addEventListener('results', () => {
    api('results.json').then((next) => { reload(next); return syncReview(); })
      .then(() => note('Results updated by verify.'))
      .catch((e) => note('Could not read the new results: ' + e.message));
  });
}

// ---------- header, causes & toolbar ----------
function renderHeader() {
  const sum = data.summary || {};
  // The badge is the run's outcome as layoutsnap decided it (the exit code's), never recounted here.
  const bad = sum.outcome ? sum.outcome !== 'passed' : (sum.failed || 0) + (sum.missing || 0) + (sum.errors || 0) > 0;
  const findings = data.findings || [];
  return h('header', { class: 'masthead' },
    h('div', { class: 'title-row' },
      h('h1', null, h('span', { class: 'brand', text: data.tool || 'layoutsnap' }), ' ' + (data.command || '')),
      h('span', { class: 'verdict ' + (bad ? 'fail' : 'ok'), text: sum.outcome || (bad ? 'failed' : 'passed') }),
      h('span', { class: 'meta', text: [
        'version ' + data.version,
        duration(data.durationSeconds),
        Words.count(sum.frames || 0, 'frame') + (sum.cached ? ' (' + int(sum.cached) + ' from cache)' : ''),
        Words.count(fixtures.length, 'fixture')].join(' · ') })),
    (() => {
      const ul = h('ul', { class: 'stats', 'aria-label': 'Summary' });
      // Counted nouns take the count's number (`1 error`); the verdicts are adjectives.
      const nouns = { errors: 'error', orphans: 'orphan', lints: 'lint' };
      for (const k of ['failed', 'missing', 'errors', 'orphans', 'lints', 'similar', 'passed']) {
        if ((k === 'orphans' || k === 'lints') && !sum[k]) continue;
        const n = sum[k] || 0;
        ul.append(h('li', { class: 'stat ' + k + (n ? ' nz' : '') }, h('b', { text: int(n) }), nouns[k] ? Words.word(n, nouns[k]) : k));
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
}

let causesShown = CAUSES_SHOWN;
function renderCauses() {
  if (!causes.length) return h('section', { id: 'causes', hidden: true });
  const sec = h('section', { id: 'causes', 'aria-label': 'Causes' });
  sec.append(h('div', { class: 'causes-h' },
    h('h2', { text: causes.length === 1 ? 'One cause explains the failing frames' : Words.count(causes.length, 'cause') + ' explain the failing frames' }),
    h('span', { class: 'muted', text: 'Failing frames grouped by what explains them. A cause never changes a verdict.' })));
  const grid = h('div', { class: 'causes' });
  for (const c of causes.slice(0, causesShown)) grid.append(causeCard(c));
  sec.append(grid);
  if (causes.length > causesShown) {
    sec.append(h('button', { type: 'button', class: 'btn more', onclick: () => { causesShown += CAUSES_SHOWN * 4; replaceCauses(); } },
      'Show ' + Words.count(Math.min(CAUSES_SHOWN * 4, causes.length - causesShown), 'more cause')));
  }
  sec.append(reviewHelp());
  return sec;
}
function causeCard(c) {
  const list = causeRefs.get(c.id) || [];
  const keys = list.filter((r) => approvable(r.fr)).map((r) => r.key);
  const card = h('article', { class: 'cause k-' + c.kind + (causeFilter === c.id ? ' current' : ''), 'data-cause': c.id },
    h('div', { class: 'cause-h' },
      h('h3', null, 'Cause ' + c.id),
      pill('kind', c.kind),
      h('span', { class: 'cause-counts muted', text: [Words.count(c.frames, 'frame'), Words.count(c.states, 'state'), Words.count(c.fixtures, 'fixture')].join(' · ') })),
    h('p', { class: 'cause-summary mono', text: c.summary }));
  // Up to three representative frames, from different fixtures first.
  const picks = [], seen = new Set();
  for (const pass of [0, 1]) {
    for (const r of list) {
      if (picks.length >= 3) break;
      if (picks.includes(r) || !(r.fr.diff || r.fr.actual)) continue;
      if (pass === 0 && seen.has(r.fx)) continue;
      seen.add(r.fx); picks.push(r);
    }
  }
  if (picks.length) {
    card.append(h('div', { class: 'thumbs' }, ...picks.map((r) => h('button', { type: 'button', class: 'thumb', title: 'Show ' + r.fr.golden,
      'data-thumb': r.key, onclick: () => focusFrame(r) },
      thumbImg(r.fr.diff, 'diff'), thumbImg(r.fr.actual, 'actual'),
      h('span', { class: 'thumb-cap mono', text: r.fx.f.id + ' · ' + r.st.s.name + ' #' + r.fr.index })))));
  }
  card.append(h('div', { class: 'cause-ctl' },
    h('button', { type: 'button', class: 'btn', 'data-filter-cause': c.id, 'aria-pressed': String(causeFilter === c.id),
      onclick: () => setCause(causeFilter === c.id ? null : c.id) }, causeFilter === c.id ? 'Showing its frames' : 'Show its frames'),
    groupControls('cause', c.id, keys, 'all of cause ' + c.id)));
  return card;
}
function thumbImg(path, what) {
  if (!path) return h('span', { class: 'thumb-none', text: 'no ' + what });
  const i = h('img', { loading: 'lazy', decoding: 'async', alt: what, draggable: 'false', src: url(path) });
  i.addEventListener('load', () => i.setAttribute('data-loaded', 'true'));
  i.addEventListener('error', () => i.replaceWith(h('span', { class: 'thumb-none', text: 'no ' + what })));
  return i;
}
function reportFolder() {
  if (location.protocol !== 'file:') return '<report>';
  const dir = decodeURIComponent(location.pathname.replace(/\/[^/]*$/, '')) || '/';
  return /^[\w@%+=:,./-]+$/.test(dir) ? dir : "'" + dir.replace(/'/g, "'\\''") + "'";
}
function reviewHelp() {
  if (SERVED) {
    return h('p', { class: 'review-help muted' }, 'Decisions are written by ', h('code', { text: 'layoutsnap review' }),
      ' as you make them: an approval writes the golden. Keys: ', ...keysHelp());
  }
  return h('p', { class: 'review-help muted' }, 'Decisions are kept in this browser for this run. Download approvals.json, then apply it: ',
    h('code', { id: 'accept-command', class: 'mono', text: 'layoutsnap accept --approvals approvals.json --from ' + reportFolder() + '/results.json' }),
    '. Keys: ', ...keysHelp());
}
function keysHelp() {
  const k = (t) => h('span', { class: 'kbd', text: t });
  return [k('j'), ' ', k('k'), ' next / previous failing frame, ', k('a'), ' approve, ', k('r'), ' reject.'];
}
function replaceCauses() {
  const next = renderCauses();
  causesEl.replaceWith(next);
  causesEl = next;
  refresh();
}

const failOnly = h('input', { type: 'checkbox', id: 'failures-only' });
const search = h('input', { type: 'search', id: 'fixture-filter', placeholder: 'fixture id contains…', autocomplete: 'off' });
const zoom = h('input', { type: 'checkbox', id: 'zoom-1' });
const countEl = h('span', { class: 'count', 'aria-live': 'polite' });
const causeBar = h('span', { class: 'cause-filter', hidden: true });
const counter = h('span', { id: 'review-counter', 'aria-live': 'polite' });
const noteEl = h('span', { class: 'review-note muted', 'aria-live': 'polite' });
const downloadBtn = SERVED ? null : h('button', { type: 'button', class: 'btn', id: 'download-approvals', onclick: download }, 'Download approvals.json');
const clearBtn = SERVED ? null : h('button', { type: 'button', class: 'btn', id: 'clear-decisions', onclick: () => {
  const keys = [...decisions.keys()];
  decisions.clear(); store(); refresh(keys); note('Decisions cleared.');
} }, 'Clear decisions');
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
  expandBtn, collapseBtn, causeBar, countEl,
  h('div', { class: 'review-bar', role: 'group', 'aria-label': 'Review' }, counter, downloadBtn, clearBtn, noteEl));
const list = h('main', { id: 'fixtures', 'aria-label': 'Fixtures' });
const footer = h('footer', { text: 'Generated by ' + (data.tool || 'layoutsnap') + ' ' + data.version +
  '. Self-contained: images are loaded from this folder; the results are embedded in this file (script#layoutsnap-results).' });
function note(text) { noteEl.textContent = text || reviewNote; }

function download() {
  const approvals = [], rejected = [];
  for (const k of reviewKeys) {
    const d = decisions.get(k);
    if (d === 'approved') {
      const fr = refs.get(k).fr;
      const entry = { golden: fr.golden };
      if (fr.goldenHash) entry.goldenHash = fr.goldenHash; // absent: the golden must still be absent
      approvals.push(entry);
    } else if (d === 'rejected') rejected.push(refs.get(k).fr.golden);
  }
  const text = JSON.stringify({ tool: 'layoutsnap', kind: 'approvals', version: 1, approvals, rejected }, null, 2) + '\n';
  const href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href, download: 'approvals.json', hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60000);
  note('approvals.json: ' + Words.count(approvals.length, 'approval') + ', ' + int(rejected.length) + ' rejected. Apply it with the command under the causes.');
}

// ---------- fixture list ----------
let limit = PAGE;
let listed = [];
let causeFilter = null;
let headerEl, causesEl;
function visibleFixtures() {
  const q = search.value.trim().toLowerCase();
  return order.filter((fx) => (!failOnly.checked || fx.rank === 0) && (!q || fx.f.id.toLowerCase().includes(q)) &&
    (causeFilter === null || fx.causes.has(causeFilter)));
}
function renderList() {
  document.body.classList.toggle('failures-only', failOnly.checked);
  document.body.classList.toggle('zoom-1', zoom.checked);
  const q = search.value.trim();
  const visible = visibleFixtures();
  listed = visible.slice(0, limit);
  const frag = document.createDocumentFragment();
  for (const fx of listed) frag.append(section(fx));
  if (visible.length > listed.length) {
    const rest = visible.length - listed.length;
    frag.append(h('button', { type: 'button', class: 'btn more', onclick: () => { limit += PAGE; renderList(); } },
      'Show ' + int(Math.min(PAGE, rest)) + ' more (' + int(rest) + ' not shown)'));
  }
  if (!visible.length) {
    frag.append(h('p', { class: 'empty', text: failOnly.checked && !q && causeFilter === null
      ? 'No failing fixtures. Uncheck “Failures only” to see all ' + Words.count(fixtures.length, 'fixture') + '.'
      : 'No fixtures match the filter.' }));
  }
  list.replaceChildren(frag);
  countEl.textContent = listed.length < visible.length
    ? 'Showing ' + int(listed.length) + ' of ' + Words.count(visible.length, 'matching fixture') + ' (' + int(fixtures.length) + ' in total)'
    : visible.length < fixtures.length
      ? 'Showing ' + int(visible.length) + ' of ' + Words.count(fixtures.length, 'fixture')
      : fixtures.length === 1 ? 'Showing 1 fixture' : 'Showing all ' + Words.count(fixtures.length, 'fixture');
}
failOnly.addEventListener('change', () => { limit = PAGE; renderList(); });
search.addEventListener('input', () => { limit = PAGE; renderList(); });
zoom.addEventListener('change', renderList);

// Shows only the frames of cause `id` (null: every frame again).
function setCause(id) {
  causeFilter = id === null || id === undefined ? null : id;
  limit = PAGE;
  const c = causeFilter === null ? null : causeById.get(causeFilter);
  causeBar.hidden = !c;
  causeBar.replaceChildren();
  if (c) {
    causeBar.append(h('span', null, h('b', { text: 'Cause ' + c.id }), ' only: ' + Words.count(c.frames, 'frame')),
      h('button', { type: 'button', class: 'btn', id: 'clear-cause', onclick: () => setCause(null) }, 'Show all frames'));
  }
  for (const fx of fixtures) {
    for (const st of fx.states) {
      const sel = firstOfInterest(st, causeFilter);
      if (sel >= 0) st.sel = sel;
    }
    if (fx.open) { setOpen(fx, false); }
  }
  renderList();
  let opened = 0;
  for (const fx of listed) {
    if (opened >= AUTO_OPEN || fx.rank !== 0) break;
    if (!fx.states.some((st) => st.failing)) continue;
    setOpen(fx, true);
    opened++;
  }
  replaceCauses();
  if (c) toolbar.scrollIntoView({ block: 'start' });
}

function section(fx) {
  if (fx.section) return fx.section;
  const id = 'fx-' + fx.i;
  fx.toggle = h('button', { type: 'button', class: 'fx-toggle', 'aria-expanded': 'false', 'aria-controls': id + '-body',
      onclick: () => setOpen(fx, !fx.open) },
    h('span', { class: 'chev', 'aria-hidden': 'true' }),
    pill(fx.kind),
    h('span', { class: 'fx-id mono', text: fx.f.id }),
    counts(fx.total),
    // Its frames came from the result cache: checked against the goldens' hashes, not rendered.
    fx.f.cached ? h('span', { class: 'cached', title: 'from the result cache: not rendered, checked against the goldens\' hashes', text: 'from cache' }) : null);
  fx.section = h('section', { class: 'fixture k-' + fx.kind, id, 'data-fixture': fx.f.id },
    h('h2', { class: 'fx-h' }, fx.toggle, groupControls('fixture', fx.f.id, fx.keys, 'fixture'),
      h('span', { class: 'fx-file mono', title: fx.f.file, text: fx.f.file })),
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
  if (passing) body.append(h('p', { class: 'hidden-note', text: Words.count(passing, 'passing state') + ' hidden by “Failures only”.' }));
  const other = causeFilter === null ? [] : fx.states.filter((st) => st.failing && !st.causes.has(causeFilter));
  if (other.length) body.append(h('p', { class: 'muted other-cause', text: Words.count(other.length, 'failing state') + ' without frames of cause ' + causeFilter + ' hidden.' }));
  for (const st of fx.states) if (!other.includes(st)) body.append(stateView(fx, st));
  return body;
}

// ---------- keyboard review: j / k / a / r ----------
function navList() {
  const out = [];
  for (const fx of visibleFixtures()) {
    for (const r of fx.nav) if (causeFilter === null || r.fr.cause === causeFilter) out.push(r);
  }
  return out;
}
function move(dir) {
  const all = navList();
  if (!all.length) { note('No failing frame to go to.'); return; }
  const at = focusKey === null ? -1 : all.findIndex((r) => r.key === focusKey);
  const next = at < 0 ? (dir > 0 ? 0 : all.length - 1) : clamp(at + dir, 0, all.length - 1);
  focusFrame(all[next]);
  note('Failing frame ' + int(next + 1) + ' of ' + int(all.length) + '.');
}
// Opens the frame's fixture and state, shows the frame, scrolls to it and marks it.
function focusFrame(ref) {
  if (causeFilter !== null && ref.fr.cause !== causeFilter) setCause(null);
  let at = visibleFixtures().indexOf(ref.fx);
  if (at < 0) { search.value = ''; failOnly.checked = ref.fx.rank === 0 && failOnly.checked; limit = PAGE; renderList(); at = visibleFixtures().indexOf(ref.fx); }
  if (at >= limit) { limit = Math.ceil((at + 1) / PAGE) * PAGE; renderList(); }
  setOpen(ref.fx, true);
  focusKey = ref.key;
  document.body.setAttribute('data-focused', ref.key);
  for (const el of document.querySelectorAll('.fv.focused')) el.classList.remove('focused');
  if (ref.st.show) ref.st.show(ref.pos);
  const fv = ref.st.view && ref.st.view.firstChild;
  if (fv) {
    fv.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -toolbar.offsetHeight - 8);
    fv.focus({ preventScroll: true });
  }
}
function decideFocused(decision) {
  const ref = focusKey === null ? null : refs.get(focusKey);
  if (!ref) { note('Press j to go to a failing frame first.'); return; }
  if (!approvable(ref.fr)) { note(ref.fr.golden + ' cannot be ' + (decision === 'approve' ? 'approved' : 'rejected') + ': there is no actual image to write.'); return; }
  decide([ref.key], decision);
}
document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable ||
      (t.tagName === 'INPUT' && !['checkbox', 'radio', 'range', 'button'].includes(t.type)))) return;
  if (e.key === 'j') move(1);
  else if (e.key === 'k') move(-1);
  else if (e.key === 'a') decideFocused('approve');
  else if (e.key === 'r') decideFocused('reject');
  else return;
  e.preventDefault();
});

// ---------- state: strip, scrubber, view modes ----------
function stateView(fx, st) {
  const frames = st.s.frames, n = frames.length;
  // A state failing by its lints alone (--lint error) is failed, even with similar frames.
  const kind = ORDER.find((k) => fails(k) && st.c[k]) || (st.failing ? 'failed' : st.c.similar ? 'similar' : 'passed');
  const wrap = h('div', { class: 'state' + (st.failing ? '' : ' ok') });
  const plain = kind === 'passed' && !frames.some((fr) => fr.expected || fr.actual || fr.diff);
  wrap.append(h('div', { class: 'st-h' }, pill(kind), st.lints ? pill('lint', Words.count(st.lints, 'lint frame')) : null, h('h3', { class: 'mono', text: st.s.name }),
    h('span', { class: 'muted', text: Words.count(n, 'frame') + (plain && n ? ' · all match their goldens' : '') }), counts(st.c),
    groupControls('state', fx.f.id + '/' + st.s.name, st.keys, 'state')));
  if (!n) { wrap.append(h('p', { class: 'muted', text: 'No frames.' })); return wrap; }
  if (plain) return wrap; // nothing to look at: no images are stored for passing states
  // What changed in motion terms (verify's MOTION line), before the pixels.
  if (st.s.motion && st.s.motion.summary) {
    wrap.append(h('div', { class: 'changes motion' }, h('span', { class: 'lbl', text: 'Motion' }),
      ...(st.s.motion.kinds || []).map((k) => h('span', { class: 'chip', text: k })),
      h('span', { class: 'mono', text: st.s.motion.summary })));
  }

  // One plot per track that moves, expected and actual over time, under the scrubber.
  const plots = st.s.motion ? motionPlots(st) : null;
  const view = h('div', { class: 'fv-wrap' });
  st.view = view;
  let range = null, label = null, cells = null, bucketOf = null;
  const inCause = (fr) => causeFilter === null || fr.cause === causeFilter;

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
    view.replaceChildren(frameView(fx, st, fr));
    if (plots) plots.cursor(fr.time);
    for (const p of [pos - 1, pos + 1]) if (p >= 0 && p < n) preload(frames[p]);
  }
  st.show = show;
  function jump(dir) {
    for (let k = 1; k <= n; k++) {
      const p = ((st.sel + dir * k) % n + n) % n;
      if (fails(frames[p].status) && inCause(frames[p])) { show(p); return; }
    }
  }

  if (n > 1) {
    // One cell per frame, or per bucket of frames (showing the worst status) for long animations.
    const C = Math.min(n, STRIP_MAX);
    cells = h('div', { class: 'strip', 'aria-hidden': 'true' });
    bucketOf = new Uint16Array(n);
    for (let b = 0; b < C; b++) {
      const lo = Math.floor(b * n / C), hi = Math.floor((b + 1) * n / C);
      let worst = frames[lo].status, target = lo, linted = false, other = causeFilter !== null;
      for (let p = lo; p < hi; p++) {
        bucketOf[p] = b;
        if (SEVERITY[frames[p].status] > SEVERITY[worst]) { worst = frames[p].status; target = p; }
        if (frames[p].lints && frames[p].lints.length) linted = true;
        if (causeFilter !== null && frames[p].cause === causeFilter) other = false;
      }
      const title = (hi - lo === 1 ? 'frame ' + frames[lo].index + ': ' + worst
        : 'frames ' + frames[lo].index + '–' + frames[hi - 1].index + ': ' + worst) + (linted ? ' · lint' : '');
      cells.append(h('span', { class: 'cell s-' + worst + (linted ? ' lint' : '') + (other && fails(worst) ? ' other' : ''), title, 'data-p': target }));
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
    if (frames.some((fr) => (fr.metrics && fr.metrics.regions && fr.metrics.regions.length) || (fr.attribution && (fr.attribution.elements || []).length))) {
      const cb = h('input', { type: 'checkbox', class: 'outline-toggle', onchange: () => { st.regions = cb.checked; show(st.sel); } });
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
// One plot per track that moves (MotionPlot, shared with preview): the golden's dashed, now's
// solid, failing frames as red dots, removed golden frames as rings, the frame shown as a cursor
// line. A track constant over the state in both the golden and now (every one-frame state's) has
// no plot: the Motion line above says by how much it changed.
function varies(values) {
  let first = null;
  for (const v of values || []) {
    if (v === null || v === undefined) continue;
    if (first === null) first = v;
    else if (Math.abs(v - first) > 1e-9) return true;
  }
  return false;
}
function motionPlots(st) {
  const m = st.s.motion, tracks = m.tracks || {}, times = m.times || [[], []];
  const changed = (m.changes || []).filter((c) => c.property).map((c) => c.element + '.' + c.property);
  const keys = [...new Set([...changed, ...Object.keys(tracks).sort()])]
    .filter((k) => tracks[k] && (varies(tracks[k][0]) || varies(tracks[k][1])));
  if (!keys.length) return null;
  const el = h('div', { class: 'plots', role: 'group', 'aria-label': 'Motion of ' + st.s.name + ': golden and new tracks' });
  const tmax = Math.max(0, ...times[0], ...times[1]);
  const failing = new Set(st.s.frames.filter((fr) => fails(fr.status) && fr.pairing !== 'removed').map((fr) => fr.index));
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
function frameView(fx, st, fr) {
  const key = keyOf(fr);
  const v = h('div', { class: 'fv s-' + fr.status + (key === focusKey ? ' focused' : ''), 'data-golden': fr.golden, 'data-key': key, tabindex: '-1' });
  const canDecide = approvable(fr);
  v.append(h('div', { class: 'fv-h' }, pill(fr.status),
    h('span', { class: 'fv-title mono', text: st.s.name + ' frame ' + fr.index }),
    fr.message ? h('span', { class: 'fv-msg', text: fr.message }) : null,
    canDecide ? h('span', { class: 'review-ctl' },
      h('button', { type: 'button', class: 'btn approve', 'data-approve-frame': fr.golden, title: 'Approve (a): the actual image becomes the golden',
        onclick: () => { focusKey = key; decide([key], 'approve'); } }, 'Approve'),
      h('button', { type: 'button', class: 'btn reject', 'data-reject-frame': fr.golden, title: 'Reject (r)',
        onclick: () => { focusKey = key; decide([key], 'reject'); } }, 'Reject'),
      h('span', { class: 'decision' })) : null),
    h('p', { class: 'refusal', hidden: true }));
  const dl = h('dl', { class: 'facts' });
  const fact = (k, val) => dl.append(h('dt', { text: k }), h('dd', null, val));
  fact('Golden', h('span', { class: 'mono', text: fr.golden }));
  const cause = fr.cause !== undefined && fr.cause !== null ? causeById.get(fr.cause) : null;
  if (cause) {
    fact('Cause', h('span', null, h('button', { type: 'button', class: 'linkish', 'data-frame-cause': cause.id, onclick: () => setCause(cause.id),
      title: 'Show only the frames of cause ' + cause.id }, 'Cause ' + cause.id), ' ', pill('kind', cause.kind), ' ',
      h('span', { class: 'mono', text: cause.summary })));
  }
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
    fact('Pixels', int(m.differentPixels) + ' ' + Words.word(m.differentPixels, 'differs', 'differ') + ' (' + num(m.ratio * 100, 3) + '%) of ' + m.width + '×' + m.height +
      ' · max channel difference ' + m.maxChannelDifference);
    if (m.regions && m.regions.length) {
      const shown = m.regions.slice(0, 8).map((r) => '[' + r.join(', ') + ']').join(' ');
      fact('Regions', h('span', { class: 'mono', text: shown + (m.regions.length > 8 ? ' … ' + (m.regions.length - 8) + ' more' : '') }));
    }
  }
  v.append(dl);
  if (fr.attribution) v.append(attributionView(fr.attribution));
  if (fr.layoutChanges && fr.layoutChanges.length) {
    v.append(h('div', { class: 'changes' }, h('span', { class: 'lbl', text: 'Layout changes' }),
      ...fr.layoutChanges.map((c) => h('span', { class: 'chip' + (/\s\+/.test(c) ? ' up' : /\s-/.test(c) ? ' down' : ''), text: c }))));
  }
  if (fr.lints && fr.lints.length) {
    v.append(h('div', { class: 'changes lints' }, h('span', { class: 'lbl', text: 'Lints' }),
      ...fr.lints.map((l) => h('span', { class: 'chip lint', title: l.rule + ' at [' + l.rect.join(', ') + '] pt', text: l.rule + ': ' + l.detail }))));
  }
  v.append(images(fx, st, fr));
  paintFrame(v, key);
  return v;
}

// The changed elements of a frame, the causes before their consequences (moved, pixels unchanged).
function attributionView(a) {
  const els = (a.elements || []).slice().sort((x, y) => quiet(x) - quiet(y));
  const SHOWN = 10;
  const chip = (e) => h('span', { class: 'chip ch-' + e.change + (quiet(e) ? ' quiet' : ''), 'data-element': e.id,
    title: Words.count(e.pixels || 0, 'differing pixel') + ' · [' + (e.rect || []).join(', ') + '] pt', text: describeChange(e) });
  const box = h('div', { class: 'changes attribution' }, h('span', { class: 'lbl', text: 'Changed' }),
    h('span', { class: 'chip kind', text: a.kind + (a.kind === 'scrolled' ? ' (' + signed(a.dx) + ', ' + signed(a.dy) + ')' : '') }),
    ...els.slice(0, SHOWN).map(chip));
  if (els.length > SHOWN) {
    const more = h('button', { type: 'button', class: 'linkish', onclick: () => { more.replaceWith(...els.slice(SHOWN).map(chip)); } },
      '… ' + (els.length - SHOWN) + ' more');
    box.append(more);
  }
  if (a.kind === 'size' && a.goldenSize && a.actualSize) {
    box.append(h('span', { class: 'muted', text: 'canvas ' + a.goldenSize.join('×') + ' → ' + a.actualSize.join('×') + ' px' }));
  }
  if (a.unassignedPixels) box.append(h('span', { class: 'muted', text: Words.count(a.unassignedPixels, 'differing pixel') + ' in no element' }));
  if (!els.length && a.kind !== 'size') box.append(h('span', { class: 'muted', text: 'no element changed' }));
  return box;
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

// outlines: { list: [{ rect: [x, y, w, h] points, cls, title }], canvasWidth (points, or null: 1 px a point) }.
function figure(title, path, empty, regions, lints, outlines) {
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
    // The attribution's elements, in points: the image's pixels per point are its natural width
    // over the canvas width, so its height in points is known once it has loaded.
    if (outlines && outlines.list.length) {
      const place = () => {
        const W = im.naturalWidth, H = im.naturalHeight;
        if (!W || !H) return;
        const scale = outlines.canvasWidth ? W / outlines.canvasWidth : 1;
        const pw = W / scale, ph = H / scale;
        for (const o of outlines.list) {
          const [x, y, w, hh] = o.rect;
          box.append(h('span', { class: 'outline ' + o.cls, title: o.title, style:
            'left:' + (x / pw * 100) + '%;top:' + (y / ph * 100) + '%;width:' + (w / pw * 100) + '%;height:' + (hh / ph * 100) + '%' }));
        }
        box.setAttribute('data-outlines', String(outlines.list.length));
      };
      if (im.complete && im.naturalWidth) place(); else im.addEventListener('load', place);
    }
  } else {
    box.append(h('div', { class: 'placeholder', text: empty }));
  }
  return h('figure', { class: 'fig' }, box,
    h('figcaption', null, h('span', { class: 'cap', text: title }), path ? h('span', { class: 'path mono', title: path, text: path }) : null));
}

// Outlines of a frame's changed elements: where they are now on the actual image, where they
// were on the golden one (a disappeared element only there, an appeared one only on the actual).
function outlinesOf(fx, fr) {
  const a = fr.attribution;
  if (!a || !(a.elements || []).length) return null;
  const canvasWidth = fx.f.canvas && fx.f.canvas[0] ? fx.f.canvas[0] : null;
  const actual = [], golden = [];
  for (const e of a.elements) {
    if (!e.rect || e.rect.length < 4 || !CHANGE_KINDS.includes(e.change)) continue;
    const cls = 'c-' + e.change + (quiet(e) ? ' quiet' : '');
    const title = describeChange(e);
    if (e.change === 'disappeared') { golden.push({ rect: e.rect, cls, title }); continue; }
    actual.push({ rect: e.rect, cls, title });
    if (e.change !== 'appeared') {
      const [x, y, w, hh] = e.rect;
      golden.push({ rect: [x - (e.dx || 0), y - (e.dy || 0), w - (e.dw || 0), hh - (e.dh || 0)], cls, title: title + ' (where it was)' });
    }
  }
  return { actual: { list: actual, canvasWidth }, golden: { list: golden, canvasWidth } };
}
function outlineKey(a) {
  const kinds = new Set(a.elements.map((e) => quiet(e) ? 'quiet' : e.change));
  const names = { moved: 'moved', resized: 'resized', appeared: 'appeared', disappeared: 'disappeared', restyled: 'restyled', quiet: 'moved, pixels unchanged' };
  return h('p', { class: 'outline-key' }, ...Object.keys(names).filter((k) => kinds.has(k))
    .map((k) => h('span', null, h('span', { class: 'swatch c-' + (k === 'quiet' ? 'moved quiet' : k) }), names[k])));
}

function images(fx, st, fr) {
  if (!fr.expected && !fr.actual && !fr.diff) {
    return h('p', { class: 'muted noimg', text: fr.status === 'passed'
      ? 'Frame passed; no images are stored for passing frames of passing states.'
      : 'No images are stored for this frame.' });
  }
  const m = fr.metrics;
  const outlines = st.regions ? outlinesOf(fx, fr) : null;
  // Frames without an attribution keep the diff's regions.
  const regions = st.regions && !outlines && m && m.regions && m.regions.length && m.width && m.height
    ? { list: m.regions, w: m.width, h: m.height } : null;
  const same = fr.expected && fr.expected === fr.actual;
  const diff = figure('Diff', fr.diff, same ? 'Identical to the golden: no diff.' : 'No diff image.');
  const mode = st.mode || 'side';
  if (mode === 'side' || !fr.expected || !fr.actual) {
    const row = h('div', { class: 'imgs side' },
      figure('Expected', fr.expected, fr.status === 'missing' ? 'No golden image: this frame has no golden yet.' : 'No expected image.',
        null, null, outlines && outlines.golden),
      figure(same ? 'Actual (identical)' : 'Actual', fr.actual, 'No actual image.', regions,
        fr.lints && fr.lints.length && st.canvas ? { list: fr.lints, w: st.canvas[0], h: st.canvas[1] } : null, outlines && outlines.actual),
      diff);
    return outlines ? h('div', null, row, outlineKey(fr.attribution)) : row;
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

// ---------- start & redraw ----------
function openFirstFailing() {
  let opened = 0;
  for (const fx of order) {
    if (opened >= AUTO_OPEN || fx.rank !== 0) break;
    if (!fx.states.some((st) => st.failing)) continue; // fixture errors already show their message
    if (causeFilter !== null && !fx.causes.has(causeFilter)) continue;
    setOpen(fx, true);
    opened++;
  }
}

// Redraws from new results (served, `event: results`), keeping the filters, the open fixtures,
// each state's frame and view, the decisions the server confirms, and the scroll position.
function reload(next) {
  const y = window.scrollY;
  const kept = new Map();
  const open = new Set();
  for (const fx of fixtures) {
    if (fx.open) open.add(fx.f.id);
    for (const st of fx.states) kept.set(fx.f.id + '\n' + st.s.name, { index: (st.s.frames[st.sel] || {}).index, mode: st.mode, regions: st.regions, pos: st.pos, op: st.op });
  }
  const causeSummary = causeFilter === null ? null : (causeById.get(causeFilter) || {}).summary;
  buildModel(next);
  for (const fx of fixtures) {
    for (const st of fx.states) {
      const k = kept.get(fx.f.id + '\n' + st.s.name);
      if (!k) continue;
      const at = st.s.frames.findIndex((fr) => fr.index === k.index);
      if (at >= 0) st.sel = at;
      Object.assign(st, { mode: k.mode, regions: k.regions, pos: k.pos, op: k.op });
    }
  }
  const again = causes.find((c) => c.summary === causeSummary);
  causeFilter = again ? again.id : null;
  causeBar.hidden = causeFilter === null;
  if (causeFilter === null) causeBar.replaceChildren();
  const nextHeader = renderHeader();
  headerEl.replaceWith(nextHeader);
  headerEl = nextHeader;
  renderList();
  for (const fx of fixtures) if (open.has(fx.f.id)) setOpen(fx, true);
  replaceCauses();
  window.scrollTo(0, y);
}

buildModel(data);
failOnly.checked = failingFixtures > 0;
headerEl = renderHeader();
causesEl = renderCauses();
app.append(headerEl, causesEl, toolbar, list, footer);
loadStored();
renderList();
openFirstFailing();
refresh();
note('');
document.body.setAttribute('data-review', SERVED ? 'served' : 'static');
document.body.setAttribute('data-parse-ms', PARSE_MS.toFixed(1));
document.body.setAttribute('data-render-ms', (performance.now() - T0).toFixed(1));
document.body.setAttribute('data-interactive-ms', performance.now().toFixed(1));
document.body.setAttribute('data-ready', 'true');
if (SERVED) { syncReview(); listen(); }
})();
