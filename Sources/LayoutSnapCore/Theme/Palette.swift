/// The colours of docs/fixtures/README.md for one appearance.
public struct Palette: Sendable, Hashable {
    public var canvas: Color
    public var text: Color
    public var secondary: Color
    public var accent: Color
    public var bubbleGray: Color
    public var separator: Color
    /// SwiftUI's `Color.gray` (systemGray), used for image placeholders and the field's border.
    public var gray: Color
    /// systemRed: the border of a field whose text does not match its pattern.
    public var red: Color = Color(hex: 0xFF3B30)
    /// The text field's own background (systemBackground in light, the grouped cell grey in dark).
    public var field: Color = Color(hex: 0xFFFFFF)
    /// Text and glyphs on the accent colour: a user's bubble text, the send button's arrow.
    public var onAccent: Color = Color(hex: 0xFFFFFF)
    /// The keyboard and the suggestion strip attached to it, its letter keys, its function keys
    /// and the suggestion chips. Not in docs/fixtures/README.md: measured by eye from iOS 17 screenshots.
    public var keyboard: Color = Color(hex: 0xD1D4D9)
    public var key: Color = Color(hex: 0xFFFFFF)
    public var functionKey: Color = Color(hex: 0xABB0BA)
    public var chip: Color = Color(hex: 0xFFFFFF)
    /// The 1 pt shadow under every key: black at 30%, over the keyboard's own colour.
    public var keyShadow: Color = Color.black.opacity(0.3)
    /// A chat image without pixels: a neutral vertical gradient, top to bottom, with a picture
    /// glyph in `gray`.
    public var placeholderTop: Color = Color(hex: 0xD9DBE0)
    public var placeholderBottom: Color = Color(hex: 0xB8BCC4)
    /// systemGray3: the send button with no draft to send.
    public var sendDisabled: Color = Color(hex: 0xC7C7CC)

    public static let light = Palette(
        canvas: Color(hex: 0xF2F2F7), text: Color(hex: 0x000000),
        secondary: Color(hex: 0x3C3C4399, hasAlpha: true), accent: Color(hex: 0x007AFF),
        bubbleGray: Color(hex: 0xE9E9EB), separator: Color(hex: 0xC6C6C8), gray: Color(hex: 0x8E8E93))

    public static let dark = Palette(
        canvas: Color(hex: 0x000000), text: Color(hex: 0xFFFFFF),
        secondary: Color(hex: 0xEBEBF599, hasAlpha: true), accent: Color(hex: 0x0A84FF),
        bubbleGray: Color(hex: 0x262628), separator: Color(hex: 0x38383A), gray: Color(hex: 0x8E8E93),
        red: Color(hex: 0xFF453A), field: Color(hex: 0x1C1C1E), keyboard: Color(hex: 0x2C2C2E),
        key: Color(hex: 0x6B6B6E), functionKey: Color(hex: 0x464649), chip: Color(hex: 0x3A3A3C),
        keyShadow: Color.black.opacity(0.3), placeholderTop: Color(hex: 0x48484C),
        placeholderBottom: Color(hex: 0x2E2E31), sendDisabled: Color(hex: 0x48484A))
}
