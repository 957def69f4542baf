import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapImaging
import LayoutSnapReport
import LayoutSnapSystem

/// `layoutsnap diff A.png B.png`: the comparison verify makes (`FrameComparison`), on any two
/// PNG files, with the same verdict and the same words.
public struct ImageDiff: Sendable {
    public var expectedPath: String
    public var actualPath: String
    /// Where to write the diff image, if anywhere.
    public var output: String?
    /// nil: exact, as verify without a fixture tolerance.
    public var tolerance: Tolerance?
    /// How pixels are read and the diff image drawn: straight alpha as pixelmatch reads PNGs,
    /// translucent pixels over pixelmatch 7's checkerboard (or white, as pixelmatch 6 and
    /// earlier), and pixelmatch's colours, fade and mask.
    public var drawing: DiffOptions

    public init(
        expected: String, actual: String, output: String? = nil, tolerance: Tolerance? = nil,
        drawing: DiffOptions = ImageDiff.pixelmatchDrawing
    ) {
        self.expectedPath = expected
        self.actualPath = actual
        self.output = output
        self.tolerance = tolerance
        var drawing = drawing
        drawing.straightAlpha = true
        self.drawing = drawing
    }

    /// pixelmatch 7's defaults: straight alpha over the checkerboard.
    public static var pixelmatchDrawing: DiffOptions {
        var o = DiffOptions(transparencyBackground: .checkerboard)
        o.straightAlpha = true
        return o
    }

    public struct Result: Sendable {
        /// nil when the sizes differ (different, with no figures).
        public var comparison: Comparison?
        /// What to print, in order.
        public var lines: [String]
        /// identical, similar or different (a size mismatch is different).
        public var verdict: String { comparison?.name ?? "different" }
        /// The figures, as results.json gives a frame's `metrics` (nil when identical or when the
        /// sizes differ).
        public var metrics: DiffFigures? { comparison?.figures }
        /// 0 identical or similar, 1 different: the same mapping as a verify frame's.
        public var outcome: Outcome { comparison?.isDifferent ?? true ? .failed : .passed }

        /// `{"metrics": {...}, "verdict": "different"}`, keys sorted, metrics in results.json's shape.
        public var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            let metricsJSON =
                metrics.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
            return "{\"metrics\":\(metricsJSON),\"verdict\":\"\(verdict)\"}"
        }
    }

    public func run() throws(RunnerError) -> Result {
        if let output { try OutputPaths.file(output, option: "--out") }
        let expectedBytes = try read(expectedPath)
        let actualBytes = try read(actualPath)
        // Byte-identical files hold identical pixels: no decoding (a diff image needs the pixels).
        if expectedBytes == actualBytes && output == nil {
            _ = try decodeHeader(expectedBytes, expectedPath)
            return Result(comparison: .identical, lines: ["0 pixels differ (identical)", "identical"])
        }
        // The two images decode at the same time, on two threads of their own (GCD's
        // concurrentPerform ran both on the calling thread in a process this young: its pool was
        // not up yet); the expected one's error is told first.
        let images = WorkerThreads.map(count: 2, jobs: 2) { [self] i in
            Swift.Result { () throws(RunnerError) in
                try decode(i == 0 ? expectedBytes : actualBytes, i == 0 ? expectedPath : actualPath)
            }
        }
        let expected = try images[0].get()
        let actual = try images[1].get()
        guard expected.width == actual.width, expected.height == actual.height else {
            var lines = [
                "size differs: \(expectedPath) is \(expected.width) x \(expected.height), \(actualPath) is \(actual.width) x \(actual.height)"
            ]
            // No diff image for images of two sizes: an older one at --out must not pass for this one's.
            if let output, (try? Posix.unlink(output)) != nil {
                lines.append("no diff image: \(output) from an earlier run was removed")
            }
            return Result(comparison: nil, lines: lines + ["different"])
        }
        var diffImage = output == nil ? [] : [UInt32](repeating: 0, count: expected.width * expected.height)
        let comparison = expected.pixels.withUnsafeBufferPointer { pa in
            actual.pixels.withUnsafeBufferPointer { pb in
                diffImage.withUnsafeMutableBufferPointer { d in
                    FrameComparison.compare(
                        expected: pa, actual: pb, width: expected.width, height: expected.height,
                        tolerance: tolerance, diffImage: output == nil ? nil : d, drawing: drawing)
                }
            }
        }
        if let output {
            // Identical images leave no diff picture from the comparison: the expected image faded
            // is what a diff of equal images shows, so draw it the same way.
            if comparison.diff == nil {
                diffImage.withUnsafeMutableBufferPointer { d in
                    expected.pixels.withUnsafeBufferPointer { pa in
                        _ = PixelDiff.compare(
                            pa, pa, width: expected.width, height: expected.height, options: drawing, diffImage: d)
                    }
                }
            }
            let png = diffImage.withUnsafeBufferPointer {
                PNGEncoder.encode(
                    pixels: $0.baseAddress!, width: expected.width, height: expected.height, stride: expected.width)
            }
            try AtomicFile.write(png, to: output)
        }
        var lines = [comparison.message]
        let regions = comparison.diff?.regions ?? []
        for region in regions.prefix(20) {
            lines.append("  region x \(region.x), y \(region.y), \(region.width) x \(region.height)")
        }
        if regions.count > 20 { lines.append("  and \(regions.count - 20) more regions") }
        if comparison.comparison.isDifferent && tolerance == nil {
            lines.append(
                "different (exact comparison; --threshold, --max-diff-pixels or --max-diff-ratio allow a tolerance, as a fixture's \"tolerance\" does)"
            )
        } else {
            lines.append(comparison.comparison.name)
        }
        return Result(comparison: comparison.comparison, lines: lines)
    }

    private func read(_ path: String) throws(RunnerError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunnerError.usage("\(path): cannot be read")
        }
        return [UInt8](data)
    }

    /// The header alone: an identical pair must still be two PNGs.
    private func decodeHeader(_ bytes: [UInt8], _ path: String) throws(RunnerError) -> (width: Int, height: Int) {
        do {
            return try PNGDecoder.readHeader(bytes)
        } catch {
            throw RunnerError.usage("\(path): \(error.description)")
        }
    }

    private func decode(_ bytes: [UInt8], _ path: String) throws(RunnerError) -> PixelImage {
        do {
            return try PNGDecoder.decode(bytes, straightAlpha: true)
        } catch {
            throw RunnerError.usage("\(path): \(error.description)")
        }
    }
}
