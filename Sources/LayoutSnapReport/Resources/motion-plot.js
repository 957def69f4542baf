const MotionPlot = (() => {
  const esc = (t) => String(t).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
  const L = 46, R = 8, T = 8, B = 18;
  const fixed = (x) => (Math.round(x * 10) / 10).toString();
  // series: [{ values, times, cls, dots: Set of frame indices to mark, dotCls, entries }]; tmax
  // shared by the plots of a state so their cursors line up. opts (the preview's):
  // width and height; every: a dot on each frame of the series that has `entries` (the frame
  // it jumps to when clicked); targets: [{ t0, t1, value }]; overshoots: [{ t, value, label }];
  // bands: [{ t, label }], where a state begins; holdAfter: a gap between two frames longer than
  // this (seconds) is a hold then a jump, not a slope (an instant step changes a value at once).
  function svg(label, series, tmax, opts = {}) {
    const W = opts.width || 300, H = opts.height || 96;
    tmax = Math.max(1e-9, tmax);
    const all = series.flatMap((s) => s.values.filter((v) => v !== null && v !== undefined))
      .concat((opts.targets || []).map((m) => m.value));
    let lo = Math.min(...all), hi = Math.max(...all);
    if (!(hi > lo)) { lo -= 1; hi += 1; }
    const X = (t) => L + (W - L - R) * t / tmax;
    const Y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    let out = '<svg viewBox="0 0 ' + W + ' ' + H + '" width="' + W + '" height="' + H + '" role="img" aria-label="' + esc(label) + '">'
      + '<rect class="frame" x="' + L + '" y="' + T + '" width="' + (W - L - R) + '" height="' + (H - T - B) + '"/>'
      + '<text class="tick" x="' + (L - 4) + '" y="' + (T + 8) + '" text-anchor="end">' + esc(fixed(hi)) + '</text>'
      + '<text class="tick" x="' + (L - 4) + '" y="' + (H - B) + '" text-anchor="end">' + esc(fixed(lo)) + '</text>'
      + '<text class="tick" x="' + L + '" y="' + (H - 4) + '">0 s</text>'
      + '<text class="tick" x="' + (W - R) + '" y="' + (H - 4) + '" text-anchor="end">' + esc(tmax.toFixed(2)) + ' s</text>';
    for (const b of opts.bands || []) {
      const x = X(b.t).toFixed(1);
      out += '<line class="band" x1="' + x + '" x2="' + x + '" y1="' + T + '" y2="' + (H - B) + '"/>'
        + '<text class="band-label" x="' + (Number(x) + 3) + '" y="' + (T + 10) + '">' + esc(b.label) + '</text>';
    }
    for (const m of opts.targets || []) {
      const y = Y(m.value).toFixed(1);
      out += '<line class="target" x1="' + X(m.t0).toFixed(1) + '" x2="' + X(m.t1).toFixed(1) + '" y1="' + y + '" y2="' + y + '">'
        + '<title>target ' + esc(fixed(m.value)) + '</title></line>';
    }
    for (const s of series) {
      let d = '', pen = false, before = 0;
      s.values.forEach((v, i) => {
        if (v === null || v === undefined || i >= s.times.length) { pen = false; return; }
        if (pen && opts.holdAfter && s.times[i] - s.times[i - 1] > opts.holdAfter) d += 'L' + X(s.times[i]).toFixed(1) + ' ' + Y(before).toFixed(1);
        d += (pen ? 'L' : 'M') + X(s.times[i]).toFixed(1) + ' ' + Y(v).toFixed(1);
        pen = true;
        before = v;
      });
      out += '<path class="' + s.cls + '" d="' + d + '"/>';
    }
    for (const s of series) {
      const every = opts.every && s.entries;
      if (!s.dots && !every) continue;
      s.values.forEach((v, i) => {
        if (v === null || v === undefined || i >= s.times.length) return;
        if (every) {
          out += '<circle class="frame-dot" data-entry="' + s.entries[i] + '" cx="' + X(s.times[i]).toFixed(1) + '" cy="' + Y(v).toFixed(1)
            + '" r="3"><title>' + esc(s.labels ? s.labels[i] : 'frame ' + i) + ': ' + esc(fixed(v)) + '</title></circle>';
        } else if (s.dots.has(i)) {
          out += '<circle class="' + s.dotCls + '" cx="' + X(s.times[i]).toFixed(1) + '" cy="' + Y(v).toFixed(1) + '" r="2.6"><title>frame ' + i + '</title></circle>';
        }
      });
    }
    for (const o of opts.overshoots || []) {
      const x = X(o.t), y = Y(o.value);
      const right = x < W - 160;
      out += '<circle class="overshoot" cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="5"/>'
        + '<text class="overshoot-label" x="' + (right ? x + 8 : x - 8).toFixed(1) + '" y="' + (y < H / 2 ? y + 16 : y - 8).toFixed(1)
        + '"' + (right ? '' : ' text-anchor="end"') + '>' + esc(o.label) + '</text>';
    }
    return out + '<line class="cursor" x1="' + L + '" x2="' + L + '" y1="' + T + '" y2="' + (H - B) + '" data-x0="' + L + '" data-x1="' + (W - R) + '"/></svg>';
  }
  // Moves every cursor line in `root` to time t (each plot knows its own width).
  function cursor(root, t, tmax) {
    tmax = Math.max(1e-9, tmax);
    const f = Math.min(Math.max(0, Number(t) || 0), tmax) / tmax;
    for (const c of root.querySelectorAll('line.cursor')) {
      const x0 = Number(c.dataset.x0), x1 = Number(c.dataset.x1);
      const x = (x0 + (x1 - x0) * f).toFixed(1);
      c.setAttribute('x1', x); c.setAttribute('x2', x);
    }
  }
  return { svg, cursor };
})();
