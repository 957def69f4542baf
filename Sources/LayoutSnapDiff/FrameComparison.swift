import LayoutSnapCore
import Foundation

/// The one comparison of an expected and an actual image, shared by `verify`, `record --update
/// changed` and `layoutsnap diff`, so that the same two images get the same verdict and the same
/// words everywhere.
///
/// Exact by default: without a tolerance any changed pixel makes the pair different, and the
/// perceptual figures only describe the change. With a tolerance (a fixture's `tolerance`, or
/// any of diff's tolerance options) the perceptual diff decides: a pair whose counted pixels
/// are within `maxDiffPixels` or `maxDiffRatio` (or whose changes all fall below `threshold`)
/// is similar.
public enum FrameComparison {
    public struct Outcome: Sendable, Equatable {
        /// What the report receives: the verdict with its figures.
        public var comparison: Comparison
        /// Every changed word and the largest channel difference among them.
        public var exact: ExactDiff.Figures
        /// The perceptual diff (nil when identical).
        public var diff: DiffResult?

        /// `0 pixels differ (identical)`, or the figures of `describe`.
        public var message: String {
            guard let diff else { return "0 pixels differ (identical)" }
            return FrameComparison.describe(diff, exact: exact)
        }
    }

    /// Compares two images of the same size (premultiplied ARGB words, row by row). `diffImage`,
    /// when given, receives the diff picture (only written when some words differ).
    /// `drawing` sets how the pixels are read and the diff image drawn (straight alpha, the
    /// background, colours, mask); the tolerance sets the threshold and anti-aliasing.
    public static func compare(
        expected: UnsafeBufferPointer<UInt32>, actual: UnsafeBufferPointer<UInt32>, width: Int, height: Int,
        tolerance: Tolerance?, diffImage: UnsafeMutableBufferPointer<UInt32>? = nil,
        drawing: DiffOptions = DiffOptions()
    ) -> Outcome {
        var options = drawing
        options.threshold = tolerance?.threshold ?? Tolerance().threshold
        options.includeAntialiasing = tolerance?.includeAntialiasing ?? false
        // One scan gives both: the perceptual diff and the exact figures (equal words: its bulk
        // comparison alone, and no picture). Straight words may differ in the colour under
        // alpha 0, which nobody sees (an exporter may rewrite it): those pixels are equal.
        let (diff, exact) = PixelDiff.compareMeasuring(
            expected, actual, width: width, height: height, options: options,
            diffImage: diffImage, drawWhenIdentical: false)
        if exact.changedPixels == 0 { return Outcome(comparison: .identical, exact: exact, diff: nil) }
        // Words differ here, so the perceptual verdict is similar or different, never identical.
        // The largest channel difference is over every changed pixel, not only the ones the
        // perceptual diff counts: a frame can fail on changes too faint to count.
        let comparison =
            tolerance.map {
                PixelDiff.verdict(
                    diff, tolerance: DiffTolerance(maxDiffPixels: $0.maxDiffPixels, maxDiffRatio: $0.maxDiffRatio),
                    maxChannelDifference: exact.maxChannelDifference)
            } ?? .different(DiffFigures(diff, maxChannelDifference: exact.maxChannelDifference))
        return Outcome(comparison: comparison, exact: exact, diff: diff)
    }

    /// `2210 pixels differ (0.41%), largest channel difference 255, 707 anti-aliased not counted`;
    /// when changes fall under the perceptual threshold, how many pixels changed at all.
    public static func describe(_ d: DiffResult, exact: ExactDiff.Figures) -> String {
        let percent = d.ratio * 100
        let ratio = percent >= 0.01 || d.differentPixels == 0 ? String(format: "%.2f%%", percent) : "<0.01%"
        var s =
            "\(Plural.count(d.differentPixels, "pixel")) \(Plural.word(d.differentPixels, "differs", "differ")) (\(ratio)), largest channel difference \(exact.maxChannelDifference)"
        if d.antialiasedPixels > 0 { s += ", \(d.antialiasedPixels) anti-aliased not counted" }
        let uncounted = exact.changedPixels - d.differentPixels - d.antialiasedPixels
        if uncounted > 0 { s += ", \(uncounted) changed below the threshold" }
        return s
    }
}

/// Exact comparison of premultiplied ARGB words.
public enum ExactDiff {
    public struct Figures: Sendable, Equatable {
        /// Pixels whose words differ at all.
        public var changedPixels: Int
        /// The largest difference of one channel (A, R, G or B) among them.
        public var maxChannelDifference: Int
    }

    public static func count(_ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>) -> Int {
        measure(a, b).changedPixels
    }

    /// `invisibleAreEqual`: two fully transparent straight words are equal whatever their colour.
    public static func measure(
        _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, invisibleAreEqual: Bool = false
    ) -> Figures {
        precondition(a.count == b.count)
        if a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count * 4) == 0 {
            return Figures(changedPixels: 0, maxChannelDifference: 0)
        }
        var n = 0
        var largest: UInt32 = 0
        let pa = a.baseAddress!
        let pb = b.baseAddress!
        let count = a.count
        @inline(__always) func tally(_ i: Int) {
            let x = pa[i]
            let y = pb[i]
            guard x != y else { return }
            if invisibleAreEqual && x >> 24 == 0 && y >> 24 == 0 { return }
            n &+= 1
            largest = max(largest, largestByteDifference(x, y))
        }
        // Eight words at a time: equal blocks, nearly all of them, cost one vector comparison.
        var i = 0
        while i &+ 8 <= count {
            let x = UnsafeRawPointer(pa + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let y = UnsafeRawPointer(pb + i).loadUnaligned(as: SIMD8<UInt32>.self)
            if x != y { for k in i..<(i &+ 8) { tally(k) } }
            i &+= 8
        }
        while i < count {
            tally(i)
            i &+= 1
        }
        return Figures(changedPixels: n, maxChannelDifference: Int(largest))
    }

    /// The largest difference between corresponding bytes (channels) of two words.
    @inline(__always)
    static func largestByteDifference(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var largest: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let p = (x >> shift) & 0xFF
            let q = (y >> shift) & 0xFF
            largest = max(largest, p > q ? p &- q : q &- p)
            shift &+= 8
        }
        return largest
    }
}
