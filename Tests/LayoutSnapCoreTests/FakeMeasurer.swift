import LayoutSnapCore

/// A deterministic stand-in for Pango: every character is `0.5 x size` wide, lines break greedily
/// at spaces, hard breaks start a new line, `maxLines` cuts with truncation. Numbers in the tests
/// are worked out by hand from this rule and the seed's formulas.
struct FakeMeasurer: TextMeasuring {
    func measure(_ text: StyledText) throws -> MeasuredText {
        let charWidth = 0.5 * text.font.size
        var lines: [Double] = []
        for paragraph in text.plainText.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = 0.0
            var started = false
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let w = Double(word.count) * charWidth
                let withSpace = started ? current + charWidth + w : w
                if let width = text.width, started, withSpace > width {
                    lines.append(current)
                    current = w
                } else {
                    current = withSpace
                }
                started = true
            }
            lines.append(current)
        }
        var truncated = false
        if let maxLines = text.maxLines, lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            truncated = true
        }
        if let width = text.width, let maxLines = text.maxLines, lines.count == maxLines, lines.contains(where: { $0 > width }) {
            truncated = true
        }
        return MeasuredText(lines: lines.map { MeasuredLine(x: 0, width: min($0, text.width ?? $0)) }, truncated: truncated)
    }
}
