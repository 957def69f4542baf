import Foundation

/// A Gaussian blur approximated by three successive box blurs (box widths chosen so the variance
/// matches sigma²), each a running sum: O(1) per pixel whatever the radius.
///
/// A shadow's mask is a rounded rectangle: between its corners, whole columns (and whole rows) are
/// identical, and stay identical through every pass. `blurA8Collapsing` blurs a copy in which
/// each such run is cut down to the few columns (rows) the blur can tell apart, then spreads the
/// result back: the same bytes as `blurA8`, for the cost of the corners and a copy.
enum GaussianBlur {
    /// Widths of `passes` boxes whose combined variance is closest to sigma².
    static func boxWidths(sigma: Double, passes: Int = 3) -> [Int] {
        let n = Double(passes)
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let l = Double(lower)
        let m = ((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded()
        return (0..<passes).map { Double($0) < m ? lower : upper }
    }

    static func blurA8(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        guard sigma > 0.01, width > 0, height > 0 else { return }
        let widths = boxWidths(sigma: sigma)
        var scratch = [UInt8](repeating: 0, count: max(width, height))
        scratch.withUnsafeMutableBufferPointer { tmp in
            for w in widths {
                let r = (w - 1) / 2
                for y in 0..<height {
                    boxPass(data + y * stride, step: 1, count: width, radius: r, tmp: tmp.baseAddress!)
                }
                for x in 0..<width {
                    boxPass(data + x, step: stride, count: height, radius: r, tmp: tmp.baseAddress!)
                }
            }
        }
    }

    /// One box blur along a line of `count` samples `step` apart; outside the line is 0.
    @inline(__always)
    private static func boxPass(
        _ line: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius r: Int, tmp: UnsafeMutablePointer<UInt8>
    ) {
        for i in 0..<count { tmp[i] = line[i * step] }
        let width = UInt32(2 * r + 1)
        let half = width / 2
        var sum: UInt32 = 0
        for i in 0..<min(r, count) { sum += UInt32(tmp[i]) }
        for i in 0..<count {
            let enter = i + r
            if enter < count { sum += UInt32(tmp[enter]) }
            line[i * step] = UInt8((sum + half) / width)
            let leave = i - r
            if leave >= 0 { sum -= UInt32(tmp[leave]) }
        }
    }

    /// How far (in pixels) a pixel's value can reach through all the passes: the sum of the
    /// boxes' radii. Pixels further apart than this never influence each other.
    static func reach(sigma: Double) -> Int {
        boxWidths(sigma: sigma).reduce(0) { $0 + ($1 - 1) / 2 }
    }

    /// The same result as `blurA8`, byte for byte, computed on a smaller copy when the mask has a
    /// long run of identical columns or rows through its middle (a rounded rectangle's straight
    /// sides). Exact by construction: a pixel's result depends only on the pixels within `reach`
    /// of it, so a column whose neighbourhood is all identical columns gets the value of any other
    /// such column, and keeping 2 x reach + 1 of the run is enough for the columns beside it.
    static func blurA8Collapsing(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double
    ) {
        guard sigma > 0.01, width > 0, height > 0 else { return }
        let r = reach(sigma: sigma)
        let columns = identicalColumns(data, width: width, height: height, stride: stride)
        let rows = identicalRows(data, width: width, height: height, stride: stride)
        // Worth it only when a run is much longer than what must be kept of it.
        let keep = 2 * r + 1
        let cut = Collapse(run: columns, keep: keep, length: width)
        let rowCut = Collapse(run: rows, keep: keep, length: height)
        guard cut.removed > 0 || rowCut.removed > 0 else {
            blurA8(data, width: width, height: height, stride: stride, sigma: sigma)
            return
        }
        let pw = width - cut.removed
        let ph = height - rowCut.removed
        var proxy = [UInt8](repeating: 0, count: pw * ph)
        proxy.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            // Copy the kept rows and columns in.
            for py in 0..<ph {
                let src = data + rowCut.source(py) * stride
                let dst = p + py * pw
                cut.forEachSegment { from, to, count in dst.advanced(by: to).update(from: src + from, count: count) }
            }
            blurA8(p, width: pw, height: ph, stride: pw, sigma: sigma)
            // Spread back: each full row from its proxy row, the run's middle from its centre.
            for y in 0..<height {
                let src = p + rowCut.proxyIndex(y, reach: r) * pw
                let dst = data + y * stride
                cut.spread(from: src, to: dst, reach: r)
            }
        }
    }

    /// How a run of identical columns (or rows) [lo, hi] is cut down to `keep` of them: the full
    /// index `lo + keep` up to `hi` is removed, and everything after it moves left by `removed`.
    struct Collapse {
        var lo = 0, hi = -1, keep = 0, length = 0
        var removed: Int { hi >= lo ? max(0, (hi - lo + 1) - keep) : 0 }

        init(run: (lo: Int, hi: Int)?, keep: Int, length: Int) {
            self.keep = keep
            self.length = length
            // A saving of a few columns is not worth a copy.
            if let run, run.hi - run.lo + 1 > keep + 16 {
                lo = run.lo
                hi = run.hi
            }
        }

        /// The full index a proxy index copies from.
        func source(_ p: Int) -> Int { removed == 0 || p < lo + keep ? p : p + removed }

        /// The proxy index a full index takes its result from: itself left of the run's middle,
        /// shifted right of it, the kept block's centre in between.
        func proxyIndex(_ i: Int, reach r: Int) -> Int {
            guard removed > 0 else { return i }
            if i <= lo + r { return i }
            if i >= hi - r { return i - removed }
            return lo + r
        }

        /// A full line from its blurred proxy line: the left part as it is, the run's middle from
        /// the kept block's centre, the right part shifted back.
        func spread(from proxy: UnsafePointer<UInt8>, to line: UnsafeMutablePointer<UInt8>, reach r: Int) {
            guard removed > 0 else {
                line.update(from: proxy, count: length)
                return
            }
            line.update(from: proxy, count: lo + r + 1)
            (line + lo + r + 1).update(repeating: proxy[lo + r], count: hi - r - (lo + r + 1))
            (line + hi - r).update(from: proxy + lo + r, count: length - (hi - r))
        }

        /// Spans copied from a full line into a proxy line: (full start, proxy start, count).
        func forEachSegment(_ body: (Int, Int, Int) -> Void) {
            guard removed > 0 else {
                body(0, 0, length)
                return
            }
            body(0, 0, lo + keep)
            body(lo + keep + removed, lo + keep, length - (lo + keep + removed))
        }
    }

    /// The run of identical whole columns through the middle column, or nil.
    static func identicalColumns(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) -> (
        lo: Int, hi: Int
    )? {
        let c = width / 2
        var lo = 0
        var hi = width - 1
        for y in 0..<height {
            let row = data + y * stride
            let v = row[c]
            var l = c
            while l > lo && row[l - 1] == v { l -= 1 }
            var h = c
            while h < hi && row[h + 1] == v { h += 1 }
            lo = l
            hi = h
            if hi - lo < 32 { return nil }
        }
        return (lo, hi)
    }

    /// The run of identical whole rows through the middle row, or nil.
    static func identicalRows(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) -> (
        lo: Int, hi: Int
    )? {
        let c = height / 2
        let middle = data + c * stride
        var lo = c
        var hi = c
        while lo > 0 && memcmp(data + (lo - 1) * stride, middle, width) == 0 { lo -= 1 }
        while hi < height - 1 && memcmp(data + (hi + 1) * stride, middle, width) == 0 { hi += 1 }
        return hi - lo < 32 ? nil : (lo, hi)
    }
}
