/// The visual tokens a fixture is drawn with (docs/themes.md): the colours of each appearance,
/// each kind's geometry, the keyboard, the text styles and the motion, with the built-in design's
/// values as the default. A project's `theme` in layoutsnap.json, a named theme of its `themes`
/// and a fixture's own `theme` are patches over it (`ThemePatch`); `ThemeTokens` names each
/// token for JSON, the schema and `layoutsnap config`.
public struct Theme: Sendable, Hashable {
    public var light: Palette
    public var dark: Palette
    public var keyboard: KeyboardStyle
    public var chat: ChatStyle
    public var composer: ComposerStyle
    public var post = PostStyle()
    public var transcript = TranscriptStyle()
    public var textStyles = TextStyles()
    public var motion = MotionStyle()

    public init(
        light: Palette = .light, dark: Palette = .dark, keyboard: KeyboardStyle = .default, chat: ChatStyle = .default,
        composer: ComposerStyle = .default
    ) {
        self.light = light
        self.dark = dark
        self.keyboard = keyboard
        self.chat = chat
        self.composer = composer
    }

    /// The built-in design: the seeds' iOS look, every bundled golden's.
    public static let `default` = Theme()

    public func palette(_ appearance: Appearance) -> Palette {
        appearance == .dark ? dark : light
    }

    /// A text style's font at a Dynamic Type size, in this theme.
    public func font(_ style: TextStyle, at category: ContentSizeCategory) -> FontSpec {
        textStyles.font(style, at: category)
    }
}

/// The text styles' family, weight, and size and leading at each Dynamic Type size. The default
/// is Apple's table (reference/dynamic-type.md) in the tool's stand-in for SF Pro.
public struct TextStyles: Sendable, Hashable {
    /// Every text's family unless its style names one; nil is the bundled Inter.
    public var family: String?
    public var styles: [TextStyle: Tokens]

    public struct Tokens: Sendable, Hashable {
        public var family: String?
        public var weight: FontWeight
        public var sizes: [ContentSizeCategory: Double]
        public var leadings: [ContentSizeCategory: Double]
    }

    public init() {
        var styles: [TextStyle: Tokens] = [:]
        for style in TextStyle.allCases {
            var sizes: [ContentSizeCategory: Double] = [:]
            var leadings: [ContentSizeCategory: Double] = [:]
            for category in ContentSizeCategory.allCases {
                let (size, leading) = category.metrics(style)
                sizes[category] = size
                leadings[category] = leading
            }
            styles[style] = Tokens(
                family: nil, weight: style == .headline ? .semibold : .regular, sizes: sizes, leadings: leadings)
        }
        self.styles = styles
    }

    public func font(_ style: TextStyle, at category: ContentSizeCategory) -> FontSpec {
        let t = styles[style]!
        var font = FontSpec(
            size: t.sizes[category]!, weight: t.weight, leading: t.leadings[category]!, style: style)
        font.family = t.family ?? family
        return font
    }

    /// `font` (named by its text style, or an explicit size) set in this theme at `category`: a
    /// style takes the theme's size, leading, weight and family (a fixture names a style or an
    /// explicit font, never a style with its own weight); an explicit size keeps its size and
    /// weight and takes the theme's family.
    public func restyle(_ font: FontSpec, at category: ContentSizeCategory) -> FontSpec {
        guard let style = font.style else {
            var copy = font
            copy.family = family
            return copy
        }
        var themed = self.font(style, at: category)
        themed.italic = font.italic
        return themed
    }
}

/// The motion the rules use unless a fixture gives its own: the post card's expand and collapse,
/// the keyboard's spring, and the scroll views' spring.
public struct MotionStyle: Sendable, Hashable {
    /// The post card's curve when its fixture names none (a spring ignores `expandDuration`).
    public var expandCurve: AnimationCurve = .timing(.easeInOut, duration: 0.3)
    public var expandDuration = 0.3
    /// The keyboard's motion (`Keyboard.spring`).
    public var keyboard: Spring = Keyboard.spring
    /// Sticky auto-scroll and scroll-to-bottom in the transcript and the chat: iOS 17's default
    /// `withAnimation` spring.
    public var scroll: Spring = .default

    public init() {}

    /// The post's expand curve: the curve with the theme's duration when it is a timing curve.
    public var expand: AnimationCurve {
        switch expandCurve {
        case .timing(let curve, _): .timing(curve, duration: expandDuration)
        case .spring: expandCurve
        }
    }
}

