/// A run of text with one inline style.
public struct TextRun: Sendable, Hashable {
    public var text: String
    public var bold: Bool
    public var italic: Bool

    public init(_ text: String, bold: Bool = false, italic: Bool = false) {
        self.text = text
        self.bold = bold
        self.italic = italic
    }
}

/// A paragraph (or several, separated by "\n") of styled text, ready to be broken into lines.
///
/// It is Hashable on purpose: the text engine lays each distinct value out once and the renderer
/// draws the cached layout in every frame that shows it.
public struct StyledText: Sendable, Hashable {
    public var runs: [TextRun]
    public var font: FontSpec
    /// Wrap width in points; nil lays the text out on unbounded lines.
    public var width: Double?
    /// At most this many lines; the last allowed line ends with an ellipsis.
    public var maxLines: Int?

    public init(runs: [TextRun], font: FontSpec, width: Double?, maxLines: Int? = nil) {
        self.runs = runs
        self.font = font
        self.width = width
        self.maxLines = maxLines
    }

    /// Text with inline `**bold**` and `*italic*` markup (docs/fixtures/README.md "Text") parsed into runs.
    public init(markup: String, font: FontSpec, width: Double?, maxLines: Int? = nil) {
        self.init(runs: InlineMarkup.parse(markup), font: font, width: width, maxLines: maxLines)
    }

    public var plainText: String { runs.map(\.text).joined() }
    public var isEmpty: Bool { runs.allSatisfy { $0.text.isEmpty } }
}

/// The inline rich text of docs/fixtures/README.md "Text": `**bold**` and `*italic*`; everything else is literal.
///
/// A marker only counts when a matching closer follows on the same line, so a stray `*` (as in
/// "5 * 3") stays text. Nothing from a fixture is ever passed to Pango as markup.
public enum InlineMarkup {
    public static func parse(_ source: String) -> [TextRun] {
        let chars = Array(source)
        var runs: [TextRun] = []
        var current = ""
        var bold = false
        var italic = false
        var i = 0

        func flush() {
            if !current.isEmpty { runs.append(TextRun(current, bold: bold, italic: italic)) }
            current = ""
        }
        let closers = Closers(chars)
        /// Is there a closing `**` (or `*`) after index `from`, before the end of the line, with text between?
        func hasCloser(double: Bool, from: Int) -> Bool {
            guard from < chars.count, chars[from] != " ", chars[from] != "\n" else { return false }
            return double ? closers.double[from + 1] : closers.single[from + 1]
        }

        while i < chars.count {
            let c = chars[i]
            if c == "*" {
                let isDouble = i + 1 < chars.count && chars[i + 1] == "*"
                if isDouble {
                    if bold || hasCloser(double: true, from: i + 2) {
                        flush()
                        bold.toggle()
                        i += 2
                        continue
                    }
                } else if italic || hasCloser(double: false, from: i + 1) {
                    flush()
                    italic.toggle()
                    i += 1
                    continue
                }
            }
            if c == "\n" {
                // Inline styles never run past a line break.
                current.append(c)
                flush()
                bold = false
                italic = false
                i += 1
                continue
            }
            current.append(c)
            i += 1
        }
        flush()
        return runs.isEmpty ? [TextRun("")] : runs
    }
}

/// For every position j, whether a scan for a closing marker that starts at j (past the opener)
/// finds one before the end of the line. Worked out right to left in one pass, so parsing is
/// linear: scanning afresh from every opener took quadratic time on text full of stray markers
/// (30,000 characters of "# - **" took minutes).
///
/// A closer is a marker not preceded by a space. A `*` directly followed by another `*` is part of
/// a `**` and never closes an italic: the scan steps over both.
struct Closers {
    /// `double[j]`: a `**` closer at some k >= j, before any line break.
    var double: [Bool]
    /// `single[j]`: a `*` closer at some k >= j, before any line break, stepping over `**`.
    var single: [Bool]

    init(_ chars: [Character]) {
        let n = chars.count
        double = Array(repeating: false, count: n + 2)
        single = Array(repeating: false, count: n + 3)
        for j in stride(from: n - 1, through: 1, by: -1) {
            if chars[j] == "\n" { continue }  // both stay false: the line ends here
            let closes = chars[j] == "*" && chars[j - 1] != " "
            if j + 2 <= n {
                double[j] = (closes && chars[j + 1] == "*") || double[j + 1]
            }
            if closes {
                single[j] = j + 1 < n && chars[j + 1] == "*" ? single[j + 2] : true
            } else {
                single[j] = single[j + 1]
            }
        }
    }
}
