/// Every visual token of `Theme` by its JSON path (`colors.light.accent`, `chat.bubbleRadius`,
/// `textStyles.body.size.AX3`, `motion.keyboard`): the one table that layoutsnap.json's and a
/// fixture's `theme` are decoded by, the JSON Schema is written from, `layoutsnap config`
/// prints, and the result cache hashes. A token added to `Theme` and not here is caught by
/// `ThemeTests` (it counts `Theme`'s stored values).

import LayoutSnapJSON

/// One token's value.
public enum ThemeValue: Sendable, Hashable {
    case color(Color)
    case number(Double)
    case integer(Int)
    /// A font family; nil is the bundled Inter.
    case family(String?)
    case weight(FontWeight)
    case curve(AnimationCurve)
    case spring(Spring)

    /// As `layoutsnap config` prints it and a theme writes it.
    public var text: String {
        switch self {
        case .color(let c): c.hexString
        case .number(let n): JSONWriter.formatNumber(n)
        case .integer(let i): String(i)
        case .family(let f): f.map { "\"\($0)\"" } ?? "Inter (bundled)"
        case .weight(let w): w.rawValue
        case .curve(let c): c.shapeName
        case .spring(let s): s.name
        }
    }
}

/// One token: where it is in a theme object, what it holds, and how it is read from and written
/// to a `Theme`. `@unchecked Sendable`: the closures only capture key paths and enum cases,
/// which are immutable.
public struct ThemeToken: @unchecked Sendable {
    public enum ValueType: Sendable {
        case color
        case number(ClosedRange<Double>)
        case integer(ClosedRange<Int>)
        case family
        case weight
        case curve
        case spring
    }

    /// `colors.light.accent`.
    public let path: String
    public let type: ValueType
    public let help: String
    public let read: (Theme) -> ThemeValue
    public let write: (inout Theme, ThemeValue) -> Void

    public var keys: [String] { path.split(separator: ".").map(String.init) }
}

public enum ThemeTokens {
    /// Every token, in the order `layoutsnap config` prints them.
    public static let all: [ThemeToken] = colors + kinds + keyboard + textStyles + motion

