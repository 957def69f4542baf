(() => {
  const D = JSON.parse(document.getElementById('layoutsnap-preview').textContent);
  const BUILD = document.body.dataset.build;
  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  };
  const ms = (t) => (t * 1000).toFixed(1) + ' ms';
  const fmt = (n) => (Math.round(n * 100) / 100).toString();
  const COLORS = { rects: '#ff2d55', lines: 'rgba(50,173,230,0.30)', baselines: '#ff9500' };
  const show = { rects: D.overlayBaked, ids: D.overlayBaked, lines: D.overlayBaked, baselines: D.overlayBaked };
  let si = 0, fi = 0, playing = false, playStart = 0, timer = 0, hoverId = null;

  // Where to start: #state=NAME&frame=K keeps the place across reloads (and --watch rebuilds).
  const params = new URLSearchParams(location.hash.slice(1));
  const wanted = D.states.findIndex((s) => s.name === params.get('state'));
  if (wanted >= 0) si = wanted;
  fi = Math.max(0, Math.min(D.states[si].frames.length - 1, parseInt(params.get('frame') || '0', 10) || 0));
  for (const key of Object.keys(show)) if (params.has(key)) show[key] = params.get(key) === '1';

  const state = () => D.states[si];
  const frame = () => state().frames[fi];
  const cw = D.canvas.width, ch = D.canvas.height;
  const zoom = Math.min(1.25, Math.max(0.3, (window.innerHeight - 190) / ch), 560 / cw);

  const app = document.getElementById('app');
  const header = el('header', {}, el('h1', {}, D.fixture),
    el('p', {}, `${D.kind} · ${D.file} · canvas ${fmt(cw)} × ${fmt(ch)} pt at ${fmt(D.canvas.scale)}x · ${fmt(D.fps)} fps · ${D.appearance}`));
  const nav = el('nav', { id: 'states', 'aria-label': 'States' });
  const img = el('img', { id: 'frame', alt: 'frame' });
  const overlay = el('canvas', { id: 'overlay' });
  const stage = el('div', { class: 'stage', style: `width:${cw * zoom}px;height:${ch * zoom}px` }, img, overlay);
  const range = el('input', { type: 'range', min: '0', value: '0', class: 'scrubber', 'aria-label': 'Frame' });
  range.addEventListener('input', () => { pause(); go(parseInt(range.value, 10)); });
  const playButton = el('button', { class: 'play', title: 'Play / pause (space)', onclick: () => (playing ? pause() : play()) }, 'Play');
  const controls = el('div', { class: 'controls' },
    el('button', { title: 'First frame (Home)', onclick: () => { pause(); go(0); } }, '⏮'),
    el('button', { title: 'Previous frame (←)', onclick: () => { pause(); go(fi - 1); } }, '◀'),
    playButton,
    el('button', { title: 'Next frame (→)', onclick: () => { pause(); go(fi + 1); } }, '▶'),
    el('button', { title: 'Last frame (End)', onclick: () => { pause(); go(state().frames.length - 1); } }, '⏭'),
    range);
  const readout = el('div', { class: 'readout', 'aria-live': 'polite' });
  const toggles = el('div', { class: 'toggles' });
  for (const [key, label] of [['rects', 'Element rects'], ['ids', 'Ids'], ['lines', 'Line boxes'], ['baselines', 'Baselines']]) {
    const box = el('input', { type: 'checkbox', 'data-overlay': key });
    box.checked = show[key];
    box.addEventListener('change', () => { show[key] = box.checked; drawOverlay(); remember(); });
    const swatch = el('span', { class: 'swatch', style: `background:${COLORS[key] || COLORS.rects}` });
    toggles.append(el('label', {}, box, swatch, label));
  }
  toggles.append(el('span', {}, el('kbd', {}, '←'), ' ', el('kbd', {}, '→'), ' frames · ', el('kbd', {}, 'space'), ' play · ',
    el('kbd', {}, '↑'), ' ', el('kbd', {}, '↓'), ' states'));
  const viewer = el('section', { class: 'viewer' }, stage, controls, readout, toggles);
  const aside = el('aside', {});
  const strips = el('section', { class: 'strips' });
  const motion = el('section', { class: 'motion', id: 'motion' });
  app.append(header, nav, el('main', {}, viewer, aside), motion, strips);

  D.states.forEach((s, i) => nav.append(el('button', { 'data-state': s.name, onclick: () => selectState(i) },
    `${s.name} (${s.frames.length})`)));

  function remember() {
    const p = new URLSearchParams({ state: state().name, frame: String(fi) });
    for (const [k, v] of Object.entries(show)) p.set(k, v ? '1' : '0');
    history.replaceState(null, '', '#' + p.toString());
  }

  function selectState(i) {
    pause();
    si = (i + D.states.length) % D.states.length;
    fi = Math.min(fi, state().frames.length - 1);
    renderState();
    go(fi);
  }

  function renderState() {
    for (const b of nav.children) b.setAttribute('aria-pressed', String(b.dataset.state === state().name));
    range.max = String(state().frames.length - 1);
    strips.replaceChildren(el('h2', {}, `Filmstrip of ${state().name}`),
      ...state().filmstrips.map((src) => el('img', { src, loading: 'lazy', alt: `filmstrip of ${state().name}` })),
      el('h2', {}, `Animation of ${state().name} (APNG, real timing, loops)`),
      el('img', { class: 'animation', src: state().animation, loading: 'lazy', alt: `animation of ${state().name}` }));
    document.body.dataset.state = state().name;
    renderMotion();
  }

  // Every track that moves in this state, over time (MotionPlot); with --against the
  // golden's track dashed beneath. The cursor follows the frame shown.
  let tmax = 0;
  function renderMotion() {
    const m = state().motion;
    if (!m || !m.keys.length) { motion.replaceChildren(); tmax = 0; return; }
    const g = m.golden;
    tmax = Math.max(0, ...m.now.times, ...(g ? g.times : []));
    const plots = el('div', { class: 'plots', role: 'group', 'aria-label': `Motion of ${state().name}` });
    for (const key of m.keys) {
      const series = [];
      if (g && g.tracks[key]) series.push({ values: g.tracks[key], times: g.times, cls: 'expected' });
      if (m.now.tracks[key]) series.push({ values: m.now.tracks[key], times: m.now.times, cls: 'actual' });
      const box = el('figure', { class: 'plot', 'data-track': key });
      box.innerHTML = MotionPlot.svg(`${key} over time`, series, tmax);
      const caption = el('figcaption', {}, key);
      if (g && !g.tracks[key]) caption.append(' (not in the goldens)');
      if (g && !m.now.tracks[key]) caption.append(' (only in the goldens)');
      box.append(caption);
      plots.append(box);
    }
    const key = el('p', { class: 'plot-key' });
    if (D.against) key.append(el('span', { class: 'k-exp' }), ` golden (${D.against})  `);
    key.append(el('span', { class: 'k-act' }), ' now');
    if (m.more) key.append(` · ${Words.count(m.more, 'more moving track')} not plotted`);
    if (D.against && !g) key.append(` · the goldens have no state ${state().name}`);
    plots.append(key);
    motion.replaceChildren(el('h2', {}, `Motion of ${state().name}: ${Words.count(m.keys.length, 'moving track')}`), plots);
  }

  function go(k) {
    const n = state().frames.length;
    fi = Math.max(0, Math.min(n - 1, k));
    const f = frame();
    img.src = f.image;
    range.value = String(fi);
    readout.textContent = `${state().name} · frame ${f.index} of ${n - 1} · ${ms(f.time)} · progress ${f.progress.toFixed(2)}`;
    document.body.dataset.frame = String(fi);
    renderTable();
    drawOverlay();
    MotionPlot.cursor(motion, f.time, tmax);
    remember();
    // The neighbours, so stepping and playing do not wait for the disk.
    for (const j of [fi + 1, fi + 2, fi - 1]) if (j >= 0 && j < n) new Image().src = state().frames[j].image;
  }

  function renderTable() {
    const f = frame();
    const rows = f.elements.map((e) => {
      const extra = Object.entries(e).filter(([k]) => k !== 'id' && k !== 'rect')
        .map(([k, v]) => `${k}: ${typeof v === 'number' ? fmt(v) : JSON.stringify(v)}`).join(', ');
      const tr = el('tr', { 'data-id': e.id, onmouseenter: () => { hoverId = e.id; tr.classList.add('hover'); drawOverlay(); },
        onmouseleave: () => { hoverId = null; tr.classList.remove('hover'); drawOverlay(); } },
        el('td', {}, e.id), ...e.rect.map((v) => el('td', {}, fmt(v))), el('td', { class: 'extra' }, extra));
      return tr;
    });
    const kids = [el('h2', {}, `Frame ${f.index} · ${ms(f.time)}`)];
    if (state().note) kids.push(el('div', { class: 'note' }, state().note));
    if (state().curve) kids.push(el('div', { class: 'curve' }, state().curve));
    kids.push(el('table', {}, el('thead', {}, el('tr', {}, ...['id', 'x', 'y', 'width', 'height', ''].map((t) => el('th', {}, t)))),
      el('tbody', {}, ...rows)));
    if (f.scroll) {
      kids.push(el('h2', {}, 'Scroll'), el('table', {}, el('tbody', {},
        ...Object.entries(f.scroll).map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, typeof v === 'number' ? fmt(v) : String(v)))))));
    }
    kids.push(el('p', { class: 'lines-count' }, `${Words.count(f.lines.length, 'text line')} drawn`));
    aside.replaceChildren(...kids);
  }

  function drawOverlay() {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.round(cw * zoom * ratio), h = Math.round(ch * zoom * ratio);
    if (overlay.width !== w || overlay.height !== h) { overlay.width = w; overlay.height = h; }
    const g = overlay.getContext('2d');
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, w, h);
    const s = zoom * ratio;
    g.setTransform(s, 0, 0, s, 0, 0);
    const f = frame();
    let drawn = 0;
    if (show.lines) {
      g.fillStyle = COLORS.lines;
      for (const l of f.lines) { g.fillRect(l.box[0], l.box[1], l.box[2], l.box[3]); drawn++; }
    }
    if (show.baselines) {
      g.strokeStyle = COLORS.baselines; g.lineWidth = 1 / s;
      g.beginPath();
      for (const l of f.lines) { g.moveTo(l.box[0], l.baseline); g.lineTo(l.box[0] + l.box[2], l.baseline); drawn++; }
      g.stroke();
    }
    for (const e of f.elements) {
      const [x, y, ew, eh] = e.rect;
      if (e.id === hoverId) { g.fillStyle = 'rgba(255,45,85,0.25)'; g.fillRect(x, y, ew, eh); drawn++; }
      if (show.rects) { g.strokeStyle = COLORS.rects; g.lineWidth = 1 / s; g.strokeRect(x, y, ew, eh); drawn++; }
      if (show.ids) {
        g.font = `600 ${11 / s * ratio}px system-ui, sans-serif`;
        const tw = g.measureText(e.id).width;
        g.fillStyle = 'rgba(255,255,255,0.85)'; g.fillRect(x, y, tw + 6 / s * ratio, 14 / s * ratio);
        g.fillStyle = COLORS.rects; g.fillText(e.id, x + 3 / s * ratio, y + 11 / s * ratio); drawn++;
      }
    }
    overlay.dataset.shapes = String(drawn);
  }

  function play() {
    if (playing) return;
    playing = true;
    playButton.textContent = 'Pause';
    document.body.dataset.playing = 'true';
    for (const f of state().frames) new Image().src = f.image;
    if (fi === state().frames.length - 1) go(0);
    playStart = performance.now() - frame().time * 1000;
    advance();
  }

  function pause() {
    playing = false;
    clearTimeout(timer);
    playButton.textContent = 'Play';
    document.body.dataset.playing = 'false';
  }

  // Real speed: frame k shows from its time until the next frame's; the last frame of a settled
  // state holds for holdLastFrame seconds, that of an interrupted one (mid-motion) for one frame,
  // then the state plays again (as the APNG does). Timers
  // wake exactly at the next frame's time (requestAnimationFrame would add up to a display
  // frame of lag, and does not run in background tabs or headless test runs).
  function advance() {
    if (!playing) return;
    const frames = state().frames;
    const end = frames[frames.length - 1].time + (state().interrupted ? 1 / D.fps : D.holdLastFrame);
    let elapsed = (performance.now() - playStart) / 1000;
    if (elapsed >= end) { playStart += end * 1000; elapsed -= end; if (elapsed >= end) { playStart = performance.now(); elapsed = 0; } }
    let k = 0;
    while (k + 1 < frames.length && frames[k + 1].time <= elapsed + 1e-6) k++;
    if (k !== fi) go(k);
    const next = k + 1 < frames.length ? frames[k + 1].time : end;
    timer = setTimeout(advance, Math.max(0, (next - elapsed) * 1000));
  }

  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === 'checkbox' && e.key === ' ') return;
    const keys = { ArrowLeft: () => { pause(); go(fi - 1); }, ArrowRight: () => { pause(); go(fi + 1); },
      Home: () => { pause(); go(0); }, End: () => { pause(); go(state().frames.length - 1); },
      ' ': () => (playing ? pause() : play()), ArrowUp: () => selectState(si - 1), ArrowDown: () => selectState(si + 1) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  }, true);

  // --watch: poll build.js and reload (keeping the place, which lives in the hash) when a new
  // build has landed. file:// pages cannot fetch, but they can load a script.
  if (document.body.dataset.watch === 'true') {
    window.layoutsnapBuild = (id) => { if (id !== BUILD) location.reload(); };
    setInterval(() => {
      const s = document.createElement('script');
      s.src = 'build.js?' + Date.now();
      s.onload = s.onerror = () => s.remove();
      document.head.append(s);
    }, 700);
  }

  renderState();
  go(fi);
  document.body.dataset.ready = 'true';
})();