/// The post card's geometry and colours (docs/fixtures/post.md): the seed's numbers. Post cards
/// keep dark text on a light card in both appearances, as the seed does.
public struct PostStyle: Sendable, Hashable {
    public var compactHeight = 100.0
    public var cardTop = 12.0
    public var thumbnailSize = 80.0
    /// Compact image y: (100 - 80) / 2 + 8. The seed also has (80 - 80) / 2 + 8 = 8 in one place;
    /// docs/fixtures/post.md settles on 18 everywhere.
    public var compactImageY = 18.0
    public var titleSummaryPadding = 8.0
    public var titleSummarySpacing = 4.0
    public var thumbnailTrailingPadding = 96.0
    public var gapBelowImage = 16.0
    public var gapAboveAuthor = 24.0
    public var authorHeight = 15.0
    public var bottomPadding = 16.0
    public var contentInset = 10.0
    public var cornerRadius = 12.0
    public var imageCornerRadius = 12.0
    public var shadowRadius = 2.0
    /// Where a bullet's text starts; the bullet sits at the left edge.
    public var bulletIndent = 20.0
    /// `.shadow` is black at 33%; it darkens through a card that is only 90% opaque.
    public var shadowColor = Color.black.opacity(0.33 * 0.9)
    public var cardFill = Color.white.opacity(0.9)
    public var titleColor = Color.black
    public var summaryColor = Color.black.opacity(0.8)
    public var bodyColor = Color.black
    /// The author line's colour once expanded (it fades in with f).
    public var authorColor = Color.black.opacity(0.5)
    /// The title and the summary are explicit sizes and stay fixed, as on a device.
    public var titleSize = 22.0
    public var titleWeight = FontWeight.bold
    public var summarySize = 15.0

    public init() {}

    public static let `default` = PostStyle()
}

/// The transcript's scroll indicator (UIKit's): 3 pt wide, 3 pt from the viewport's right edge,
/// at least 12 pt long, in the text colour at 35%.
public struct TranscriptStyle: Sendable, Hashable {
    public var indicatorWidth = 3.0
    public var indicatorInset = 3.0
    public var indicatorMinLength = 12.0
    public var indicatorOpacity = 0.35

    public init() {}
}

/// The drawn keyboard's geometry and label fonts (docs/fixtures/composer.md "Keyboard").
public struct KeyboardStyle: Sendable, Hashable {
    /// The predictive bar's height, and the keys' area below it as iOS lays it out on a 216 pt
    /// keyboard (an iPhone SE's, 260 pt with the bar): rows of 42 pt keys 12 pt apart from 8 pt
    /// below the bar. A taller keyboard keeps these keys and leaves the room below them empty (the
    /// Face ID phones' bottom bar); a shorter one scales them down to fit.
    public var predictiveBar = 44.0
    public var keysArea = 216.0
    public var rowTop = 8.0
    public var rowHeight = 42.0
    public var rowGap = 12.0
    /// Horizontal geometry: ten letter keys share the width with 6 pt gaps and 3 pt side insets;
    /// shift, delete, 123 and emoji are 1.3 letter keys wide, return 2.75, space takes the rest.
    public var keyGap = 6.0
    public var sideInset = 3.0
    public var keyRadius = 5.0
    public var functionWidth = 1.3
    public var returnWidth = 2.75
    /// How far below its key the key's shadow is drawn.
    public var shadowOffset = 1.0
    /// Key labels in the system font: letters 22.5 pt, the function keys' words 16 pt (explicit
    /// sizes: the keyboard does not follow Dynamic Type, nor a theme's family: it is the system's).
    public var letterFont = FontSpec(size: 22.5)
    public var wordFont = FontSpec(size: 16)
    /// The predictive bar's dividers: 0.5 pt wide, 24 pt tall, at a third and two thirds.
    public var dividerWidth = 0.5
    public var dividerHeight = 24.0

    public init() {}

    public static let `default` = KeyboardStyle()
}

/// The chat's geometry (docs/fixtures/chat.md): the list's padding and spacing, the bubbles'
/// width, padding and corners, the banner, the input bar and the send button.
public struct ChatStyle: Sendable, Hashable {
    public var listPaddingH = 12.0
    public var listPaddingV = 8.0
    /// Between bubbles, and between the last one and the status row.
    public var spacing = 8.0
    /// A bubble is at most this fraction of the list's inner width.
    public var bubbleFraction = 0.75
    public var bubblePaddingH = 12.0
    public var bubblePaddingV = 8.0
    /// Continuous corners of bubbles (and of pictures cut to them) and of the input field.
    public var bubbleRadius = 18.0
    /// Below the last bubble or the status row.
    public var endSpacer = 20.0
    public var bannerHeight = 32.0
    /// The input bar: a composer field (body, lineSpacing 2, insets 8/5, 1 to 5 lines) with 8 pt
    /// around it and a 32 pt send button on its right.
    public var barPadding = 8.0
    public var sendSize = 32.0
    public var inputMaxLines = 5
    public var inputLineSpacing = 2.0

    public init() {}

    public static let `default` = ChatStyle()
}

/// The composer's geometry (docs/fixtures/composer.md): the field's corners, the caret, and the
/// suggestion strip and its chips.
public struct ComposerStyle: Sendable, Hashable {
    /// Continuous corners of a field with a border.
    public var borderRadius = 20.0
    public var caretWidth = 2.0
    public var stripHeight = 44.0
    /// Space kept between the field's bottom and the strip when the field is as tall as it gets.
    public var stripGap = 8.0
    /// Suggestion chips: capsules this tall, their text padded this much each side, this far apart.
    public var chipHeight = 32.0
    public var chipPadding = 12.0
    public var chipSpacing = 8.0

    public init() {}

    public static let `default` = ComposerStyle()
}
