import ArgumentParser
import LayoutSnapCore
import LayoutSnapRunner

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two PNG images as verify compares a frame with its golden, and print how many pixels differ.",
        discussion: "Exact by default, as verify without a fixture tolerance: any changed pixel makes the images different. --threshold, --include-aa, --max-diff-pixels and --max-diff-ratio give a tolerance, as a fixture's \"tolerance\" does; within it the images are similar. Exit 0 when identical or similar, 1 when different (or the sizes differ), 2 when an image cannot be used.")

    @Argument(help: "The expected image.") var a: String
    @Argument(help: "The actual image.") var b: String

    @Option(help: "Write a diff image: A faded to gray, differing pixels red, anti-aliased ones yellow.")
    var out: String?

    @Option(help: "Colour distance threshold, 0 to 1 (YIQ, as pixelmatch; default 0.1). Gives a tolerance.")
    var threshold: Double?

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences. Gives a tolerance.")
    var includeAA = false

    @Option(help: "Similar (exit 0) with at most this many differing pixels. Gives a tolerance.")
    var maxDiffPixels: Int?

    @Option(help: "Similar (exit 0) with at most this ratio of differing pixels (0 to 1). Gives a tolerance.")
    var maxDiffRatio: Double?

    @Flag(help: "Print {\"verdict\", \"metrics\"} as JSON instead of text: metrics as results.json gives a frame's (null when identical or when the sizes differ).")
    var json = false

    func validate() throws {
        if let threshold, !(0...1).contains(threshold) { throw ValidationError("--threshold must be from 0 to 1") }
        if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must be 0 or more") }
        if let maxDiffRatio, !(0...1).contains(maxDiffRatio) { throw ValidationError("--max-diff-ratio must be from 0 to 1") }
    }

    /// The tolerance the options give, as a fixture's `tolerance` object would: nil (exact) when
    /// none of them is given.
    var tolerance: Tolerance? {
        guard threshold != nil || includeAA || maxDiffPixels != nil || maxDiffRatio != nil else { return nil }
        return Tolerance(threshold: threshold ?? Tolerance().threshold, maxDiffPixels: maxDiffPixels ?? 0,
                         maxDiffRatio: maxDiffRatio ?? 0, includeAntialiasing: includeAA)
    }

    func run() throws {
        try Diagnostics.run {
            let result = try ImageDiff(expected: a, actual: b, output: out, tolerance: tolerance).run()
            if json {
                Diagnostics.out(result.json)
            } else {
                for line in result.lines { Diagnostics.out(line) }
            }
            return result.outcome.exitCode
        }
    }
}
