/// Vertical placement of lines with iOS metrics (docs/fixtures/README.md "Text").
///
/// Line 0's box is `font.firstLineHeight` tall with its baseline `font.ascent` below the top. Each
/// further line adds `font.lineAdvance + lineSpacing`; its descender sits on the bottom of its box,
/// so any extra leading goes above the glyphs. 4 lines of `body`: 20.29 + 3 x 22 = 86.29.
public struct LineBoxes: Sendable, Hashable {
    /// Baselines, measured from the top of the first line.
    public var baselines: [Double]
    /// Total height of the lines.
    public var height: Double

    public init(baselines: [Double], height: Double) {
        self.baselines = baselines
        self.height = height
    }
}

public enum LineMetrics {
    /// Height of `lines` lines (at least one: an empty text still occupies a line, as a TextField does).
    public static func height(lines: Int, font: FontSpec, lineSpacing: Double = 0) -> Double {
        let n = max(lines, 1)
        return font.firstLineHeight + Double(n - 1) * (font.lineAdvance + lineSpacing)
    }

    public static func boxes(lines: Int, font: FontSpec, lineSpacing: Double = 0) -> LineBoxes {
        let n = max(lines, 1)
        var baselines: [Double] = []
        baselines.reserveCapacity(n)
        for i in 0..<n {
            let bottom = font.firstLineHeight + Double(i) * (font.lineAdvance + lineSpacing)
            baselines.append(bottom - font.descent)
        }
        return LineBoxes(baselines: baselines, height: height(lines: n, font: font, lineSpacing: lineSpacing))
    }
}
