import LayoutSnapCore

/// A deterministic stand-in for Pango: every character is `0.5 x size` wide, lines break greedily
/// at spaces (the space at a break stays at the end of its line, drawing nothing), hard breaks
/// start a new line, `maxLines` cuts with truncation. Numbers in the tests are worked out by hand
/// from this rule and the seed's formulas.
public struct FakeMeasurer: TextMeasuring {
    public init() {}

    /// One line: characters [start, end) are drawn; a breaking space or newline at `end` is not.
    public struct FakeLine {
        public var start: Int
        public var end: Int
    }

    public func lines(_ text: StyledText) -> [FakeLine] {
        let charWidth = 0.5 * text.font.size
        var lines: [FakeLine] = []
        var paragraphStart = 0
        for paragraph in text.plainText.split(separator: "\n", omittingEmptySubsequences: false) {
            var lineStart = paragraphStart
            var lineEnd = paragraphStart
            var wordStart = paragraphStart
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let wordEnd = wordStart + word.count
                let started = lineEnd > lineStart || wordStart > lineStart
                if let width = text.width, started, Double(wordEnd - lineStart) * charWidth > width {
                    lines.append(FakeLine(start: lineStart, end: lineEnd))
                    lineStart = wordStart
                }
                lineEnd = wordEnd
                wordStart = wordEnd + 1
            }
            lines.append(FakeLine(start: lineStart, end: lineEnd))
            paragraphStart += paragraph.count + 1
        }
        return lines
    }

    public func measure(_ text: StyledText) throws -> MeasuredText {
        let charWidth = 0.5 * text.font.size
        var widths = lines(text).map { Double($0.end - $0.start) * charWidth }
        var truncated = false
        if let maxLines = text.maxLines, widths.count > maxLines {
            widths = Array(widths.prefix(maxLines))
            truncated = true
        }
        if let width = text.width, let maxLines = text.maxLines, widths.count == maxLines,
            widths.contains(where: { $0 > width })
        {
            truncated = true
        }
        return MeasuredText(
            lines: widths.map { MeasuredLine(x: 0, width: min($0, text.width ?? $0)) }, truncated: truncated)
    }

    public func caret(in text: StyledText, at offset: Int) throws -> CaretPosition {
        let charWidth = 0.5 * text.font.size
        let all = lines(text)
        // The last line that starts at or before the offset: a soft break belongs to the next line.
        let index = all.lastIndex { $0.start <= offset } ?? 0
        let line = all[index]
        return CaretPosition(line: index, x: Double(min(offset, line.end) - line.start) * charWidth)
    }

    public func spans(in text: StyledText, from start: Int, to end: Int) throws -> [LineSpan] {
        let charWidth = 0.5 * text.font.size
        var spans: [LineSpan] = []
        for (i, line) in lines(text).enumerated() where start <= line.end && end > line.start {
            let x0 = Double(max(start, line.start) - line.start) * charWidth
            let lineWidth = Double(line.end - line.start) * charWidth
            let x1 = end > line.end ? max(text.width ?? lineWidth, lineWidth) : Double(end - line.start) * charWidth
            spans.append(LineSpan(line: i, x: x0, width: x1 - x0))
        }
        return spans
    }
}
