/// Font weights the tool maps onto Inter's faces.
public enum FontWeight: String, Sendable, Hashable, CaseIterable {
    case regular, medium, semibold, bold

    /// CSS / Pango numeric weight.
    public var numeric: Int {
        switch self {
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        }
    }
}

/// A resolved font: size, weight, slant and the iOS line metrics that go with it.
///
/// The tool applies iOS line metrics itself instead of trusting Inter's (docs/fixtures/README.md "Text"): a first line is
/// `naturalLineRatio x size` tall (SF Pro's ascender + descender), each further line adds
/// `leading` (the text style's line height), or another natural line for an explicit size.
public struct FontSpec: Sendable, Hashable {
    public var size: Double
    public var weight: FontWeight
    public var italic: Bool
    /// The text style's line height; nil for an explicit size.
    public var leading: Double?
    /// The text style it came from (it scales with the text size); nil for an explicit size,
    /// which stays fixed as on a device.
    public var style: TextStyle?
    /// The family Pango asks for: a brand family of layoutsnap.json's `fonts`, or nil for the
    /// bundled Inter (`FontSpec.defaultFamily`). Scripts the family lacks fall back to the
    /// bundled Noto fonts, then Inter, as for Inter itself.
    public var family: String?

    /// The family text is set in when a font names none: the stand-in for SF Pro.
    public static let defaultFamily = "Inter"

    /// SF Pro's natural line: ascender 0.952 em + descender 0.241 em, no line gap.
    public static let naturalLineRatio = 1.1934
    public static let ascenderRatio = 0.952
    public static let sizeRange: ClosedRange<Double> = 1...512

    public init(
        size: Double, weight: FontWeight = .regular, italic: Bool = false, leading: Double? = nil,
        style: TextStyle? = nil, family: String? = nil
    ) {
        self.size = size
        self.weight = weight
        self.italic = italic
        self.leading = leading
        self.style = style
        self.family = family
    }

    /// The same font at another text size: a text style's size and leading from the Dynamic Type
    /// table (its weight and slant kept); an explicit size unchanged.
    public func at(_ category: ContentSizeCategory) -> FontSpec {
        guard let style else { return self }
        let (size, leading) = category.metrics(style)
        var copy = self
        copy.size = size
        copy.leading = leading
        return copy
    }

    /// Height of a single line.
    public var firstLineHeight: Double { Self.naturalLineRatio * size }
    /// What each line after the first adds (before `lineSpacing`).
    public var lineAdvance: Double { leading ?? firstLineHeight }
    /// Distance from a line box's top to its baseline, for the first line.
    public var ascent: Double { Self.ascenderRatio * size }
    /// Distance from the baseline to the bottom of a line box.
    public var descent: Double { firstLineHeight - ascent }

    public func with(weight: FontWeight? = nil, italic: Bool? = nil, family: String? = nil) -> FontSpec {
        var copy = self
        if let weight { copy.weight = weight }
        if let italic { copy.italic = italic }
        if let family { copy.family = family }
        return copy
    }
}

/// The text styles of reference/swiftui-facts.md; `font` is at the default text size (Large),
/// `font(at:)` at any (reference/dynamic-type.md).
public enum TextStyle: String, Sendable, CaseIterable {
    case largeTitle, title, title2, title3, headline, body, callout, subheadline, footnote, caption, caption2

    public var font: FontSpec { font(at: .large) }

    public func font(at category: ContentSizeCategory) -> FontSpec {
        let (size, leading) = category.metrics(self)
        return FontSpec(size: size, weight: self == .headline ? .semibold : .regular, leading: leading, style: self)
    }
}
