import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRunner

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two PNG images and print how many pixels differ.",
        discussion: "Exit 0 when identical or similar (within the tolerance), 1 when different (or the sizes differ), 2 when an image cannot be used.")

    @Argument(help: "The expected image.") var a: String
    @Argument(help: "The actual image.") var b: String

    @Option(help: "Write a diff image: A faded to gray, differing pixels red, anti-aliased ones yellow.")
    var out: String?

    @Option(help: "Colour distance threshold, 0 to 1 (YIQ, as pixelmatch).")
    var threshold: Double = 0.1

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
    var includeAA = false

    @Option(help: "Still similar (exit 0) with at most this many differing pixels.")
    var maxDiffPixels: Int = 0

    @Option(help: "Still similar (exit 0) with at most this ratio of differing pixels (0 to 1).")
    var maxDiffRatio: Double = 0

    func validate() throws {
        guard (0...1).contains(threshold) else { throw ValidationError("--threshold must be from 0 to 1") }
        guard maxDiffPixels >= 0 else { throw ValidationError("--max-diff-pixels must be 0 or more") }
        guard (0...1).contains(maxDiffRatio) else { throw ValidationError("--max-diff-ratio must be from 0 to 1") }
    }

    func run() throws {
        try Diagnostics.run {
            let expected = try load(a), actual = try load(b)
            guard expected.width == actual.width, expected.height == actual.height else {
                Diagnostics.out("size differs: \(a) is \(expected.width) x \(expected.height), \(b) is \(actual.width) x \(actual.height)")
                return 1
            }
            var diffImage = out == nil ? [] : [UInt32](repeating: 0, count: expected.width * expected.height)
            let options = DiffOptions(threshold: threshold, includeAntialiasing: includeAA)
            let result = expected.pixels.withUnsafeBufferPointer { pa in
                actual.pixels.withUnsafeBufferPointer { pb in
                    diffImage.withUnsafeMutableBufferPointer { d in
                        PixelDiff.compare(pa, pb, width: expected.width, height: expected.height, options: options,
                                          diffImage: out == nil ? nil : d)
                    }
                }
            }
            if let out {
                let png = diffImage.withUnsafeBufferPointer {
                    PNGEncoder.encode(pixels: $0.baseAddress!, width: expected.width, height: expected.height, stride: expected.width)
                }
                try AtomicFile.write(png, to: out)
            }
            let verdict = PixelDiff.verdict(result, tolerance: DiffTolerance(maxDiffPixels: maxDiffPixels, maxDiffRatio: maxDiffRatio))
            let exact = expected.pixels.withUnsafeBufferPointer { pa in actual.pixels.withUnsafeBufferPointer { ExactDiff.measure(pa, $0) } }
            Diagnostics.out(result.isIdentical ? "0 pixels differ (identical)" : VerifyHandler.describe(result, exact: exact))
            for region in result.regions.prefix(20) {
                Diagnostics.out("  region x \(region.x), y \(region.y), \(region.width) x \(region.height)")
            }
            if result.regions.count > 20 { Diagnostics.out("  and \(result.regions.count - 20) more regions") }
            Diagnostics.out("\(verdict)")
            return verdict == .different ? 1 : 0
        }
    }

    private func load(_ path: String) throws -> PixelImage {
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
