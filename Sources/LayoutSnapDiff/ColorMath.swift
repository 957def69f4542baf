// Colour arithmetic of pixelmatch, on premultiplied ARGB32 words.
//
// pixelmatch composites a translucent straight-alpha colour `c` (alpha `a`) onto a background `bg`
// as `c * a / 255 + bg * (255 - a) / 255`. With premultiplied input `p = c * a / 255` that is
// `p + bg * (255 - a) / 255`, so for the white background the composite is the integer
// `p + 255 - a` and the difference of two composites is `(p1 - a1) - (p2 - a2)`: no division.

import LayoutSnapCore

@inline(__always)
func channel(_ w: UInt32, _ shift: UInt32) -> Int {
    Int(truncatingIfNeeded: (w &>> shift) & 0xFF)
}

/// Straight (un-premultiplied) value of a premultiplied channel `c` with alpha `a`.
@inline(__always)
func unpremultiply(_ c: Int, _ a: Int) -> Int {
    if a == 255 { return c }
    if a == 0 { return 0 }
    return min(255, (c &* 255 &+ a / 2) / a)
}

/// How translucent pixels are composited before comparison. Static dispatch: the per-pixel code
/// is specialised for each background.
protocol Compositor {
    /// Differences (P composite - Q composite) of the R, G, B channels of two pixels after
    /// compositing them onto the background. `k` is pixelmatch's byte offset of the pixel
    /// (4 * index), which picks the checkerboard colour in pixelmatch 7.
    static func differences(_ p: UInt32, _ q: UInt32, k: Int) -> (Double, Double, Double)
}

/// pixelmatch <= 6: composite onto white. Exact integer arithmetic on premultiplied words.
enum WhiteCompositor: Compositor {
    @inline(__always)
    static func differences(_ p: UInt32, _ q: UInt32, k: Int) -> (Double, Double, Double) {
        let ap = channel(p, 24)
        let aq = channel(q, 24)
        return (
            Double((channel(p, 16) &- ap) &- (channel(q, 16) &- aq)),
            Double((channel(p, 8) &- ap) &- (channel(q, 8) &- aq)),
            Double((channel(p, 0) &- ap) &- (channel(q, 0) &- aq))
        )
    }
}

/// pixelmatch 7's background for the pixel at byte offset `k`: each channel 48 or 207.
@inline(__always)
func checkerboard(_ k: Int) -> (Int, Int, Int) {
    (
        48 &+ 159 &* (k & 1),
        48 &+ 159 &* (Int(Double(k) / 1.618033988749895) & 1),
        48 &+ 159 &* (Int(Double(k) / 2.618033988749895) & 1)
    )
}

/// pixelmatch 7's difference of two pixels over its checkerboard, `(c1 * a1 - c2 * a2 - bg *
/// (a1 - a2)) / 255` with straight `c`: integers, then one division, as pixelmatch computes it.
/// From premultiplied words `c * a` is 255 times the stored channel, so no division is lost.
@inline(__always)
func checkerboardDifferences(_ p: UInt32, _ q: UInt32, k: Int, premultiplied: Bool) -> (Double, Double, Double) {
    let ap = channel(p, 24)
    let aq = channel(q, 24)
    if ap == 255 && aq == 255 {
        return (
            Double(channel(p, 16) &- channel(q, 16)), Double(channel(p, 8) &- channel(q, 8)),
            Double(channel(p, 0) &- channel(q, 0))
        )
    }
    let da = ap &- aq
    let (rb, gb, bb) = checkerboard(k)
    @inline(__always) func times(_ w: UInt32, _ shift: UInt32, _ a: Int) -> Int {
        premultiplied ? 255 &* channel(w, shift) : channel(w, shift) &* a
    }
    return (
        Double(times(p, 16, ap) &- times(q, 16, aq) &- rb &* da) / 255,
        Double(times(p, 8, ap) &- times(q, 8, aq) &- gb &* da) / 255,
        Double(times(p, 0, ap) &- times(q, 0, aq) &- bb &* da) / 255
    )
}

/// pixelmatch 7 on premultiplied words (verify's renders).
enum CheckerboardCompositor: Compositor {
    @inline(__always)
    static func differences(_ p: UInt32, _ q: UInt32, k: Int) -> (Double, Double, Double) {
        checkerboardDifferences(p, q, k: k, premultiplied: true)
    }
}

