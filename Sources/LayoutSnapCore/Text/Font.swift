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
/// The tool applies iOS line metrics itself instead of trusting Inter's (SPEC §3.2): a first line is
/// `naturalLineRatio x size` tall (SF Pro's ascender + descender), each further line adds
/// `leading` (the text style's line height), or another natural line for an explicit size.
public struct FontSpec: Sendable, Hashable {
    public var size: Double
    public var weight: FontWeight
    public var italic: Bool
    /// The text style's line height; nil for an explicit size.
    public var leading: Double?

    /// SF Pro's natural line: ascender 0.952 em + descender 0.241 em, no line gap.
    public static let naturalLineRatio = 1.1934
    public static let ascenderRatio = 0.952
    public static let sizeRange: ClosedRange<Double> = 1...512

    public init(size: Double, weight: FontWeight = .regular, italic: Bool = false, leading: Double? = nil) {
        self.size = size; self.weight = weight; self.italic = italic; self.leading = leading
    }

    /// Height of a single line.
    public var firstLineHeight: Double { Self.naturalLineRatio * size }
    /// What each line after the first adds (before `lineSpacing`).
    public var lineAdvance: Double { leading ?? firstLineHeight }
    /// Distance from a line box's top to its baseline, for the first line.
    public var ascent: Double { Self.ascenderRatio * size }
    /// Distance from the baseline to the bottom of a line box.
    public var descent: Double { firstLineHeight - ascent }

    public func with(weight: FontWeight? = nil, italic: Bool? = nil) -> FontSpec {
        var copy = self
        if let weight { copy.weight = weight }
        if let italic { copy.italic = italic }
        return copy
    }
}

/// The Dynamic Type "Large" text styles of reference/swiftui-facts.md.
public enum TextStyle: String, Sendable, CaseIterable {
    case largeTitle, title, title2, title3, headline, body, callout, subheadline, footnote, caption, caption2

    public var font: FontSpec {
        switch self {
        case .largeTitle: FontSpec(size: 34, leading: 41)
        case .title: FontSpec(size: 28, leading: 34)
        case .title2: FontSpec(size: 22, leading: 28)
        case .title3: FontSpec(size: 20, leading: 25)
        case .headline: FontSpec(size: 17, weight: .semibold, leading: 22)
        case .body: FontSpec(size: 17, leading: 22)
        case .callout: FontSpec(size: 16, leading: 21)
        case .subheadline: FontSpec(size: 15, leading: 20)
        case .footnote: FontSpec(size: 13, leading: 18)
        case .caption: FontSpec(size: 12, leading: 16)
        case .caption2: FontSpec(size: 11, leading: 13)
        }
    }
}
