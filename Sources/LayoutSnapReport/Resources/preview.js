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
  const COLORS = { rects: '#ff2d55', ids: '#ff2d55', lines: 'rgba(50,173,230,0.30)', baselines: '#ff9500', rulers: '#8e8e93' };
  const show = { rects: D.overlayBaked, ids: D.overlayBaked, lines: D.overlayBaked, baselines: D.overlayBaked, rulers: false };
  const SPEEDS = [1, 0.5, 0.25];
  const TL = D.timeline;
  // preview A --compare ...: side B is a preview of its own in C.folder, its frames paired with
  // A's in Swift (PreviewPairing): for each of A's frames, B's by time and by progress, in the
  // timeline and in each state's view.
  const C = D.compare || null;
  const B = C ? C.data : null;
  const bEntries = B ? B.timeline.segments.flatMap((seg, s) => seg.times.map((t, k) => ({ s, k, t }))) : [];
  const MODES = [['side', 'Side by side'], ['onion', 'Onion skin'], ['difference', 'Difference']];
  const SYNCS = [['time', 'By time'], ['progress', 'By progress']];

  // A view is what the scrubber plays: the whole timeline (the fixture's clock, data from Swift's
  // PreviewTimeline) or one state on its own clock. Its entries are the frames in order (state s,
  // frame k, time t on the view's clock); it plays to `length`, shows the last frame until
  // `loop`, then plays again.
  // Comparing with a longer B, a view goes on to B's end: A's last frame again at each of B's
  // later frames (`tail`, from Swift), so scrubbing by time reaches them.
  const tailOf = (pairs, s, k) => (C ? pairs.tail.map((t) => ({ s, k, t, tail: true })) : []);
  const lastSegment = TL.segments.length - 1;
  const tlEnd = C && C.pairs.timeline.tail.length ? C.pairs.timeline.tail[C.pairs.timeline.tail.length - 1] : TL.end;
  const views = [{
    name: 'timeline', timeline: true, motion: TL.motion, length: tlEnd, loop: tlEnd + TL.hold,
    entries: TL.segments.flatMap((seg, s) => seg.times.map((t, k) => ({ s, k, t })))
      .concat(tailOf(C && C.pairs.timeline, lastSegment, TL.segments[lastSegment].times.length - 1)),
    spans: spansOf(TL.segments.map((seg, s) => ({ s, count: seg.times.length, end: seg.start + seg.duration }))),
  }].concat(D.states.map((st, s) => {
    const tail = tailOf(C && C.pairs.states[s], s, st.frames.length - 1);
    const length = tail.length ? tail[tail.length - 1].t : st.frames[st.frames.length - 1].time;
    return {
      name: st.name, timeline: false, motion: st.motion, length,
      loop: length + (st.interrupted && !tail.length ? 1 / D.fps : D.holdLastFrame),
      entries: st.frames.map((f, k) => ({ s, k, t: f.time })).concat(tail),
      spans: spansOf([{ s, count: st.frames.length, end: null }]),
    };
  }));
  // Each state's run of entries in a view: what a target line and an overshoot are measured on.
  function spansOf(parts) {
    let from = 0;
    return parts.map((p) => { const span = { ...p, from, to: from + p.count - 1 }; from += p.count; return span; });
  }

  // Elements picked for measuring (by id, so the distances follow them through the frames).
  let picked = [];
  let ready = false, vi = 0, ei = 0, now = 0, speed = 1, playing = false, playStart = 0, timer = 0, hoverId = null;
  const view = () => views[vi];
  const entry = () => view().entries[ei];
  const state = () => D.states[entry().s];
  const frame = () => state().frames[entry().k];

  // The entry shown at time t of the view: the last one that has begun (of several at one
  // moment, such as an instant followed at once by the next step, the latest).
  function indexAt(t) {
    const e = view().entries;
    let k = 0;
    while (k + 1 < e.length && e[k + 1].t <= t + 1e-6) k++;
    return k;
  }

  // Where to start: the hash keeps the place across reloads, and so across --watch rebuilds.
  // A state goes to the frame nearest the progress it showed (an edited duration moves every
  // frame's time, not what the frame shows), the timeline to the same time, and a link with
  // only a frame number to that frame.
  const params = new URLSearchParams(location.hash.slice(1));
  const named = D.states.findIndex((s) => s.name === params.get('state'));
  vi = params.get('view') !== 'timeline' && named >= 0 ? named + 1 : 0;
  if (SPEEDS.includes(Number(params.get('speed')))) speed = Number(params.get('speed'));
  for (const key of Object.keys(show)) if (params.has(key)) show[key] = params.get(key) === '1';
  let compareMode = MODES.some(([m]) => m === params.get('compare')) ? params.get('compare') : 'side';
  let sync = params.get('sync') === 'progress' ? 'progress' : 'time';
  let onion = params.has('opacity') ? Math.min(1, Math.max(0, Number(params.get('opacity')) || 0)) : 0.5;
  ei = placeOnLoad(params);
  now = params.has('t') && view().timeline ? Math.min(Math.max(0, Number(params.get('t')) || 0), view().length) : entry().t;

  function placeOnLoad(p) {
    const v = view();
    const t = Number(p.get('t'));
    if (!v.timeline && p.has('p')) {
      const frames = D.states[vi - 1].frames, want = Number(p.get('p'));
      if (frames.some((f) => f.progress !== frames[0].progress)) {
        let best = 0;
        frames.forEach((f, k) => {
          const d = Math.abs(f.progress - want), b = Math.abs(frames[best].progress - want);
          if (d < b - 1e-6 || (Math.abs(d - b) <= 1e-6 && Math.abs(f.time - t) < Math.abs(frames[best].time - t))) best = k;
        });
        return best;
      }
    }
    if (p.has('t')) return indexAt(t);
    return Math.max(0, Math.min(v.entries.length - 1, parseInt(p.get('frame') || '0', 10) || 0));
  }

  const cw = D.canvas.width, ch = D.canvas.height;
  // The frame fits the window (CSS px per point); with --zoom N the page also shows it at 2x to Nx
  // the device's scale (N device pixels per pixel of the frame), from frames rendered at N times
  // the scale, so no level enlarges pixels. `magnify` 1 is the fitted view.
  // Served by `preview --serve` (PreviewServer puts its token in a meta tag), the zoom goes on to
  // 8x: past the frames rendered up front, the server renders the region in view at that scale
  // (GET zoom?...), drawn over the frame enlarged until it arrives.
  const SERVED = document.querySelector('meta[name="layoutsnap-preview-server"]');
  const TOKEN = SERVED ? SERVED.getAttribute('content') : null;
  const MAX_ZOOM = SERVED ? Math.max(8, D.zoom) : D.zoom;
  const fit = Math.min(1.25, Math.max(0.3, (window.innerHeight - 230) / ch), 560 / cw);
  let magnify = 1;
  const pointScale = () => (magnify > 1 ? D.canvas.scale * magnify / (window.devicePixelRatio || 1) : fit);
  // Past the pre-rendered zoom, the largest frames there are (enlarged; the region covers them).
  const source = (f) => (magnify > 1 && D.zoom > 1 ? f.zoomed : f.image);
  // Goldens have no zoomed frames: B is then shown from its frames, scaled.
  const sourceB = (f) => C.folder + '/' + (magnify > 1 && f.zoomed ? f.zoomed : f.image);
  const bw = B ? B.canvas.width : 0, bh = B ? B.canvas.height : 0;

  const app = document.getElementById('app');
  const header = el('header', {}, el('h1', {}, D.fixture),
    el('p', {}, `${D.kind} · ${D.file} · canvas ${fmt(cw)} × ${fmt(ch)} pt at ${fmt(D.canvas.scale)}x · ${fmt(D.fps)} fps · ${D.appearance}`));
  const banner = el('div', { class: 'build-error', role: 'alert', hidden: '' });
  const nav = el('nav', { id: 'states', 'aria-label': 'Timeline and states' });
  const img = el('img', { id: 'frame', alt: 'frame' });
  const overlay = el('canvas', { id: 'overlay' });
  // The region the server rendered at the current zoom, placed over the same points of the frame.
  const regionImg = el('img', { id: 'region', class: 'region', alt: '', hidden: '' });
  const layer = el('div', { class: 'layer', style: `width:${cw * fit}px;height:${ch * fit}px` }, img, regionImg, overlay);
  const stage = el('div', { class: 'stage', style: `width:${cw * fit}px;height:${ch * fit}px` }, layer);
  // Side B: its own stage beside A's, each at its canvas's size (the same points to pixels), and
  // an image over A's frame for the onion skin and the difference, aligned top-left.
  const imgB = el('img', { id: 'frame-b', alt: 'frame of B' });
  const layerB = el('div', { class: 'layer', style: `width:${bw * fit}px;height:${bh * fit}px` }, imgB);
  const stageB = el('div', { class: 'stage', style: `width:${bw * fit}px;height:${bh * fit}px` }, layerB);
  const overImg = el('img', { id: 'frame-over', class: 'over', alt: 'frame of B over A' });
  if (C) layer.insertBefore(overImg, overlay);
  const bReadout = el('div', { class: 'readout b-readout', 'aria-live': 'polite' });
  stage.addEventListener('scroll', () => { stageB.scrollLeft = stage.scrollLeft; stageB.scrollTop = stage.scrollTop; });
  // Drag to pan a zoomed frame (the wheel and scrollbars pan too).
  let drag = null;
  stage.addEventListener('mousedown', (e) => { if (magnify > 1) { drag = { x: e.clientX, y: e.clientY, left: stage.scrollLeft, top: stage.scrollTop }; e.preventDefault(); } });
  window.addEventListener('mousemove', (e) => { if (drag) { stage.scrollLeft = drag.left - (e.clientX - drag.x); stage.scrollTop = drag.top - (e.clientY - drag.y); } });
  window.addEventListener('mouseup', () => { drag = null; });
  const zooms = el('span', { class: 'zooms', role: 'group', 'aria-label': 'Zoom' },
    ...Array.from({ length: MAX_ZOOM }, (_, i) => i + 1).map((z) => el('button', {
      'data-zoom': String(z), title: z === 1 ? 'Fit the window' : `${z} device pixels to a pixel of the frame, re-rendered`
        + (z > D.zoom ? ' by the server, the region in view' : ''),
      onclick: () => setZoom(z) }, z === 1 ? 'Fit' : `${z}x`)));
  if (D.zoom === 1 && !SERVED) zooms.append(el('span', { class: 'hint', title: 'preview FIXTURE --serve, or --zoom 8' }, 'zoom: --serve or --zoom N'));
  // Zooming keeps the point at the viewport's centre where it is.
  function setZoom(z) {
    const cx = (stage.scrollLeft + stage.clientWidth / 2) / layer.offsetWidth;
    const cy = (stage.scrollTop + stage.clientHeight / 2) / layer.offsetHeight;
    magnify = Math.max(1, Math.min(MAX_ZOOM, z));
    const k = pointScale();
    layer.style.width = `${cw * k}px`; layer.style.height = `${ch * k}px`;
    layerB.style.width = `${bw * k}px`; layerB.style.height = `${bh * k}px`;
    stage.classList.toggle('zoomed', magnify > 1);
    stageB.classList.toggle('zoomed', magnify > 1);
    stage.scrollLeft = cx * cw * k - stage.clientWidth / 2;
    stage.scrollTop = cy * ch * k - stage.clientHeight / 2;
    for (const b of zooms.querySelectorAll('button')) b.setAttribute('aria-pressed', String(Number(b.dataset.zoom) === magnify));
    document.body.dataset.zoom = String(magnify);
    if (ready) { go(ei, now); }
  }

  // The region in view at a zoom past the pre-rendered one, from the server: asked for a moment
  // after the frame, the zoom or the scroll last changed (a drag or playback asks once, at the
  // end); an answer that is no longer what is shown is dropped. Side by side, B's region too
  // (when B is a fixture, drawn again as A is; goldens are pictures).
  const regionB = el('img', { id: 'region-b', class: 'region', alt: '', hidden: '' });
  layerB.append(regionB);
  const zoomed = [{ side: 'a', img: regionImg, stage, w: cw, h: ch, scale: D.canvas.scale, data: 'region',
    at: () => ({ st: state(), f: frame() }), on: () => true }];
  if (C && C.rendered) {
    zoomed.push({ side: 'b', img: regionB, stage: stageB, w: bw, h: bh, scale: B.canvas.scale, data: 'regionB',
      at: pairedB, on: () => compareMode === 'side' });
  }
  for (const z of zoomed) Object.assign(z, { asked: 0, shown: null, url: null });
  let regionTimer = 0;
  // What the zoom shows past the pre-rendered level: the region coming, drawn, or why not.
  const regionNote = el('span', { class: 'hint region-note', 'aria-live': 'polite' });
  const regionKey = (z) => { const p = z.on() && z.at(); return p ? `${p.st.name} ${p.f.index} ${magnify}` : null; };
  function askRegion() {
    clearTimeout(regionTimer);
    for (const z of zoomed) {
      if (z.shown !== regionKey(z) || !z.on()) { z.img.hidden = true; z.shown = null; delete document.body.dataset[z.data]; }
    }
    if (!SERVED || magnify <= D.zoom) { regionNote.textContent = ''; return; }
    if (zoomed[0].shown === null) regionNote.textContent = `enlarged; rendering the view at ${magnify}x…`;
    regionTimer = setTimeout(() => { for (const z of zoomed) fetchRegion(z); }, 150);
  }
  function fetchRegion(z) {
    const k = pointScale(), key = regionKey(z), asked = ++z.asked, p = z.at();
    if (!key) return;
    const x = Math.max(0, z.stage.scrollLeft / k), y = Math.max(0, z.stage.scrollTop / k);
    // The server draws a region's rows across the canvas, at most PreviewServer.maxRegionPixels.
    const s = z.scale * magnify, rows = Math.floor(16300000 / Math.round(z.w * s)) - 2;
    const w = Math.min(z.w - x, z.stage.clientWidth / k), h = Math.min(z.h - y, z.stage.clientHeight / k, rows / s);
    if (w <= 0 || h <= 0) return;
    const q = new URLSearchParams({ side: z.side, state: p.st.name, frame: String(p.f.index), zoom: String(magnify),
      x: x.toFixed(3), y: y.toFixed(3), w: w.toFixed(3), h: h.toFixed(3) });
    fetch('zoom?' + q, { headers: { 'X-LayoutSnap-Token': TOKEN }, cache: 'no-store' }).then((r) => {
      if (!r.ok) return r.text().then((t) => { throw new Error(t.trim()); });
      const region = (r.headers.get('X-LayoutSnap-Region') || '').split(',').map(Number);
      return r.blob().then((blob) => ({ region, blob }));
    }).then(({ region, blob }) => {
      if (asked !== z.asked || key !== regionKey(z)) return;
      if (z.url) URL.revokeObjectURL(z.url);
      z.url = URL.createObjectURL(blob);
      z.img.onload = () => {
        if (asked !== z.asked || key !== regionKey(z)) return;
        // Pixels at the side's zoomed scale to CSS px, placed on the same points of its frame.
        const s = z.scale * magnify, kk = pointScale();
        const [rx, ry, rw, rh] = region;
        Object.assign(z.img.style, { left: `${rx / s * kk}px`, top: `${ry / s * kk}px`, width: `${rw / s * kk}px`, height: `${rh / s * kk}px` });
        z.img.hidden = false;
        z.shown = key;
        document.body.dataset[z.data] = `${key} ${region.join(',')}`;
        if (z.side === 'a') {
          delete document.body.dataset.regionError;
          regionNote.textContent = `the view re-rendered at ${magnify}x (${rw} x ${rh} px)`;
        }
      };
      z.img.src = z.url;
    }).catch((e) => {
      if (asked !== z.asked || z.side !== 'a') return;
      document.body.dataset.regionError = String(e.message || e);
      regionNote.textContent = `enlarged, not re-rendered: ${e.message || e}`;
    });
  }
  stage.addEventListener('scroll', askRegion);
  window.addEventListener('resize', askRegion);
  const range = el('input', { type: 'range', min: '0', value: '0', class: 'scrubber', 'aria-label': 'Frame' });
  range.addEventListener('input', () => {
    pause();
    if (view().timeline) { const t = Number(range.value) / 1000; go(indexAt(t), t); } else go(parseInt(range.value, 10));
  });
  const playButton = el('button', { class: 'play', title: 'Play / pause (space)', onclick: () => (playing ? pause() : play()) }, 'Play');
  const speeds = el('span', { class: 'speeds', role: 'group', 'aria-label': 'Speed' },
    ...SPEEDS.map((x) => el('button', { 'data-speed': String(x), title: `Play at ${x}x`, onclick: () => setSpeed(x) }, `${x}x`)));
  const controls = el('div', { class: 'controls' },
    el('button', { title: 'First frame (Home)', onclick: () => { pause(); go(0); } }, '⏮'),
    el('button', { title: 'Previous frame (←)', onclick: () => { pause(); go(ei - 1); } }, '◀'),
    playButton,
    el('button', { title: 'Next frame (→)', onclick: () => { pause(); go(ei + 1); } }, '▶'),
    el('button', { title: 'Last frame (End)', onclick: () => { pause(); go(view().entries.length - 1); } }, '⏭'),
    range, speeds);
  const zoomRow = el('div', { class: 'controls' }, el('span', {}, 'Zoom'), zooms, regionNote);
  // The timeline's axis: each state's span, instants as diamonds, interruptions as red ticks.
  const playhead = el('div', { class: 'playhead' });
  const axisTrack = el('div', { class: 'axis-track', title: 'Click to go to that moment' });
  axisTrack.addEventListener('click', (e) => {
    const r = axisTrack.getBoundingClientRect();
    const t = Math.min(Math.max(0, (e.clientX - r.left) / r.width), 1) * view().length;
    pause();
    go(indexAt(t), t);
  });
  const axisLegend = el('div', { class: 'axis-legend' });
  const axis = el('div', { class: 'axis', id: 'axis' }, axisTrack, axisLegend);
  const readout = el('div', { class: 'readout', 'aria-live': 'polite' });
  const toggles = el('div', { class: 'toggles' });
  for (const [key, label] of [['rects', 'Element rects'], ['ids', 'Ids'], ['lines', 'Line boxes'], ['baselines', 'Baselines'], ['rulers', 'Rulers (pt)']]) {
    const box = el('input', { type: 'checkbox', 'data-overlay': key });
    box.checked = show[key];
    box.addEventListener('change', () => { show[key] = box.checked; drawOverlay(); remember(); });
    const swatch = el('span', { class: 'swatch', style: `background:${COLORS[key]}` });
    toggles.append(el('label', {}, box, swatch, label));
  }
  const loupeBox = el('input', { type: 'checkbox', 'data-tool': 'loupe' });
  loupeBox.checked = params.get('loupe') === '1';
  loupeBox.addEventListener('change', () => { loupe.hidden = true; remember(); });
  toggles.append(el('label', { title: 'The pixels under the pointer, magnified, with their colour' }, loupeBox, ' Pixel loupe'));
  toggles.append(el('span', {}, el('kbd', {}, '←'), ' ', el('kbd', {}, '→'), ' frames · ', el('kbd', {}, 'space'), ' play · ',
    el('kbd', {}, '↑'), ' ', el('kbd', {}, '↓'), ' timeline and states'));
  // As wide as the frame (or the controls' least), so the table beside it keeps its room.
  // The loupe: the device pixels around the pointer, 11 x 11 magnified, with the colour of the
  // one under it. A page opened from disk cannot read its images' pixels (a canvas that draws a
  // file:// image is tainted), so each frame's PNG also comes as a script (pixels/NNN.js) that
  // hands over a data: URL, which can be read.
  const loupeCanvas = el('canvas', { width: '154', height: '154' });
  const loupeText = el('div', { class: 'loupe-text' });
  const loupe = el('div', { class: 'loupe', hidden: '' }, loupeCanvas, loupeText);
  const pixelCache = new Map(), waiting = new Map();
  window.layoutsnapPixels = (path, url) => { const take = waiting.get(path); if (take) take(url); };
  function pixelsOf(f) {
    if (!pixelCache.has(f.image)) {
      if (pixelCache.size > 24) pixelCache.clear();
      pixelCache.set(f.image, new Promise((resolve, reject) => {
        waiting.set(f.image, (url) => {
          waiting.delete(f.image);
          const im = new Image();
          im.onload = () => {
            const c = document.createElement('canvas');
            c.width = im.naturalWidth; c.height = im.naturalHeight;
            const g = c.getContext('2d');
            g.drawImage(im, 0, 0);
            resolve(g.getImageData(0, 0, c.width, c.height));
          };
          im.onerror = reject;
          im.src = url;
        });
        const script = el('script', { src: f.pixels });
        script.onload = () => script.remove();
        script.onerror = () => { script.remove(); reject(new Error('no pixels for ' + f.image)); };
        document.head.append(script);
      }));
    }
    return pixelCache.get(f.image);
  }
  const hex = (v) => v.toString(16).padStart(2, '0');
  stage.addEventListener('mousemove', (e) => {
    if (!loupeBox.checked || drag) return;
    const r = layer.getBoundingClientRect();
    const x = (e.clientX - r.left) / r.width * cw, y = (e.clientY - r.top) / r.height * ch;
    const px = Math.floor(x * D.canvas.scale), py = Math.floor(y * D.canvas.scale);
    const f = frame();
    pixelsOf(f).then((data) => {
      if (frame() !== f || px < 0 || py < 0 || px >= data.width || py >= data.height) { loupe.hidden = true; return; }
      const g = loupeCanvas.getContext('2d');
      g.imageSmoothingEnabled = false;
      g.fillStyle = '#fff'; g.fillRect(0, 0, 154, 154);
      for (let dy = -5; dy <= 5; dy++) for (let dx = -5; dx <= 5; dx++) {
        const qx = px + dx, qy = py + dy;
        if (qx < 0 || qy < 0 || qx >= data.width || qy >= data.height) continue;
        const i = (qy * data.width + qx) * 4;
        g.fillStyle = `rgba(${data.data[i]},${data.data[i + 1]},${data.data[i + 2]},${data.data[i + 3] / 255})`;
        g.fillRect((dx + 5) * 14, (dy + 5) * 14, 14, 14);
      }
      g.strokeStyle = '#ff2d55'; g.lineWidth = 2; g.strokeRect(5 * 14, 5 * 14, 14, 14);
      const i = (py * data.width + px) * 4, d = data.data;
      const colour = `#${hex(d[i])}${hex(d[i + 1])}${hex(d[i + 2])}`;
      loupeText.textContent = `${fmt(x)}, ${fmt(y)} pt · pixel ${px}, ${py} · ${colour} · rgba(${d[i]}, ${d[i + 1]}, ${d[i + 2]}, ${fmt(d[i + 3] / 255)})`;
      document.body.dataset.loupe = `${px},${py} ${colour}`;
      loupe.style.left = `${e.clientX + 18}px`; loupe.style.top = `${e.clientY + 18}px`;
      loupe.hidden = false;
    }, () => { loupe.hidden = true; });
  });
  stage.addEventListener('mouseleave', () => { loupe.hidden = true; });
  const compareRow = el('div', { class: 'compare-controls', id: 'compare' });
  const captionA = el('span', {}, C ? C.a : '');
  const sides = C
    ? el('div', { class: 'sides' }, el('figure', { class: 'side side-a' }, el('figcaption', {}, el('b', {}, 'A '), captionA), stage),
      el('figure', { class: 'side side-b' }, el('figcaption', {}, el('b', {}, 'B '), C.b), stageB))
    : stage;
  const viewerWidth = C ? Math.max((cw + bw) * fit + 16, 620) : Math.max(cw * fit, 520);
  const viewer = el('section', { class: 'viewer', style: `width:${viewerWidth}px` }, sides, controls, zoomRow, compareRow, axis, readout, bReadout, toggles);
  if (C) { buildCompareControls(); document.body.classList.add('comparing'); } else { compareRow.hidden = true; bReadout.hidden = true; }

  // Side by side, onion skin (B over A at the slider's opacity) or difference (B over A with
  // the difference blend: what is the same is black); scrubbed together by time or by progress.
  function buildCompareControls() {
    const group = (label, items, current, pick, attr) => el('span', { class: 'choices', role: 'group', 'aria-label': label },
      ...items.map(([value, text]) => el('button', { [attr]: value, 'aria-pressed': String(value === current()),
        onclick: () => { pick(value); } }, text)));
    const slider = el('input', { type: 'range', min: '0', max: '100', value: String(Math.round(onion * 100)), class: 'opacity',
      'aria-label': 'Opacity of B over A' });
    slider.addEventListener('input', () => { onion = Number(slider.value) / 100; showCompare(); });
    const note = C.sameCanvas ? null : el('p', { class: 'compare-note' },
      `The canvases differ: A is ${fmt(cw)} × ${fmt(ch)} pt, B ${fmt(bw)} × ${fmt(bh)} pt. Side by side shows each at its size; `
      + 'the onion skin and the difference align their top-left corners.');
    compareRow.replaceChildren(
      el('div', {}, el('span', { class: 'label' }, 'Compare'),
        group('Comparison', MODES, () => compareMode, (m) => { compareMode = m; showCompare(); }, 'data-compare-mode'),
        el('label', { class: 'opacity-label' }, 'B opacity ', slider)),
      el('div', {}, el('span', { class: 'label' }, 'Scrub together'),
        group('Scrub together', SYNCS, () => sync, (x) => { sync = x; if (ready) { renderStrips(); go(ei, now); } showCompare(); }, 'data-sync')),
      ...(note ? [note] : []));
  }

  function showCompare() {
    if (!C) return;
    for (const b of compareRow.querySelectorAll('[data-compare-mode]')) b.setAttribute('aria-pressed', String(b.dataset.compareMode === compareMode));
    for (const b of compareRow.querySelectorAll('[data-sync]')) b.setAttribute('aria-pressed', String(b.dataset.sync === sync));
    const over = compareMode !== 'side';
    stageB.parentElement.hidden = over;
    overImg.hidden = !over;
    captionA.textContent = over ? `${C.a}, with B (${C.b}) over it, ${compareMode === 'onion' ? 'at the slider\'s opacity' : 'as the difference: the same is black'}` : C.a;
    overImg.style.opacity = compareMode === 'onion' ? String(onion) : '1';
    overImg.style.mixBlendMode = compareMode === 'difference' ? 'difference' : 'normal';
    compareRow.querySelector('.opacity-label').hidden = compareMode !== 'onion';
    // Over A, the stage is as large as the larger canvas, B's corner on A's.
    const w = over ? Math.max(cw, bw) : cw, h = over ? Math.max(ch, bh) : ch;
    stage.style.width = `${w * fit}px`; stage.style.height = `${h * fit}px`;
    Object.assign(document.body.dataset, { compare: compareMode, sync, opacity: String(onion) });
    if (ready) { remember(); askRegion(); }
  }

  // B's frame beside A's entry i of the view (the current one), as paired in Swift: { st, f, t }
  // or null.
  function pairedB(i = ei) {
    const v = view(), pv = v.timeline ? C.pairs.timeline : C.pairs.states[vi - 1];
    const j = pv[sync][i];
    if (j === null || j === undefined) return null;
    if (v.timeline) { const e = bEntries[j]; return { st: B.states[e.s], f: B.states[e.s].frames[e.k], t: e.t }; }
    const st = B.states[pv.state];
    return { st, f: st.frames[j], t: st.frames[j].time };
  }

  function showB() {
    const p = pairedB();
    if (!p) {
      imgB.removeAttribute('src'); overImg.removeAttribute('src');
      bReadout.textContent = `B has no state ${state().name}`;
      Object.assign(document.body.dataset, { bState: '', bFrame: '', bTime: '', bProgress: '' });
      return;
    }
    imgB.src = sourceB(p.f);
    overImg.src = sourceB(p.f);
    overImg.style.width = `${bw * pointScale()}px`; overImg.style.height = `${bh * pointScale()}px`;
    bReadout.textContent = `B · ${p.st.name} frame ${p.f.index} · ${ms(p.t)}${view().timeline ? ` (${ms(p.f.time)} into it)` : ''} · progress ${p.f.progress.toFixed(2)} · paired by ${sync}`;
    Object.assign(document.body.dataset, { bState: p.st.name, bFrame: String(p.f.index), bTime: p.t.toFixed(4), bProgress: String(p.f.progress) });
  }
  const aside = el('aside', {});
  const strips = el('section', { class: 'strips' });
  const motion = el('section', { class: 'motion', id: 'motion' });
  app.append(loupe, banner, header, nav, el('main', {}, viewer, aside), motion, strips);

  views.forEach((v, i) => nav.append(el('button', v.timeline
    ? { 'data-view': 'timeline', onclick: () => selectView(i) } : { 'data-state': v.name, onclick: () => selectView(i) },
  v.timeline ? `Timeline (${Words.count(framesOf(v), 'frame')}, ${TL.end.toFixed(2)} s)` : `${v.name} (${framesOf(v)})`)));

  // A view's own frames, without the tail of a longer B.
  function framesOf(v) { return v.entries.filter((e) => !e.tail).length; }

  function remember() {
    const v = view();
    const p = new URLSearchParams(v.timeline ? { view: 'timeline' } : { state: v.name });
    p.set('frame', String(ei));
    p.set('t', now.toFixed(4));
    if (!v.timeline) p.set('p', String(frame().progress));
    if (speed !== 1) p.set('speed', String(speed));
    if (magnify !== 1) p.set('zoom', String(magnify));
    if (loupeBox.checked) p.set('loupe', '1');
    if (C) { p.set('compare', compareMode); p.set('sync', sync); p.set('opacity', String(onion)); }
    for (const [k, x] of Object.entries(show)) p.set(k, x ? '1' : '0');
    history.replaceState(null, '', '#' + p.toString());
  }

  // Going between the timeline and a state keeps the frame when the other view has it.
  function selectView(i) {
    pause();
    const { s, k } = entry();
    vi = (i + views.length) % views.length;
    const same = view().entries.findIndex((e) => e.s === s && e.k === k);
    ei = same >= 0 ? same : Math.min(ei, view().entries.length - 1);
    renderView();
    go(ei);
  }

  function setSpeed(x) {
    const wasPlaying = playing;
    pause();
    speed = x;
    for (const b of speeds.children) b.setAttribute('aria-pressed', String(Number(b.dataset.speed) === speed));
    document.body.dataset.speed = String(speed);
    remember();
    if (wasPlaying) play();
  }

  function renderView() {
    const v = view();
    for (const b of nav.children) {
      b.setAttribute('aria-pressed', String(v.timeline ? b.dataset.view === 'timeline' : b.dataset.state === v.name));
    }
    if (v.timeline) {
      range.max = String(Math.round(v.length * 1000));
      range.setAttribute('aria-label', 'Time on the timeline (ms)');
    } else {
      range.max = String(v.entries.length - 1);
      range.setAttribute('aria-label', 'Frame');
    }
    document.body.dataset.view = v.timeline ? 'timeline' : v.name;
    renderAxis();
    renderStrips();
    renderMotion();
  }

  function renderAxis() {
    axis.hidden = !view().timeline;
    if (axis.hidden) return;
    const span = Math.max(views[0].length, 1e-9);
    const pct = (t) => (100 * t / span).toFixed(3) + '%';
    const kids = TL.segments.filter((s) => s.duration > 0).map((s) => el('div', {
      class: 'segment' + (s.interrupted ? ' interrupted' : '') + (s.instant ? ' held' : ''), 'data-state': s.state,
      style: `left:${pct(s.start)};width:${pct(s.duration)}`,
      title: `${s.state}: ${ms(s.start)} to ${ms(s.start + s.duration)}${s.interrupted ? ', cut by the next step' : ''}`,
    }, s.state));
    const firstEntry = (name) => view().entries.findIndex((e) => D.states[e.s].name === name);
    for (const m of TL.instants) {
      kids.push(el('button', { class: 'instant', 'data-state': m.state, 'data-time': String(m.time), style: `left:${pct(m.time)}`,
        title: `${m.state}: an instant step at ${ms(m.time)}`, 'aria-label': `${m.state}, instant at ${ms(m.time)}`,
        onclick: (e) => { e.stopPropagation(); pause(); go(firstEntry(m.state)); } }));
    }
    for (const m of TL.cuts) {
      kids.push(el('span', { class: 'cut', 'data-state': m.state, 'data-time': String(m.time), style: `left:${pct(m.time)}`,
        title: `${m.state} interrupted at ${ms(m.time)}` }));
    }
    kids.push(playhead);
    axisTrack.replaceChildren(...kids);
    const legend = [el('span', {}, '0 ms')];
    if (TL.instants.length) {
      legend.push(el('span', {}, el('i', { class: 'k-instant' }), ' instants: ',
        TL.instants.map((m) => `${m.state} at ${ms(m.time)}`).join(', ')));
    }
    if (TL.cuts.length) {
      legend.push(el('span', {}, el('i', { class: 'k-cut' }), ' interrupted: ',
        TL.cuts.map((m) => `${m.state} at ${ms(m.time)}`).join(', ')));
    }
    legend.push(el('span', {}, ms(TL.end) + (views[0].length > TL.end ? ` · B runs on to ${ms(views[0].length)}` : '')));
    axisLegend.replaceChildren(...legend);
  }

  // The filmstrip of the view: every frame a cell that goes to it; a state's view keeps its
  // contact sheets and animated PNG below. Comparing, each cell holds A's frame and B's paired
  // with it (by time or progress, as the viewer), and B's later frames follow A's end.
  function renderStrips() {
    const v = view();
    const cells = el('div', { class: 'cells', role: 'list' });
    let previous = -1;
    v.entries.forEach((e, i) => {
      if (e.tail && !C) return;
      const st = D.states[e.s], f = st.frames[e.k];
      const starts = v.timeline && e.s !== previous && !e.tail;
      previous = e.s;
      const a = el('img', { src: f.image, loading: 'lazy', alt: '', style: `aspect-ratio:${cw}/${ch}` });
      const label = e.tail ? `A ended · ${ms(e.t)}` : (starts ? st.name + ' ' : '') + `#${e.k} · ${ms(e.t)}`;
      const attrs = {
        class: 'cell' + (starts ? ' starts' : '') + (C ? ' paired' : '') + (e.tail ? ' tail' : ''), role: 'listitem',
        'data-entry': String(i), 'data-state': st.name, 'data-frame': String(e.k),
        title: `${st.name} frame ${e.k} at ${ms(e.t)}`, onclick: () => { pause(); go(i); },
      };
      if (!C) { cells.append(el('button', attrs, a, el('span', {}, label))); return; }
      const p = pairedB(i);
      const b = p ? el('img', { class: 'b', src: C.folder + '/' + p.f.image, loading: 'lazy', alt: '', style: `aspect-ratio:${bw}/${bh}` })
        : el('span', { class: 'no-b' }, 'no B');
      Object.assign(attrs, { 'data-b-state': p ? p.st.name : '', 'data-b-frame': p ? String(p.f.index) : '',
        title: attrs.title + (p ? ` · B ${p.st.name} frame ${p.f.index} by ${sync}` : ' · B has no frame here') });
      cells.append(el('button', attrs, el('span', { class: 'pair' }, a, b), el('span', {}, label),
        el('span', { class: 'b-label' }, p ? `B ${view().timeline ? p.st.name + ' ' : ''}#${p.f.index}` : 'B —')));
    });
    const kids = [el('h2', {}, v.timeline
      ? `Filmstrip of the timeline: ${Words.count(framesOf(v), 'frame')} in ${TL.end.toFixed(3)} s`
      : `Filmstrip of ${v.name}`), cells];
    if (C) kids.splice(1, 0, el('p', { class: 'cells-key' }, `Each cell: A (${C.a}) at the left, B (${C.b}) at the right, paired by ${sync}.`));
    if (v.timeline) {
      kids.push(el('h2', {}, 'Contact sheet of the timeline'),
        ...TL.filmstrips.map((src) => el('img', { src, loading: 'lazy', alt: 'filmstrip of the timeline' })));
    } else {
      const st = D.states[vi - 1];
      kids.push(el('h2', {}, `Contact sheet of ${st.name}`),
        ...st.filmstrips.map((src) => el('img', { src, loading: 'lazy', alt: `filmstrip of ${st.name}` })),
        el('h2', {}, `Animation of ${st.name} (APNG, real timing, loops)`),
        el('img', { class: 'animation', src: st.animation, loading: 'lazy', alt: `animation of ${st.name}` }));
    }
    strips.replaceChildren(...kids);
  }

  // Every track that moves in the view, over time (MotionPlot), as wide as the page allows: a dot
  // per frame (click to go there), each settled state's target dashed and its largest overshoot
  // ringed; with --against the golden's track dashed beneath. The cursor follows the frame.
  let tmax = 0;
  // B's tracks in the view (from Swift: every track either side moves), or null when B has no
  // state paired with A's.
  function motionB() {
    if (!C) return null;
    return view().timeline ? C.motion.timeline : C.motion.states[vi - 1];
  }
  function renderMotion() {
    const v = view(), m = v.motion, mb = motionB();
    const keys = m ? m.keys.concat(mb ? mb.keys.filter((k) => !m.keys.includes(k)) : []) : [];
    if (!keys.length) { motion.replaceChildren(); tmax = 0; return; }
    const g = v.timeline ? null : m.golden;
    tmax = Math.max(v.length, ...(g ? g.times : []), ...(mb ? mb.now.times : []));
    // The section's width less its padding and a scrollbar the page may grow; two plots to a
    // row (the flex gap is 14 px). The CSS lets a plot shrink to fit, so a row never breaks.
    const room = Math.max(320, (motion.clientWidth || 1240) - 60);
    const width = Math.floor(keys.length > 1 ? Math.max(320, (room - 14) / 2) : room);
    const labels = v.entries.map((e) => `${D.states[e.s].name} #${e.k} · ${ms(e.t)}`);
    const bands = v.timeline ? TL.segments.filter((s) => s.duration > 0).map((s) => ({ t: s.start, label: s.state })) : [];
    const plots = el('div', { class: 'plots', role: 'group', 'aria-label': `Motion of ${v.name}` });
    for (const key of keys) {
      const series = [];
      if (g && g.tracks[key]) series.push({ values: g.tracks[key], times: g.times, cls: 'expected' });
      if (mb && mb.now.tracks[key]) series.push({ values: mb.now.tracks[key], times: mb.now.times, cls: 'compare-b' });
      const values = m.now.tracks[key];
      if (values) series.push({ values, times: m.now.times, cls: 'actual', entries: values.map((_, i) => i), labels });
      const { targets, overshoots } = values ? marks(v, values, m.now.times) : { targets: [], overshoots: [] };
      const box = el('figure', { class: 'plot', 'data-track': key });
      box.innerHTML = MotionPlot.svg(`${key} over time`, series, tmax,
        { width, height: 190, every: true, targets, overshoots, bands, holdAfter: 1.5 / D.fps });
      const caption = el('figcaption', {}, el('strong', {}, key));
      if (!v.timeline && state().curve) caption.append(` · now ${D.states[vi - 1].curve}`);
      if (g && !g.tracks[key]) caption.append(' (not in the goldens)');
      if (g && !m.now.tracks[key]) caption.append(' (only in the goldens)');
      if (mb && !mb.now.tracks[key]) caption.append(' (not in B)');
      if (mb && !m.now.tracks[key]) caption.append(' (only in B)');
      box.append(caption);
      plots.append(box);
    }
    const key = el('p', { class: 'plot-key' });
    if (C) {
      key.append(el('span', { class: 'k-act' }), ` A: ${C.a} · `, el('span', { class: 'k-b' }), ` B: ${C.b}, dashed`
        + (mb ? '' : ` (B has no state ${v.name})`) + ' · ');
    }
    if (D.against && !v.timeline) key.append(el('span', { class: 'k-exp' }), ` golden (${D.against})  `);
    key.append(el('span', { class: 'k-act' }), ' now, a dot per frame (click to go there) · ', el('span', { class: 'k-target' }),
      ' target · ', el('span', { class: 'k-over' }), ' overshoot');
    if (m.more) key.append(` · ${Words.count(m.more, 'more moving track')} not plotted`);
    if (D.against && !v.timeline && !g) key.append(` · the goldens have no state ${v.name}`);
    if (D.against && v.timeline) key.append(' · the goldens are plotted in each state\'s view');
    plots.append(key);
    const curves = v.timeline ? D.states.filter((s) => s.curve).map((s) => `${C ? 'A · ' : ''}${s.name}: ${s.curve}`) : [];
    // B's curves, which a --compare-curve or --compare-duration changed.
    const bStates = !C ? [] : v.timeline ? B.states : [B.states[C.pairs.states[vi - 1].state]].filter(Boolean);
    for (const s of bStates) if (s.curve) curves.push(`B · ${s.name}: ${s.curve}`);
    motion.replaceChildren(el('h2', {}, `Motion of ${v.timeline ? 'the timeline' : v.name}: ${Words.count(keys.length, 'moving track')}`),
      ...curves.map((c) => el('p', { class: 'curve' }, c)), plots);
  }

  // In each state that settled and moved this track: the value it settled at, and the frame that
  // went furthest past it (a spring's overshoot), when that is more than rounding.
  function marks(v, values, times) {
    const targets = [], overshoots = [];
    for (const span of v.spans) {
      const st = D.states[span.s];
      if (st.interrupted) continue;
      const known = [];
      for (let i = span.from; i <= span.to; i++) if (values[i] !== null && values[i] !== undefined) known.push(i);
      if (known.length < 2) continue;
      const v0 = values[known[0]], target = values[known[known.length - 1]];
      if (Math.abs(target - v0) < 1e-9) continue;
      targets.push({ t0: times[span.from], t1: span.end === null ? tmax : span.end, value: target });
      const dir = Math.sign(target - v0);
      let worst = -1, past = Math.max(0.05, 0.005 * Math.abs(target - v0));
      for (const i of known) { const d = (values[i] - target) * dir; if (d > past) { past = d; worst = i; } }
      if (worst >= 0) {
        overshoots.push({ t: times[worst], value: values[worst], label: `overshoot ${fmt(past)}: ${fmt(values[worst])} against ${fmt(target)}` });
      }
    }
    return { targets, overshoots };
  }
  motion.addEventListener('click', (e) => {
    const dot = e.target.closest && e.target.closest('[data-entry]');
    if (dot) { pause(); go(parseInt(dot.dataset.entry, 10)); }
  });

  function go(k, at) {
    const v = view(), n = v.entries.length;
    ei = Math.max(0, Math.min(n - 1, k));
    now = at === undefined ? entry().t : at;
    const f = frame(), st = state();
    img.src = source(f);
    askRegion();
    if (C) showB();
    range.value = v.timeline ? String(Math.round(now * 1000)) : String(ei);
    const last = st.frames.length - 1;
    readout.textContent = v.timeline
      ? `timeline · ${ms(now)} of ${ms(v.length)} · ${st.name} frame ${f.index} of ${last} (${ms(f.time)} into it) · progress ${f.progress.toFixed(2)}`
        + (TL.segments[entry().s].instant ? ' · instant step' : '') + (st.interrupted && entry().k === last ? ' · cut by the next step' : '')
      : `${st.name} · frame ${f.index} of ${last} · ${ms(f.time)} · progress ${f.progress.toFixed(2)}`;
    if (entry().tail) readout.textContent += ` · A ended at ${ms(v.timeline ? TL.end : f.time)}; B runs on (${ms(now)})`;
    Object.assign(document.body.dataset, { state: st.name, frame: String(entry().k), entry: String(ei), time: now.toFixed(4), progress: String(f.progress) });
    playhead.style.left = (100 * now / Math.max(views[0].length, 1e-9)).toFixed(3) + '%';
    for (const c of strips.querySelectorAll('.cell[aria-current]')) c.removeAttribute('aria-current');
    const cell = strips.querySelector(`.cell[data-entry="${ei}"]`);
    if (cell) cell.setAttribute('aria-current', 'true');
    renderTable();
    drawOverlay();
    MotionPlot.cursor(motion, now, tmax);
    remember();
    // The neighbours, so stepping and playing do not wait for the disk.
    for (const j of [ei + 1, ei + 2, ei - 1]) {
      if (j >= 0 && j < n) new Image().src = source(D.states[v.entries[j].s].frames[v.entries[j].k]);
    }
  }

  function renderTable() {
    const f = frame();
    const rows = f.elements.map((e) => {
      const extra = Object.entries(e).filter(([k]) => k !== 'id' && k !== 'rect')
        .map(([k, v]) => `${k}: ${typeof v === 'number' ? fmt(v) : JSON.stringify(v)}`).join(', ');
      const tr = el('tr', { 'data-id': e.id, class: picked.includes(e.id) ? 'picked' : null, title: 'Click to measure from or to this element',
        onclick: () => pick(e.id), onmouseenter: () => { hoverId = e.id; tr.classList.add('hover'); drawOverlay(); },
        onmouseleave: () => { hoverId = null; tr.classList.remove('hover'); drawOverlay(); } },
        el('td', {}, e.id), ...e.rect.map((v) => el('td', {}, fmt(v))), el('td', { class: 'extra' }, extra));
      return tr;
    });
    const kids = [el('h2', {}, `${C ? 'A · ' : ''}${state().name} · frame ${f.index} · ${ms(f.time)}`)];
    if (state().note) kids.push(el('div', { class: 'note' }, state().note));
    if (state().curve) kids.push(el('div', { class: 'curve' }, state().curve));
    kids.push(el('table', {}, el('thead', {}, el('tr', {}, ...['id', 'x', 'y', 'width', 'height', ''].map((t) => el('th', {}, t)))),
      el('tbody', {}, ...rows)));
    if (f.scroll) {
      kids.push(el('h2', {}, 'Scroll'), el('table', {}, el('tbody', {},
        ...Object.entries(f.scroll).map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, typeof v === 'number' ? fmt(v) : String(v)))))));
    }
    kids.push(el('p', { class: 'lines-count' }, `${Words.count(f.lines.length, 'text line')} drawn`));
    const measured = measure(f);
    kids.push(el('h2', {}, 'Distances'), el('p', { class: 'measure' }, measured
      ? `${measured.a} to ${measured.b}: ${measured.lines.map((m) => `${m.what} ${fmt(m.length)} pt`).join(', ')}`
      : picked.length === 1 ? `${picked[0]} picked: pick another (a table row, or the element on the frame).`
        : 'Pick two elements (table rows, or on the frame) to measure between them.'));
    document.body.dataset.measure = measured ? `${measured.a} ${measured.b} ${measured.lines.map((m) => `${m.what}=${fmt(m.length)}`).join(' ')}` : '';
    aside.replaceChildren(...kids);
  }

  // Picking a third element lets go of the first; picking a picked one lets go of it.
  function pick(id) {
    picked = picked.includes(id) ? picked.filter((x) => x !== id) : picked.concat(id).slice(-2);
    renderTable();
    drawOverlay();
  }

  // Between two picked elements of the frame: the gaps between them when they are apart (a
  // line across each gap), or each edge's inset when one overlaps the other.
  function measure(f) {
    if (picked.length < 2) return null;
    const [ea, eb] = picked.map((id) => f.elements.find((e) => e.id === id));
    if (!ea || !eb) return null;
    const [ax, ay, aw, ah] = ea.rect, [bx, by, bw, bh] = eb.rect;
    const midY = (Math.max(ay, by) + Math.min(ay + ah, by + bh)) / 2, midX = (Math.max(ax, bx) + Math.min(ax + aw, bx + bw)) / 2;
    const lines = [];
    if (bx >= ax + aw) lines.push({ what: 'horizontal gap', x0: ax + aw, y0: midY, x1: bx, y1: midY });
    else if (ax >= bx + bw) lines.push({ what: 'horizontal gap', x0: bx + bw, y0: midY, x1: ax, y1: midY });
    if (by >= ay + ah) lines.push({ what: 'vertical gap', x0: midX, y0: ay + ah, x1: midX, y1: by });
    else if (ay >= by + bh) lines.push({ what: 'vertical gap', x0: midX, y0: by + bh, x1: midX, y1: ay });
    if (!lines.length) {
      const cy = (Math.max(ay, by) + Math.min(ay + ah, by + bh)) / 2, cx = midX;
      lines.push({ what: 'left', x0: Math.min(ax, bx), y0: cy, x1: Math.max(ax, bx), y1: cy },
        { what: 'right', x0: Math.min(ax + aw, bx + bw), y0: cy, x1: Math.max(ax + aw, bx + bw), y1: cy },
        { what: 'top', x0: cx, y0: Math.min(ay, by), x1: cx, y1: Math.max(ay, by) },
        { what: 'bottom', x0: cx, y0: Math.min(ay + ah, by + bh), x1: cx, y1: Math.max(ay + ah, by + bh) });
    }
    for (const m of lines) m.length = Math.abs(m.x1 - m.x0) + Math.abs(m.y1 - m.y0);
    return { a: ea.id, b: eb.id, rects: [ea.rect, eb.rect], lines };
  }

  // A click on the frame picks the smallest element under it (a drag to pan is not a click).
  let downAt = null;
  stage.addEventListener('mousedown', (e) => { downAt = [e.clientX, e.clientY]; });
  stage.addEventListener('click', (e) => {
    if (downAt && Math.abs(e.clientX - downAt[0]) + Math.abs(e.clientY - downAt[1]) > 3) return;
    const r = layer.getBoundingClientRect();
    const x = (e.clientX - r.left) / r.width * cw, y = (e.clientY - r.top) / r.height * ch;
    const under = frame().elements.filter(({ rect: [ex, ey, ew, eh] }) => x >= ex && x < ex + ew && y >= ey && y < ey + eh);
    if (under.length) pick(under.reduce((a, b) => (a.rect[2] * a.rect[3] <= b.rect[2] * b.rect[3] ? a : b)).id);
  });

  // An id label goes just outside its element (above, below, then inside at the right), at the
  // first place that covers no text line and no other label; with no such place it is left out
  // (the table lists every id), so labels never hide the text being checked.
  function placeLabel(x, y, w, h, tw, th, taken) {
    const free = (r) => r[0] >= 0 && r[1] >= 0 && r[0] + r[2] <= cw && r[1] + r[3] <= ch
      && !taken.some((o) => r[0] < o[0] + o[2] && o[0] < r[0] + r[2] && r[1] < o[1] + o[3] && o[1] < r[1] + r[3]);
    for (const r of [[x, y - th, tw, th], [x, y + h, tw, th], [x + w - tw, y - th, tw, th], [x + w - tw, y + h, tw, th],
      [x + w - tw, y, tw, th], [x, y, tw, th]]) if (free(r)) return r;
    return null;
  }

  function drawOverlay() {
    const k = pointScale();
    // At most about 16 M canvas pixels (8x of a full-size iPhone would be 193 M): fewer canvas
    // pixels to a CSS pixel when zoomed that far.
    const ratio = Math.min(window.devicePixelRatio || 1, Math.sqrt(16e6 / (cw * k * ch * k)));
    const w = Math.round(cw * k * ratio), h = Math.round(ch * k * ratio);
    if (overlay.width !== w || overlay.height !== h) { overlay.width = w; overlay.height = h; }
    const g = overlay.getContext('2d');
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, w, h);
    const s = k * ratio;
    g.setTransform(s, 0, 0, s, 0, 0);
    const f = frame();
    let drawn = 0, hidden = 0;
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
    const taken = f.lines.map((l) => l.box);
    for (const e of f.elements) {
      const [x, y, ew, eh] = e.rect;
      if (e.id === hoverId) { g.fillStyle = 'rgba(255,45,85,0.25)'; g.fillRect(x, y, ew, eh); drawn++; }
      if (show.rects) { g.strokeStyle = COLORS.rects; g.lineWidth = 1 / s; g.strokeRect(x, y, ew, eh); drawn++; }
      if (show.ids) {
        g.font = `600 ${11 / s * ratio}px system-ui, sans-serif`;
        const tw = g.measureText(e.id).width + 6 / s * ratio, th = 14 / s * ratio;
        const at = placeLabel(x, y, ew, eh, tw, th, taken);
        if (!at) { hidden++; continue; }
        taken.push(at);
        g.fillStyle = 'rgba(255,255,255,0.85)'; g.fillRect(at[0], at[1], at[2], at[3]);
        g.fillStyle = COLORS.rects; g.fillText(e.id, at[0] + 3 / s * ratio, at[1] + 11 / s * ratio); drawn++;
      }
    }
    const measured = measure(f);
    if (measured) {
      g.strokeStyle = '#007aff'; g.lineWidth = 2 / s;
      for (const [x, y, ew, eh] of measured.rects) g.strokeRect(x, y, ew, eh);
      g.font = `600 ${11 / s * ratio}px system-ui, sans-serif`;
      for (const m of measured.lines) {
        if (m.length < 1e-6) continue;
        g.beginPath(); g.moveTo(m.x0, m.y0); g.lineTo(m.x1, m.y1); g.stroke();
        const text = fmt(m.length), tw = g.measureText(text).width + 6 / s * ratio, th = 14 / s * ratio;
        const lx = (m.x0 + m.x1) / 2 + (m.y0 === m.y1 ? -tw / 2 : 3 / s), ly = (m.y0 + m.y1) / 2 + (m.y0 === m.y1 ? 2 / s : -th / 2);
        g.fillStyle = '#007aff'; g.fillRect(lx, ly, tw, th);
        g.fillStyle = '#fff'; g.fillText(text, lx + 3 / s * ratio, ly + 11 / s * ratio);
        drawn++;
      }
    }
    if (show.rulers) {
      // Ticks every 10 pt along the top and left edges, longer and numbered every 50 pt.
      g.strokeStyle = 'rgba(0,0,0,0.55)'; g.fillStyle = 'rgba(0,0,0,0.7)'; g.lineWidth = 1 / s;
      g.font = `${9 / s * ratio}px system-ui, sans-serif`;
      g.beginPath();
      for (let t = 0; t <= Math.max(cw, ch); t += 10) {
        const long = t % 50 === 0 ? 8 : 4;
        if (t <= cw) { g.moveTo(t, 0); g.lineTo(t, long / s); if (long === 8 && t) g.fillText(String(t), t + 2 / s, 16 / s * ratio); }
        if (t <= ch) { g.moveTo(0, t); g.lineTo(long / s, t); if (long === 8 && t) g.fillText(String(t), 2 / s, t - 2 / s); }
      }
      g.stroke();
      drawn++;
    }
    overlay.dataset.shapes = String(drawn);
    overlay.dataset.hiddenLabels = String(hidden);
    // Where the labels went, in points (the tests check them against the text lines).
    overlay.labelBoxes = taken.slice(f.lines.length);
  }

  function play() {
    if (playing) return;
    playing = true;
    playButton.textContent = 'Pause';
    document.body.dataset.playing = 'true';
    for (const e of view().entries) new Image().src = source(D.states[e.s].frames[e.k]);
    if (ei === view().entries.length - 1) go(0);
    playStart = performance.now() - now * 1000 / speed;
    advance();
  }

  function pause() {
    playing = false;
    clearTimeout(timer);
    playButton.textContent = 'Play';
    document.body.dataset.playing = 'false';
  }

  // At the chosen speed of real time: an entry shows from its time until the next one's; the
  // view's last frame holds until `loop` (a settled state's for holdLastFrame seconds, an
  // interrupted one's, mid-motion, for one frame), then the view plays again, as the APNG does.
  // Timers wake exactly at the next frame's time (requestAnimationFrame would add up to a
  // display frame of lag, and does not run in background tabs or headless test runs).
  function advance() {
    if (!playing) return;
    const v = view();
    let elapsed = (performance.now() - playStart) / 1000 * speed;
    if (elapsed >= v.loop) {
      playStart += v.loop * 1000 / speed; elapsed -= v.loop;
      if (elapsed >= v.loop) { playStart = performance.now(); elapsed = 0; }
    }
    const k = indexAt(Math.min(elapsed, v.length));
    if (k !== ei || elapsed < now) go(k);
    const next = k + 1 < v.entries.length ? v.entries[k + 1].t : v.loop;
    timer = setTimeout(advance, Math.max(0, (next - elapsed) * 1000 / speed));
  }

  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === 'checkbox' && e.key === ' ') return;
    const keys = { ArrowLeft: () => { pause(); go(ei - 1); }, ArrowRight: () => { pause(); go(ei + 1); },
      Home: () => { pause(); go(0); }, End: () => { pause(); go(view().entries.length - 1); },
      ' ': () => (playing ? pause() : play()), ArrowUp: () => selectView(vi - 1), ArrowDown: () => selectView(vi + 1) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  }, true);

  // --watch: poll build.js and reload (keeping the place, which lives in the hash) when a new
  // build has landed. file:// pages cannot fetch, but they can load a script. A build that
  // failed names its error: shown over the last good frames, dimmed, until a good one lands.
  if (document.body.dataset.watch === 'true') {
    window.layoutsnapBuild = (id, error) => {
      if (error) {
        banner.replaceChildren(el('strong', {}, 'The last edit cannot be previewed: the frames below are the last good build.'),
          el('pre', {}, error));
        banner.hidden = false;
        document.body.dataset.buildError = 'true';
      } else if (id !== BUILD) {
        location.reload();
      } else {
        banner.hidden = true;
        delete document.body.dataset.buildError;
      }
    };
    setInterval(() => {
      const s = document.createElement('script');
      s.src = 'build.js?' + Date.now();
      s.onload = s.onerror = () => s.remove();
      document.head.append(s);
    }, 250);
  }

  renderView();
  showCompare();
  setSpeed(speed);
  setZoom(Number(params.get('zoom')) || 1);
  go(ei, now);
  ready = true;
  document.body.dataset.ready = 'true';
})();
