/// The visual tokens a fixture is drawn with: today the colours of each appearance and the
/// keyboard's geometry and label fonts, with the built-in design's values as the default (issue
/// 32's themes start here; the kinds' own radii, paddings, text styles and motion are still their
/// rules' constants). Fixtures are drawn with `Theme.default` until a theme can be read from JSON.
public struct Theme: Sendable, Hashable {
    public var light: Palette
    public var dark: Palette
    public var keyboard: KeyboardStyle

    public init(light: Palette = .light, dark: Palette = .dark, keyboard: KeyboardStyle = .default) {
        self.light = light
        self.dark = dark
        self.keyboard = keyboard
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