    static let byPath: [String: Int] = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.path, $0) })

    public static func token(_ path: String) -> ThemeToken? { byPath[path].map { all[$0] } }

    // MARK: the table

    static func color(_ path: String, _ kp: WritableKeyPath<Theme, Color>, _ help: String) -> ThemeToken {
        ThemeToken(
            path: path, type: .color, help: help, read: { .color($0[keyPath: kp]) },
            write: { t, v in if case .color(let c) = v { t[keyPath: kp] = c } })
    }

    static func number(
        _ path: String, _ kp: WritableKeyPath<Theme, Double>, _ range: ClosedRange<Double>, _ help: String
    ) -> ThemeToken {
        ThemeToken(
            path: path, type: .number(range), help: help, read: { .number($0[keyPath: kp]) },
            write: { t, v in if case .number(let n) = v { t[keyPath: kp] = n } })
    }

    static let length: ClosedRange<Double> = 0...1000
    static let fontSize = FontSpec.sizeRange

    /// Palette fields by token name: the names say what each colours.
    static var paletteFields: [(String, WritableKeyPath<Palette, Color>, String)] {
        [
            ("canvas", \.canvas, "The screen behind everything."),
            ("text", \.text, "Primary text."),
            ("secondary", \.secondary, "Secondary text: placeholders, the chat's status row."),
            ("accent", \.accent, "The tint: user bubbles, the caret, the send button, links."),
            ("onAccent", \.onAccent, "Text and glyphs on the accent: a user's bubble text, the send arrow."),
            ("assistantBubble", \.bubbleGray, "The other side's bubbles."),
            ("separator", \.separator, "Hairlines."),
            ("gray", \.gray, "The field's border and image placeholders' glyph (systemGray)."),
            ("red", \.red, "The border of a field whose text does not match its pattern."),
            ("field", \.field, "The text field's own background."),
            ("keyboard", \.keyboard, "The keyboard and the suggestion strip attached to it."),
            ("key", \.key, "Letter keys."),
            ("functionKey", \.functionKey, "Shift, delete, 123, emoji and return."),
            ("keyShadow", \.keyShadow, "The 1 pt shadow under every key."),
            ("chip", \.chip, "Suggestion chips."),
            ("placeholderTop", \.placeholderTop, "An image without pixels: its gradient's top."),
            ("placeholderBottom", \.placeholderBottom, "An image without pixels: its gradient's bottom."),
            ("sendDisabled", \.sendDisabled, "The send button with nothing to send."),
        ]
    }

    static let colors: [ThemeToken] = [("light", \Theme.light), ("dark", \Theme.dark)].flatMap {
        (appearance, palette: WritableKeyPath<Theme, Palette>) in
        paletteFields.map { name, field, help in
            color("colors.\(appearance).\(name)", palette.appending(path: field), help)
        }
    }

    static let kinds: [ThemeToken] = [
        number("chat.listPaddingH", \.chat.listPaddingH, length, "The message list's side padding."),
        number("chat.listPaddingV", \.chat.listPaddingV, length, "The message list's top and bottom padding."),
        number("chat.spacing", \.chat.spacing, length, "Between bubbles, and above the status row."),
        number("chat.bubbleFraction", \.chat.bubbleFraction, 0.1...1, "A bubble's widest, as a share of the list."),
        number("chat.bubblePaddingH", \.chat.bubblePaddingH, length, "Text to a bubble's sides."),
        number("chat.bubblePaddingV", \.chat.bubblePaddingV, length, "Text to a bubble's top and bottom."),
        number("chat.bubbleRadius", \.chat.bubbleRadius, length, "Bubbles' (and their pictures') corners."),
        number("chat.endSpacer", \.chat.endSpacer, length, "Below the last bubble or the status row."),
        number("chat.bannerHeight", \.chat.bannerHeight, length, "The offline banner."),
        number("chat.barPadding", \.chat.barPadding, length, "Around the input bar's field."),
        number("chat.sendSize", \.chat.sendSize, 1...200, "The send button's diameter."),
        ThemeToken(
            path: "chat.inputMaxLines", type: .integer(1...100),
            help: "The input field's most lines before it scrolls.",
            read: { .integer($0.chat.inputMaxLines) },
            write: { t, v in if case .integer(let n) = v { t.chat.inputMaxLines = n } }),
        number("chat.inputLineSpacing", \.chat.inputLineSpacing, 0...100, "Extra space between the input's lines."),
        number("composer.borderRadius", \.composer.borderRadius, length, "A bordered field's corners."),
        number("composer.caretWidth", \.composer.caretWidth, 0.5...20, "The caret."),
        number("composer.stripHeight", \.composer.stripHeight, length, "The suggestion strip."),
        number("composer.stripGap", \.composer.stripGap, length, "Kept between the tallest field and the strip."),
        number("composer.chipHeight", \.composer.chipHeight, length, "Suggestion chips' height."),
        number("composer.chipPadding", \.composer.chipPadding, length, "A chip's text to its sides."),
        number("composer.chipSpacing", \.composer.chipSpacing, length, "Between chips."),
        number("post.compactHeight", \.post.compactHeight, 1...1000, "The collapsed card's height."),
        number("post.cardTop", \.post.cardTop, length, "The card's top on the canvas."),
        number("post.thumbnailSize", \.post.thumbnailSize, 1...1000, "The collapsed card's image."),
        number("post.compactImageY", \.post.compactImageY, length, "The thumbnail's top in the card."),
        number("post.titleSummaryPadding", \.post.titleSummaryPadding, length, "Around the title and summary."),
        number("post.titleSummarySpacing", \.post.titleSummarySpacing, length, "Between the title and the summary."),
        number(
            "post.thumbnailTrailingPadding", \.post.thumbnailTrailingPadding, length,
            "Room the title keeps for the thumbnail."),
        number("post.gapBelowImage", \.post.gapBelowImage, length, "Above and below the expanded image."),
        number("post.gapAboveAuthor", \.post.gapAboveAuthor, length, "Between the body and the author."),
        number("post.authorHeight", \.post.authorHeight, length, "The author line's share of the card."),
        number("post.bottomPadding", \.post.bottomPadding, length, "Below the author."),
        number("post.contentInset", \.post.contentInset, length, "The body and the image to the card's sides."),
        number("post.cornerRadius", \.post.cornerRadius, length, "The card's corners."),
        number("post.imageCornerRadius", \.post.imageCornerRadius, length, "The image's corners."),
        number("post.shadowRadius", \.post.shadowRadius, 0...100, "The card's shadow blur."),
        number("post.bulletIndent", \.post.bulletIndent, length, "Where a bullet's text starts."),
        color("post.shadowColor", \.post.shadowColor, "The card's shadow."),
        color("post.cardFill", \.post.cardFill, "The card (the same in both appearances, as the seed's)."),
        color("post.titleColor", \.post.titleColor, "The title."),
        color("post.summaryColor", \.post.summaryColor, "The summary."),
        color("post.bodyColor", \.post.bodyColor, "The body."),
        color("post.authorColor", \.post.authorColor, "The author line, once expanded."),
        number("post.titleSize", \.post.titleSize, fontSize, "The title's size (fixed, as on a device)."),
        ThemeToken(
            path: "post.titleWeight", type: .weight, help: "The title's weight.",
            read: { .weight($0.post.titleWeight) },
            write: { t, v in if case .weight(let w) = v { t.post.titleWeight = w } }),
        number("post.summarySize", \.post.summarySize, fontSize, "The summary's size (fixed, italic)."),
        number("transcript.indicatorWidth", \.transcript.indicatorWidth, 0.5...50, "The scroll indicator."),
        number("transcript.indicatorInset", \.transcript.indicatorInset, length, "Indicator to the viewport's edge."),
        number("transcript.indicatorMinLength", \.transcript.indicatorMinLength, length, "The indicator's shortest."),
        number(
            "transcript.indicatorOpacity", \.transcript.indicatorOpacity, 0...1, "The indicator, in the text colour."),
    ]

    static let keyboard: [ThemeToken] = [
        number("keyboard.predictiveBar", \.keyboard.predictiveBar, length, "The predictive bar's height."),
        number("keyboard.keysArea", \.keyboard.keysArea, 1...2000, "The keys' area below the bar."),
        number("keyboard.rowTop", \.keyboard.rowTop, length, "Above the first row."),
        number("keyboard.rowHeight", \.keyboard.rowHeight, 1...500, "A key's height."),
        number("keyboard.rowGap", \.keyboard.rowGap, length, "Between rows."),
        number("keyboard.keyGap", \.keyboard.keyGap, length, "Between keys."),
        number("keyboard.sideInset", \.keyboard.sideInset, length, "Keys to the sides."),
        number("keyboard.keyRadius", \.keyboard.keyRadius, length, "Keys' corners."),
        number(
            "keyboard.functionWidth", \.keyboard.functionWidth, 0.1...10, "Shift, delete, 123, emoji, in letter keys."),
        number("keyboard.returnWidth", \.keyboard.returnWidth, 0.1...10, "Return, in letter keys."),
        number("keyboard.shadowOffset", \.keyboard.shadowOffset, 0...20, "How far below its key a key's shadow is."),
        number("keyboard.letterSize", \.keyboard.letterFont.size, fontSize, "Letter labels (the system's font)."),
        number("keyboard.wordSize", \.keyboard.wordFont.size, fontSize, "The function keys' words."),
        number("keyboard.dividerWidth", \.keyboard.dividerWidth, 0...20, "The predictive bar's dividers."),
        number("keyboard.dividerHeight", \.keyboard.dividerHeight, 0...200, "The dividers' height."),
    ]

    static let textStyles: [ThemeToken] =
        [
            ThemeToken(
                path: "textStyles.family", type: .family,
                help: "Every text's family unless its style names one (a family of layoutsnap.json's fonts).",
                read: { .family($0.textStyles.family) },
                write: { t, v in if case .family(let f) = v { t.textStyles.family = f } })
        ]
        + TextStyle.allCases.flatMap { style -> [ThemeToken] in
            let name = "textStyles.\(style.rawValue)"
            var tokens = [
                ThemeToken(
                    path: "\(name).family", type: .family, help: "This style's family.",
                    read: { .family($0.textStyles.styles[style]!.family) },
                    write: { t, v in if case .family(let f) = v { t.textStyles.styles[style]!.family = f } }),
                ThemeToken(
                    path: "\(name).weight", type: .weight, help: "This style's weight.",
                    read: { .weight($0.textStyles.styles[style]!.weight) },
                    write: { t, v in if case .weight(let w) = v { t.textStyles.styles[style]!.weight = w } }),
            ]
            for category in ContentSizeCategory.allCases {
                tokens.append(
                    ThemeToken(
                        path: "\(name).size.\(category.rawValue)", type: .number(fontSize),
                        help: "Points at \(category.rawValue).",
                        read: { .number($0.textStyles.styles[style]!.sizes[category]!) },
                        write: { t, v in if case .number(let n) = v { t.textStyles.styles[style]!.sizes[category] = n }
                        }))
            }
            for category in ContentSizeCategory.allCases {
                tokens.append(
                    ThemeToken(
                        path: "\(name).leading.\(category.rawValue)", type: .number(fontSize),
                        help: "The line height at \(category.rawValue).",
                        read: { .number($0.textStyles.styles[style]!.leadings[category]!) },
                        write: { t, v in
                            if case .number(let n) = v { t.textStyles.styles[style]!.leadings[category] = n }
                        }))
            }
            return tokens
        }

    static let motion: [ThemeToken] = [
        ThemeToken(
            path: "motion.expand.curve", type: .curve,
            help: "The post card's expand and collapse when its fixture names no curve.",
            read: { .curve($0.motion.expandCurve) },
            write: { t, v in if case .curve(let c) = v { t.motion.expandCurve = c } }),
        number(
            "motion.expand.duration", \.motion.expandDuration, Limits.animationDuration,
            "Seconds of that curve when it is a timing curve (a spring runs until it settles)."),
        ThemeToken(
            path: "motion.keyboard", type: .spring, help: "The keyboard's spring.",
            read: { .spring($0.motion.keyboard) },
            write: { t, v in if case .spring(let s) = v { t.motion.keyboard = s } }),
        ThemeToken(
            path: "motion.scroll", type: .spring, help: "Sticky auto-scroll and scroll-to-bottom.",
            read: { .spring($0.motion.scroll) }, write: { t, v in if case .spring(let s) = v { t.motion.scroll = s } }),
    ]
}

extension Color {
    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque: the notation themes write colours in.
    public var hexString: String {
        func byte(_ v: Double) -> String {
            let b = Int((min(max(v, 0), 1) * 255).rounded())
            let hex = String(b, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }
}
