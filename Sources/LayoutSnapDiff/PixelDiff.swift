// The comparison driver.

import LayoutSnapCore

public enum PixelDiff {
    /// At most this many regions are reported; see `DiffResult.regions`.
    public static let maxRegions = 100

    /// Compares two premultiplied ARGB32 images of `width x height` pixels (stride == width).
    ///
    /// - Precondition: `a.count == width * height`, `b.count == width * height`, and
    ///   `diffImage?.count == width * height`. Images of different sizes are the caller's problem
    ///   (compare the sizes first and report a size mismatch). `diffImage` must not overlap `a`
    ///   or `b`.
    /// - Parameter diffImage: if given, receives an opaque ARGB32 diff image: image A's luma faded
    ///   onto white (`options.alpha`), counted differing pixels in `options.diffColor`, anti-aliased
    ///   ones (not counted) in `options.antialiasedColor`.
    ///
    /// Work: identical images cost one bulk comparison and no allocation. Otherwise equal words are
    /// skipped in bulk and only differing words get the YIQ and anti-aliasing tests (which run even
    /// with `includeAntialiasing`, to fill `antialiasedPixels`). Nothing of image size is
    /// allocated: the clusters are tracked in one streaming pass in O(width + 100) memory.
    /// Threshold values are used as pixelmatch uses them (squared; above 1 nothing is counted).
    public static func compare(
        _ a: UnsafeBufferPointer<UInt32>,
        _ b: UnsafeBufferPointer<UInt32>,
        width: Int,
        height: Int,
        options: DiffOptions = DiffOptions(),
        diffImage: UnsafeMutableBufferPointer<UInt32>? = nil
    ) -> DiffResult {
        compareMeasuring(
            a, b, width: width, height: height, options: options, diffImage: diffImage, drawWhenIdentical: true
        ).result
    }