/// pixelmatch <= 6 on straight words: each translucent pixel blended with white on its own,
/// `255 + (c - 255) * a / 255`, in floating point as pixelmatch does.
enum StraightWhiteCompositor: Compositor {
    @inline(__always)
    static func blended(_ w: UInt32) -> (Double, Double, Double) {
        let a = channel(w, 24)
        let r = Double(channel(w, 16))
        let g = Double(channel(w, 8))
        let b = Double(channel(w, 0))
        if a == 255 { return (r, g, b) }
        let f = Double(a) / 255
        return (255 + (r - 255) * f, 255 + (g - 255) * f, 255 + (b - 255) * f)
    }

    @inline(__always)
    static func differences(_ p: UInt32, _ q: UInt32, k: Int) -> (Double, Double, Double) {
        let x = blended(p)
        let y = blended(q)
        return (x.0 - y.0, x.1 - y.1, x.2 - y.2)
    }
}

/// pixelmatch 7 on straight words (`layoutsnap diff`).
enum StraightCheckerboardCompositor: Compositor {
    @inline(__always)
    static func differences(_ p: UInt32, _ q: UInt32, k: Int) -> (Double, Double, Double) {
        checkerboardDifferences(p, q, k: k, premultiplied: false)
    }
}

@inline(__always)
func luma(_ dr: Double, _ dg: Double, _ db: Double) -> Double {
    dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
}

/// pixelmatch's colorDelta: the squared YIQ distance, negative when Q is darker than P
/// (pixelmatch 7's sign convention). Returns 0 only for equal composites.
@inline(__always)
func colorDelta<C: Compositor>(_ p: UInt32, _ q: UInt32, k: Int, _: C.Type) -> Double {
    let (dr, dg, db) = C.differences(p, q, k: k)
    let y = luma(dr, dg, db)
    let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return y > 0 ? -delta : delta
}

/// pixelmatch's colorDelta(..., yOnly = true): the brightness difference of `p` minus `q`.
@inline(__always)
func brightnessDelta<C: Compositor>(_ p: UInt32, _ q: UInt32, k: Int, _: C.Type) -> Double {
    if p == q { return 0 }
    let (dr, dg, db) = C.differences(p, q, k: k)
    return luma(dr, dg, db)
}

/// pixelmatch's drawGrayPixel: image A's luma faded onto white by `alpha`, as an opaque word.
/// The value is truncated like a JavaScript `Uint8Array` store.
@inline(__always)
func grayPixel(_ w: UInt32, alpha: Double, straight: Bool = false) -> UInt32 {
    let a = channel(w, 24)
    let r = straight ? channel(w, 16) : unpremultiply(channel(w, 16), a)
    let g = straight ? channel(w, 8) : unpremultiply(channel(w, 8), a)
    let b = straight ? channel(w, 0) : unpremultiply(channel(w, 0), a)
    let y = Double(r) * 0.29889531 + Double(g) * 0.58662247 + Double(b) * 0.11448223
    // pixelmatch's order of operations for straight words: blend(y, alpha * a / 255).
    let val = straight ? 255 + (y - 255) * (alpha * Double(a) / 255) : 255 + (y - 255) * alpha * Double(a) / 255
    let v: UInt32
    if val >= 255 {
        v = 255
    } else if val > 0 {
        v = UInt32(val)  // truncation toward zero
    } else {
        v = 0  // also NaN
    }
    return 0xFF00_0000 | v << 16 | v << 8 | v
}

/// Largest |A - B| over the straight R, G, B, A channels.
@inline(__always)
func maxStraightChannelDifference(_ p: UInt32, _ q: UInt32, straight: Bool = false) -> Int {
    let ap = channel(p, 24)
    let aq = channel(q, 24)
    if straight {
        return max(
            abs(ap &- aq), abs(channel(p, 16) &- channel(q, 16)), abs(channel(p, 8) &- channel(q, 8)),
            abs(channel(p, 0) &- channel(q, 0)))
    }
    var m = abs(ap &- aq)
    m = max(m, abs(unpremultiply(channel(p, 16), ap) &- unpremultiply(channel(q, 16), aq)))
    m = max(m, abs(unpremultiply(channel(p, 8), ap) &- unpremultiply(channel(q, 8), aq)))
    m = max(m, abs(unpremultiply(channel(p, 0), ap) &- unpremultiply(channel(q, 0), aq)))
    return m
}
