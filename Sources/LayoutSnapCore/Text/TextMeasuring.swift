/// One line as the text engine broke it.
public struct MeasuredLine: Sendable, Hashable {
    /// Offset of the line's start from the layout's left edge (alignment, indents, RTL).
    public var x: Double
    /// Advance width of the line's glyphs.
    public var width: Double

    public init(x: Double, width: Double) {
        self.x = x
        self.width = width
    }
}

/// What the text engine reports about a laid-out `StyledText`: horizontal facts only. Vertical
/// metrics are iOS's and come from `LineMetrics`, never from the font.
public struct MeasuredText: Sendable, Hashable {
    public var lines: [MeasuredLine]
    /// True when `maxLines` cut the text and the last line ends with an ellipsis.
    public var truncated: Bool
    /// The paragraph's base direction is right-to-left (Arabic, Hebrew): lines align right.
    public var rightToLeft: Bool

    public init(lines: [MeasuredLine], truncated: Bool, rightToLeft: Bool = false) {
        self.lines = lines
        self.truncated = truncated
        self.rightToLeft = rightToLeft
    }

    public var lineCount: Int { lines.count }
    public var maxLineWidth: Double { lines.map { $0.x + $0.width }.max() ?? 0 }
}

/// Where a caret stands: the line it is on and its x from the layout's left edge.
public struct CaretPosition: Sendable, Hashable {
    public var line: Int
    public var x: Double

    public init(line: Int, x: Double) {
        self.line = line
        self.x = x
    }
}

/// A horizontal stretch of one line covered by a range of characters (a selection, marked text).
public struct LineSpan: Sendable, Hashable {
    public var line: Int
    public var x: Double
    public var width: Double

    public init(line: Int, x: Double, width: Double) {
        self.line = line
        self.x = x
        self.width = width
    }
}

/// Breaks styled text into lines. The Pango engine implements it for rendering; tests use a
/// deterministic fake so the layout rules can be checked with numbers worked out by hand.
///
/// Offsets are in characters (Swift `Character`s, grapheme clusters) of `plainText`.
public protocol TextMeasuring {
    func measure(_ text: StyledText) throws -> MeasuredText
    /// The caret before the character at `offset` (`offset == count`: after the last one). At a
    /// soft line break the caret belongs to the line that starts there.
    func caret(in text: StyledText, at offset: Int) throws -> CaretPosition
    /// The stretches covered by the characters [start, end), line by line, left to right. A range
    /// that goes on past a line's end reaches the layout's trailing edge on that line, as a
    /// selection does.
    func spans(in text: StyledText, from start: Int, to end: Int) throws -> [LineSpan]
}
