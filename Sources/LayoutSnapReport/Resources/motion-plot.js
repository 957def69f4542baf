const MotionPlot = (() => {
  const esc = (t) => String(t).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
  const W = 300, H = 96, L = 46, R = 8, T = 8, B = 18;
  // series: [{ values, times, cls, dots: Set of frame indices to mark, dotCls }]; tmax shared
  // by the plots of a state so their cursors line up.
  function svg(label, series, tmax) {
    tmax = Math.max(1e-9, tmax);
    const all = series.flatMap((s) => s.values.filter((v) => v !== null && v !== undefined));
    let lo = Math.min(...all), hi = Math.max(...all);
    if (!(hi > lo)) { lo -= 1; hi += 1; }
    const X = (t) => L + (W - L - R) * t / tmax;
    const Y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    const fixed = (x) => (Math.round(x * 10) / 10).toString();
    let out = '<svg viewBox="0 0 ' + W + ' ' + H + '" width="' + W + '" height="' + H + '" role="img" aria-label="' + esc(label) + '">'
      + '<rect class="frame" x="' + L + '" y="' + T + '" width="' + (W - L - R) + '" height="' + (H - T - B) + '"/>'
      + '<text class="tick" x="' + (L - 4) + '" y="' + (T + 8) + '" text-anchor="end">' + esc(fixed(hi)) + '</text>'
      + '<text class="tick" x="' + (L - 4) + '" y="' + (H - B) + '" text-anchor="end">' + esc(fixed(lo)) + '</text>'
      + '<text class="tick" x="' + L + '" y="' + (H - 4) + '">0 s</text>'
      + '<text class="tick" x="' + (W - R) + '" y="' + (H - 4) + '" text-anchor="end">' + esc(tmax.toFixed(2)) + ' s</text>';
    for (const s of series) {
      let d = '', pen = false;
      s.values.forEach((v, i) => {
        if (v === null || v === undefined || i >= s.times.length) { pen = false; return; }
        d += (pen ? 'L' : 'M') + X(s.times[i]).toFixed(1) + ' ' + Y(v).toFixed(1);
        pen = true;
      });
      out += '<path class="' + s.cls + '" d="' + d + '"/>';
    }
    for (const s of series) {
      if (!s.dots) continue;
      s.values.forEach((v, i) => {
        if (!s.dots.has(i) || v === null || v === undefined || i >= s.times.length) return;
        out += '<circle class="' + s.dotCls + '" cx="' + X(s.times[i]).toFixed(1) + '" cy="' + Y(v).toFixed(1) + '" r="2.6"><title>frame ' + i + '</title></circle>';
      });
    }
    return out + '<line class="cursor" x1="' + L + '" x2="' + L + '" y1="' + T + '" y2="' + (H - B) + '"/></svg>';
  }
  // Moves every cursor line in `root` to time t.
  function cursor(root, t, tmax) {
    tmax = Math.max(1e-9, tmax);
    const x = (L + (W - L - R) * Math.min(Math.max(0, Number(t) || 0), tmax) / tmax).toFixed(1);
    for (const c of root.querySelectorAll('line.cursor')) { c.setAttribute('x1', x); c.setAttribute('x2', x); }
  }
  return { svg, cursor };
})();
