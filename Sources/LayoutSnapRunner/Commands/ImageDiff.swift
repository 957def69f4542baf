import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapReport

/// `layoutsnap diff A.png B.png`: the comparison verify makes (`FrameComparison`), on any two
/// PNG files, with the same verdict and the same words.
public struct ImageDiff: Sendable {
    public var expectedPath: String
    public var actualPath: String
    /// Where to write the diff image, if anywhere.
    public var output: String?
    /// nil: exact, as verify without a fixture tolerance.
    public var tolerance: Tolerance?

    public init(expected: String, actual: String, output: String? = nil, tolerance: Tolerance? = nil) {
        self.expectedPath = expected; self.actualPath = actual; self.output = output; self.tolerance = tolerance
    }

    public struct Result: Sendable {
        /// identical, similar or different (a size mismatch is different).
        public var verdict: DiffVerdict
        /// What to print, in order.
        public var lines: [String]
        /// 0 identical or similar, 1 different: the same mapping as a verify frame's.
        public var outcome: Outcome { verdict == .different ? .failed : .passed }
    }

    public func run() throws(RunnerError) -> Result {
        if let output { try OutputPaths.file(output, option: "--out") }
        let expected = try load(expectedPath), actual = try load(actualPath)
        guard expected.width == actual.width, expected.height == actual.height else {
            var lines = ["size differs: \(expectedPath) is \(expected.width) x \(expected.height), \(actualPath) is \(actual.width) x \(actual.height)"]
            // No diff image for images of two sizes: an older one at --out must not pass for this one's.
            if let output, unlink(output) == 0 { lines.append("no diff image: \(output) from an earlier run was removed") }
            return Result(verdict: .different, lines: lines + ["different"])
        }
        var diffImage = output == nil ? [] : [UInt32](repeating: 0, count: expected.width * expected.height)
        let comparison = expected.pixels.withUnsafeBufferPointer { pa in
            actual.pixels.withUnsafeBufferPointer { pb in
                diffImage.withUnsafeMutableBufferPointer { d in
                    FrameComparison.compare(expected: pa, actual: pb, width: expected.width, height: expected.height,
                                            tolerance: tolerance, diffImage: output == nil ? nil : d)
                }
            }
        }
        if let output {
            // Identical images leave no diff picture from the comparison: the expected image faded
            // is what a diff of equal images shows, so draw it the same way.
            if comparison.diff == nil {
                diffImage.withUnsafeMutableBufferPointer { d in
                    expected.pixels.withUnsafeBufferPointer { pa in
                        _ = PixelDiff.compare(pa, pa, width: expected.width, height: expected.height, options: DiffOptions(), diffImage: d)
                    }
                }
            }
            let png = diffImage.withUnsafeBufferPointer {
                PNGEncoder.encode(pixels: $0.baseAddress!, width: expected.width, height: expected.height, stride: expected.width)
            }
            try AtomicFile.write(png, to: output)
        }
        var lines = [comparison.message]
        let regions = comparison.diff?.regions ?? []
        for region in regions.prefix(20) { lines.append("  region x \(region.x), y \(region.y), \(region.width) x \(region.height)") }
        if regions.count > 20 { lines.append("  and \(regions.count - 20) more regions") }
        if comparison.verdict == .different && tolerance == nil {
            lines.append("different (exact comparison; --threshold, --max-diff-pixels or --max-diff-ratio allow a tolerance, as a fixture's \"tolerance\" does)")
        } else {
            lines.append("\(comparison.verdict)")
        }
        return Result(verdict: comparison.verdict, lines: lines)
    }

    private func load(_ path: String) throws(RunnerError) -> PixelImage {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunnerError.usage("\(path): cannot be read")
        }
        do {
            return try PNGDecoder.decode([UInt8](data))
        } catch {
            throw RunnerError.usage("\(path): \(error.description)")
        }
    }
}
