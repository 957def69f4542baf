/// The colours of SPEC §4.5 for one appearance.
public struct Palette: Sendable, Hashable {
    public var canvas: Color
    public var text: Color
    public var secondary: Color
    public var accent: Color
    public var bubbleGray: Color
    public var separator: Color
    /// SwiftUI's `Color.gray` (systemGray), used for image placeholders.
    public var gray: Color

    public static let light = Palette(
        canvas: Color(hex: 0xF2F2F7), text: Color(hex: 0x000000),
        secondary: Color(hex: 0x3C3C4399, hasAlpha: true), accent: Color(hex: 0x007AFF),
        bubbleGray: Color(hex: 0xE9E9EB), separator: Color(hex: 0xC6C6C8), gray: Color(hex: 0x8E8E93))

    public static let dark = Palette(
        canvas: Color(hex: 0x000000), text: Color(hex: 0xFFFFFF),
        secondary: Color(hex: 0xEBEBF599, hasAlpha: true), accent: Color(hex: 0x0A84FF),
        bubbleGray: Color(hex: 0x262628), separator: Color(hex: 0x38383A), gray: Color(hex: 0x8E8E93))

    public static func of(_ appearance: Appearance) -> Palette {
        appearance == .dark ? .dark : .light
    }
}
