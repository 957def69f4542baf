/// The visual tokens a fixture is drawn with: today the colours of each appearance, the
/// keyboard's geometry and label fonts, and the chat's and the composer's geometry, with the
/// built-in design's values as the default (issue 32's themes start here; the post's and the
/// transcript's radii and paddings, the text styles and the motion are still their rules'
/// constants). Fixtures are drawn with `Theme.default` until a theme can be read from JSON.
public struct Theme: Sendable, Hashable {
    public var light: Palette
    public var dark: Palette
    public var keyboard: KeyboardStyle
    public var chat: ChatStyle
    public var composer: ComposerStyle

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
    /// sizes: the keyboard does not follow Dynamic Type).
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
