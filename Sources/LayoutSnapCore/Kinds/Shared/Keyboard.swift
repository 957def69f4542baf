/// UITextView's text container insets (reference/swiftui-facts.md): the composer's field and the
/// chat's input bar are both text views.
public enum TextViewInsets {
    public static let top = 8.0
    public static let bottom = 8.0
    /// lineFragmentPadding.
    public static let side = 5.0
}

/// The software keyboard of the composer and the chat: how it moves, where it is, and how it is
/// drawn. The drawing is a panel with the system's predictive bar on top and four rows of blank
/// keys (QWERTY's 10, 9 and 7 letters with shift and delete, then 123, space and return): scenery,
/// while its rect is what the layout reports and what moves.
public enum Keyboard {
    /// The keyboard's motion (reference/swiftui-facts.md, docs/fixtures/chat.md): a critically damped spring,
    /// mass 3, stiffness 1000, w0 = sqrt(1000 / 3) = 18.26 rad/s, x(t) = 1 - (1 + w0 t) e^(-w0 t):
    /// 94% at 0.25 s, 99% at 0.5 s, settled (docs/fixtures/README.md "Common fields") in about 0.6 s. The damping 500 that
    /// UIKit's CASpringAnimation reports is not a physical coefficient: taken as one, the spring is
    /// overdamped and crawls for over 3 s, which no keyboard does.
    public static let spring = Spring(mass: 3, stiffness: 1000, dampingRatio: 1)
    public static let curve = AnimationCurve.spring(spring)

    /// The keyboard with `shown` points of it on the canvas (a hidden one sits just below), its
    /// display list (empty while hidden) and its layout element.
    static func layout(canvas: Canvas, device: Device, shown: Double, palette: Palette) -> (
        ops: [DrawOp], element: LayoutElement
    ) {
        let rect = Rect(x: 0, y: canvas.height - shown, width: canvas.width, height: device.keyboardHeight)
        let visible = shown > 0.005
        return (
            visible ? ops(rect, palette: palette) : [],
            LayoutElement(id: "keyboard", rect: rect, attributes: [("visible", .bool(visible))])
        )
    }

    static let predictiveBar = 44.0
    static let rowHeight = 42.0
    static let rowGap = 12.0
    static let keyGap = 6.0
    static let sideInset = 3.0
    static let keyRadius = 5.0

    static func ops(_ rect: Rect, palette: Palette) -> [DrawOp] {
        var ops: [DrawOp] = [.roundedRect(rect, cornerRadius: 0, fill: palette.keyboard, continuous: false)]
        let keyWidth = (rect.width - 2 * sideInset - 9 * keyGap) / 10
        guard keyWidth > 0 else { return ops }
        func key(_ x: Double, _ row: Int, _ width: Double, function: Bool = false) {
            let y = rect.y + predictiveBar + 8 + Double(row) * (rowHeight + rowGap)
            ops.append(
                .roundedRect(
                    Rect(x: x, y: y, width: width, height: rowHeight), cornerRadius: keyRadius,
                    fill: function ? palette.functionKey : palette.key, continuous: false))
        }
        func row(_ count: Int, _ row: Int) {
            let total = Double(count) * keyWidth + Double(count - 1) * keyGap
            let start = rect.x + (rect.width - total) / 2
            for i in 0..<count { key(start + Double(i) * (keyWidth + keyGap), row, keyWidth) }
        }
        row(10, 0)
        row(9, 1)
        row(7, 2)
        let wide = 1.3 * keyWidth
        key(rect.x + sideInset, 2, wide, function: true)
        key(rect.maxX - sideInset - wide, 2, wide, function: true)
        let side = 2 * keyWidth + keyGap
        key(rect.x + sideInset, 3, side, function: true)
        key(rect.x + sideInset + side + keyGap, 3, rect.width - 2 * sideInset - 2 * side - 2 * keyGap)
        key(rect.maxX - sideInset - side, 3, side, function: true)
        return ops
    }
}
