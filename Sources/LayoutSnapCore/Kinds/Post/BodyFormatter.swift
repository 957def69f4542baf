/// The post body's formatting (docs/fixtures/post.md, "Layout rules", Body): `# ` headings in title3
/// semibold, `- ` bullets with a bullet and a hanging indent, blank lines as empty lines, and
/// inline `**bold**` / `*italic*` everywhere.
public enum BodyBlock: Sendable, Hashable {
    case heading(String)
    case bullet(String)
    case paragraph(String)
    case blank
}

public enum BodyFormatter {
    /// Both follow the text size (title3 semibold, body).
    public static func headingFont(_ textSize: ContentSizeCategory = .large, theme: Theme = .default) -> FontSpec {
        theme.font(.title3, at: textSize).with(weight: .semibold)
    }
    public static func bodyFont(_ textSize: ContentSizeCategory = .large, theme: Theme = .default) -> FontSpec {
        theme.font(.body, at: textSize)
    }
    /// Where a bullet's text starts by default (the theme's `post.bulletIndent`); the bullet
    /// sits at the left edge.
    public static let bulletIndent = PostStyle.default.bulletIndent
    public static let bulletMarker = "\u{2022}"

    /// One block per source line: a hard line break is a new line either way, and a block per
    /// line keeps each block in a single style.
    public static func blocks(_ body: String) -> [BodyBlock] {
        guard !body.isEmpty else { return [] }
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return .blank }
            if line.hasPrefix("# ") { return .heading(String(line.dropFirst(2))) }
            if line.hasPrefix("- ") { return .bullet(String(line.dropFirst(2))) }
            return .paragraph(String(line))
        }
    }
}

/// A formatted body laid out with iOS line metrics: one line box after another, each line after
/// the first adding its own style's leading.
public struct FormattedBody: Sendable, Hashable {
    public struct Piece: Sendable, Hashable {
        public var text: StyledText
        /// x offset from the body's left edge.
        public var x: Double
        /// Baselines relative to the body's top.
        public var baselines: [Double]
    }

    public var pieces: [Piece]
    public var height: Double
    public var lineCount: Int

    /// `direction` rtl: the layout will be mirrored, so every bullet is placed as a left-to-right
    /// one and ends up at the right edge, where a right-to-left layout's leading edge is.
    public init(
        body: String, width: Double, measurer: some TextMeasuring, textSize: ContentSizeCategory = .large,
        direction: LayoutDirection = .ltr, theme: Theme = .default
    ) throws {
        var pieces: [Piece] = []
        var bottom = 0.0
        var lines = 0

        /// Places one line of `font` below the previous one and returns its baseline.
        func placeLine(_ font: FontSpec) -> Double {
            bottom = lines == 0 ? font.firstLineHeight : bottom + font.lineAdvance
            lines += 1
            return bottom - font.descent
        }

        for block in BodyFormatter.blocks(body) {
            let font: FontSpec
            let x: Double
            let source: String
            switch block {
            case .blank:
                _ = placeLine(BodyFormatter.bodyFont(textSize, theme: theme))
                continue
            case .heading(let s):
                font = BodyFormatter.headingFont(textSize, theme: theme)
                x = 0
                source = s
            case .bullet(let s):
                font = BodyFormatter.bodyFont(textSize, theme: theme)
                x = theme.post.bulletIndent
                source = s
            case .paragraph(let s):
                font = BodyFormatter.bodyFont(textSize, theme: theme)
                x = 0
                source = s
            }
            let text = StyledText(markup: source, font: font, width: max(width - x, 1))
            let measured = try measurer.measure(text)
            let baselines = (0..<max(measured.lineCount, 1)).map { _ in placeLine(font) }
            var textX = x
            if case .bullet = block {
                // The bullet stands at the start of the line: the left edge, or the right one for
                // right-to-left text, whose lines then end `bulletIndent` short of the right edge.
                let marker = StyledText(runs: [TextRun(BodyFormatter.bulletMarker)], font: font, width: nil)
                var markerX = 0.0
                if measured.rightToLeft && direction == .ltr {
                    markerX = width - (try measurer.measure(marker).maxLineWidth)
                    textX = 0
                }
                pieces.append(Piece(text: marker, x: markerX, baselines: [baselines[0]]))
            }
            pieces.append(Piece(text: text, x: textX, baselines: baselines))
        }
        self.pieces = pieces
        self.height = bottom
        self.lineCount = lines
    }
}
