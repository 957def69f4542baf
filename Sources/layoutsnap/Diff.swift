import ArgumentParser
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapReport
import LayoutSnapRunner

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Compare two PNG images as verify compares a frame with its golden, and print how many pixels differ.",
        discussion:
            "Exact by default, as verify without a fixture tolerance: any changed pixel makes the images different. --threshold, --include-aa, --max-diff-pixels and --max-diff-ratio give a tolerance, as a fixture's \"tolerance\" does; within it the images are similar. Images are read as pixelmatch reads them (straight alpha; translucent pixels blended with pixelmatch 7's checkerboard, or white with --background white as pixelmatch 6 and earlier), so with --threshold the count is pixelmatch's. Exit 0 when identical or similar, 1 when different (or the sizes differ), 2 when an image cannot be used."
    )

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

    @Flag(
        help:
            "Print {\"verdict\", \"metrics\"} as JSON instead of text: metrics as results.json gives a frame's (null when identical or when the sizes differ)."
    )
    var json = false

    @Option(
        help:
            "What translucent pixels are blended with before the colour comparison: checkerboard (pixelmatch 7, the default) or white (pixelmatch 6 and earlier)."
    )
    var background: BackgroundArgument = .checkerboard

    @Option(
        help: ArgumentHelp(
            "The colour of differing pixels in the diff image (pixelmatch's diffColor; default 255,0,0).",
            valueName: "r,g,b"))
    var diffColor: ColorArgument?

    @Option(
        help: ArgumentHelp(
            "The colour of differing pixels that are darker in B than in A (pixelmatch's diffColorAlt; default: --diff-color).",
            valueName: "r,g,b"))
    var diffColorAlt: ColorArgument?

    @Option(
        help: ArgumentHelp(
            "The colour of anti-aliased pixels in the diff image (pixelmatch's aaColor; default 255,255,0).",
            valueName: "r,g,b"))
    var aaColor: ColorArgument?

    @Option(help: "The opacity of image A's grey copy under the diff image, 0 to 1 (pixelmatch's alpha; default 0.1).")
    var alpha: Double?

    @Flag(help: "Draw only the differing pixels, on transparency (pixelmatch's diffMask).")
    var diffMask = false

    /// The flags as plain values: what the command runs (the fast path builds the same).
    var request: DiffRequest {
        DiffRequest(
            a: a, b: b, out: out, threshold: threshold, includeAA: includeAA, maxDiffPixels: maxDiffPixels,
            maxDiffRatio: maxDiffRatio, json: json, background: background, diffColor: diffColor?.color,
            diffColorAlt: diffColorAlt?.color, aaColor: aaColor?.color, alpha: alpha, diffMask: diffMask)
    }

    func validate() throws {
        if let problem = request.problem { throw ValidationError(problem) }
    }

    func run() throws {
        try Diagnostics.run { try request.execute() }
    }
}

/// One `layoutsnap diff`, its options as plain values.
struct DiffRequest {
    var a: String
    var b: String
    var out: String?
    var threshold: Double?
    var includeAA = false
    var maxDiffPixels: Int?
    var maxDiffRatio: Double?
    var json = false
    var background = BackgroundArgument.checkerboard
    var diffColor: DiffColor?
    var diffColorAlt: DiffColor?
    var aaColor: DiffColor?
    var alpha: Double?
    var diffMask = false

    /// What is wrong with the values, as the command line says it (nil: nothing).
    var problem: String? {
        if let threshold, !(0...1).contains(threshold) { return "--threshold must be from 0 to 1" }
        if let maxDiffPixels, maxDiffPixels < 0 { return "--max-diff-pixels must be 0 or more" }
        if let maxDiffRatio, !(0...1).contains(maxDiffRatio) { return "--max-diff-ratio must be from 0 to 1" }
        if let alpha, !(0...1).contains(alpha) { return "--alpha must be from 0 to 1" }
        return nil
    }

    /// pixelmatch's drawing options.
    var drawing: DiffOptions {
        var o = ImageDiff.pixelmatchDrawing
        o.transparencyBackground = background == .white ? .white : .checkerboard
        if let diffColor { o.diffColor = diffColor }
        o.diffColorAlt = diffColorAlt
        if let aaColor { o.antialiasedColor = aaColor }
        if let alpha { o.alpha = alpha }
        o.diffMask = diffMask
        return o
    }

    /// The tolerance the options give, as a fixture's `tolerance` object would: nil (exact) when
    /// none of them is given.
    var tolerance: Tolerance? {
        guard threshold != nil || includeAA || maxDiffPixels != nil || maxDiffRatio != nil else { return nil }
        return Tolerance(
            threshold: threshold ?? Tolerance().threshold, maxDiffPixels: maxDiffPixels ?? 0,
            maxDiffRatio: maxDiffRatio ?? 0, includeAntialiasing: includeAA)
    }

    /// Compares, prints, and returns the exit code.
    func execute() throws -> Outcome {
        let result = try ImageDiff(expected: a, actual: b, output: out, tolerance: tolerance, drawing: drawing).run()
        if json {
            Diagnostics.out(result.json)
        } else {
            for line in result.lines { Diagnostics.out(line) }
        }
        return result.outcome
    }
}

/// `--background checkerboard|white`.
enum BackgroundArgument: String, ExpressibleByArgument, CaseIterable {
    case checkerboard, white
}

/// A colour on the command line: `255,0,0` (as pixelmatch's CLI and API give it) or `#ff0000`.
struct ColorArgument: ExpressibleByArgument {
    var color: DiffColor

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("#"), text.count == 7, let v = UInt32(text.dropFirst(), radix: 16) {
            color = DiffColor(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
            return
        }
        let parts = text.split(separator: ",").map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let r = parts[0], let g = parts[1], let b = parts[2] else { return nil }
        color = DiffColor(r: r, g: g, b: b)
    }
}