    /// `compare`, and in the same pass `ExactDiff.measure`'s figures (with `invisibleAreEqual` as
    /// `options.straightAlpha`): every differing word goes through the scan anyway, so the exact
    /// figures cost no second read of two images that no longer fit in cache. With
    /// `drawWhenIdentical` false, identical images leave `diffImage` untouched (nobody looks at
    /// it), so they cost one bulk comparison and nothing more.
    static func compareMeasuring(
        _ a: UnsafeBufferPointer<UInt32>,
        _ b: UnsafeBufferPointer<UInt32>,
        width: Int,
        height: Int,
        options: DiffOptions,
        diffImage: UnsafeMutableBufferPointer<UInt32>?,
        drawWhenIdentical: Bool
    ) -> (result: DiffResult, exact: ExactDiff.Figures) {
        let none = ExactDiff.Figures(changedPixels: 0, maxChannelDifference: 0)
        precondition(width >= 0 && height >= 0, "negative image size")
        let (n, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(!overflow, "image size overflows")
        precondition(a.count == n, "image A has \(a.count) pixels, expected \(width)x\(height)")
        precondition(b.count == n, "image B has \(b.count) pixels, expected \(width)x\(height)")
        if let d = diffImage {
            precondition(d.count == n, "diff image has \(d.count) pixels, expected \(width)x\(height)")
        }
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else {
            return (.identical(width: width, height: height), none)
        }

        let first = pa == pb ? n : firstMismatch(pa, pb, from: 0, count: n)
        if first == n && !drawWhenIdentical {
            return (.identical(width: width, height: height), none)
        }
        if let d = diffImage?.baseAddress {
            // A mask is the differing pixels alone, on transparency.
            if options.diffMask {
                d.update(repeating: 0, count: n)
            } else {
                drawGray(pa, count: n, alpha: options.alpha, straight: options.straightAlpha, into: d)
            }
        }
        if first == n {
            return (.identical(width: width, height: height), none)
        }

        let out = diffImage?.baseAddress
        switch (options.transparencyBackground, options.straightAlpha) {
        case (.white, false):
            return scan(
                pa, pb, first: first, width: width, height: height, options: options, out: out, WhiteCompositor.self)
        case (.checkerboard, false):
            return scan(
                pa, pb, first: first, width: width, height: height, options: options, out: out,
                CheckerboardCompositor.self)
        case (.white, true):
            return scan(
                pa, pb, first: first, width: width, height: height, options: options, out: out,
                StraightWhiteCompositor.self)
        case (.checkerboard, true):
            return scan(
                pa, pb, first: first, width: width, height: height, options: options, out: out,
                StraightCheckerboardCompositor.self)
        }
    }

    /// The comparison from the first differing word on, specialised for the background.
    static func scan<C: Compositor>(
        _ pa: UnsafePointer<UInt32>, _ pb: UnsafePointer<UInt32>, first: Int, width: Int, height: Int,
        options: DiffOptions, out: UnsafeMutablePointer<UInt32>?, _: C.Type
    ) -> (result: DiffResult, exact: ExactDiff.Figures) {
        let n = width &* height
        var acc = Accumulator<C>(a: pa, b: pb, out: out, width: width, height: height, options: options)

        // Scan row by row, but run the per-pixel tests of row y only after row y + 2 was scanned:
        // the anti-aliasing test reads rows y - 2 ... y + 2 of both images, which are then still
        // in cache, instead of stalling on memory the scan has not streamed in yet.
        var pending: [Int] = []
        var head = 0
        let firstRow = first / width
        for r in firstRow..<height {
            let rowEnd = (r &+ 1) &* width
            var j = firstMismatch(pa, pb, from: r == firstRow ? first : r &* width, count: rowEnd)
            while j < rowEnd {
                pending.append(j)
                j = firstMismatch(pa, pb, from: j &+ 1, count: rowEnd)
            }
            let limit = (r &- 1) &* width  // indices of rows <= r - 2
            while head < pending.count && pending[head] < limit {
                acc.process(pending[head])
                head &+= 1
            }
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024 {
                pending.removeFirst(head)
                head = 0
            }
        }
        while head < pending.count {
            acc.process(pending[head])
            head &+= 1
        }

        let different = acc.different
        let antialiased = acc.antialiased
        let maxChannel = acc.maxChannel
        let (regions, clusters) = acc.regions.finish()
        let result = DiffResult(
            width: width, height: height,
            differentPixels: different,
            antialiasedPixels: antialiased,
            ratio: Double(different) / Double(n),
            maxChannelDifference: maxChannel,
            regions: regions,
            clusterCount: clusters,
            isIdentical: false)
        return (result, ExactDiff.Figures(changedPixels: acc.changed, maxChannelDifference: Int(acc.largestWordChange)))
    }

    /// Convenience for arrays (`a.count == b.count == width * height`).
    public static func compare(
        _ a: [UInt32], _ b: [UInt32], width: Int, height: Int, options: DiffOptions = DiffOptions()
    ) -> DiffResult {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                compare(a, b, width: width, height: height, options: options)
            }
        }
    }

    /// Convenience for arrays that also returns the diff image.
    public static func compareWithDiffImage(
        _ a: [UInt32], _ b: [UInt32], width: Int, height: Int, options: DiffOptions = DiffOptions()
    ) -> (result: DiffResult, diffImage: [UInt32]) {
        let n = a.count
        var result: DiffResult? = nil
        let image = [UInt32](unsafeUninitializedCapacity: n) { buf, count in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    result = compare(a, b, width: width, height: height, options: options, diffImage: buf)
                }
            }
            count = n
        }
        return (result!, image)
    }

    /// identical if every word is equal; similar if no pixel is counted as different, or if the
    /// count is within `tolerance.maxDiffPixels` or the ratio within `tolerance.maxDiffRatio` (each
    /// only when set, i.e. > 0); different otherwise.
    /// `maxChannelDifference`, when given, replaces the figures' own (see `FrameComparison`).
    public static func verdict(
        _ r: DiffResult, tolerance: DiffTolerance = DiffTolerance(),
        maxChannelDifference: Int? = nil
    ) -> Comparison {
        if r.isIdentical { return .identical }
        let figures = DiffFigures(r, maxChannelDifference: maxChannelDifference)
        if r.differentPixels == 0 { return .similar(figures) }
        if tolerance.maxDiffPixels > 0 && r.differentPixels <= tolerance.maxDiffPixels { return .similar(figures) }
        if tolerance.maxDiffRatio > 0 && r.ratio <= tolerance.maxDiffRatio { return .similar(figures) }
        return .different(figures)
    }

    /// Per-pixel tests for the words that differ, and the tallies.
    struct Accumulator<C: Compositor> {
        let a: UnsafePointer<UInt32>
        let b: UnsafePointer<UInt32>
        let out: UnsafeMutablePointer<UInt32>?
        let width: Int
        let height: Int
        let maxDelta: Double
        let includeAA: Bool
        let hood: Neighbourhood<C>
        let diffWord: UInt32
        let altWord: UInt32
        let aaWord: UInt32
        let straight: Bool
        let mask: Bool

        var different = 0
        var antialiased = 0
        var maxChannel = 0
        /// ExactDiff's figures: words that differ (two invisible straight words do not) and the
        /// largest difference of one byte of the word among them.
        var changed = 0
        var largestWordChange: UInt32 = 0
        var regions = RegionCollector(cap: PixelDiff.maxRegions)

        init(
            a: UnsafePointer<UInt32>, b: UnsafePointer<UInt32>, out: UnsafeMutablePointer<UInt32>?,
            width: Int, height: Int, options: DiffOptions
        ) {
            self.a = a
            self.b = b
            self.out = out
            self.width = width
            self.height = height
            // maximum acceptable squared YIQ distance; 35215 is the largest possible value
            maxDelta = 35215 * options.threshold * options.threshold
            includeAA = options.includeAntialiasing
            hood = Neighbourhood(width: width, height: height)
            diffWord = options.diffColor.argb32
            altWord = (options.diffColorAlt ?? options.diffColor).argb32
            aaWord = options.antialiasedColor.argb32
            straight = options.straightAlpha
            mask = options.diffMask
        }

        /// Tests pixel `i` (whose words differ). Pixels must come in raster order.
        @inline(__always)
        mutating func process(_ i: Int) {
            let wa = a[i]
            let wb = b[i]
            if !(straight && wa >> 24 == 0 && wb >> 24 == 0) {
                changed &+= 1
                largestWordChange = max(largestWordChange, ExactDiff.largestByteDifference(wa, wb))
            }
            let delta = colorDelta(wa, wb, k: i &* 4, C.self)
            guard abs(delta) > maxDelta else { return }
            let y = i / width
            let x = i &- y &* width
            let isAA = hood.antialiased(a, b, x1: x, y1: y) || hood.antialiased(b, a, x1: x, y1: y)
            if isAA { antialiased &+= 1 }
            if isAA && !includeAA {
                // pixelmatch leaves anti-aliased pixels out of a mask.
                if !mask { out?[i] = aaWord }
            } else {
                different &+= 1
                // pixelmatch 7: a negative delta means B is darker than A
                out?[i] = delta < 0 ? altWord : diffWord
                maxChannel = max(maxChannel, maxStraightChannelDifference(wa, wb, straight: straight))
                regions.add(x: x, y: y)
            }
        }
    }

    /// Fills `out` with pixelmatch's faded grayscale of `img` (opaque words).
    static func drawGray(
        _ img: UnsafePointer<UInt32>, count n: Int, alpha: Double, straight: Bool = false,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        // UI images are mostly long runs of one colour: cache the last conversion.
        var lastIn = img[0]
        var lastOut = grayPixel(lastIn, alpha: alpha, straight: straight)
        for i in 0..<n {
            let w = img[i]
            if w != lastIn {
                lastIn = w
                lastOut = grayPixel(w, alpha: alpha, straight: straight)
            }
            out[i] = lastOut
        }
    }
}

extension DiffResult {
    /// Shorthand for `PixelDiff.verdict(self, tolerance:)`.
    public func verdict(tolerance: DiffTolerance = DiffTolerance()) -> Comparison {
        PixelDiff.verdict(self, tolerance: tolerance)
    }
}

/// Free-function form of `PixelDiff.verdict(_:tolerance:)`.
public func verdict(_ r: DiffResult, tolerance: DiffTolerance = DiffTolerance()) -> Comparison {
    PixelDiff.verdict(r, tolerance: tolerance)
}
