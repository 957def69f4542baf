import Foundation

/// UITextView's text container insets (reference/swiftui-facts.md): the composer's field and the
/// chat's input bar are both text views.
public enum TextViewInsets {
    public static let top = 8.0
    public static let bottom = 8.0
    /// lineFragmentPadding.
    public static let side = 5.0
}

/// The software keyboard of the composer and the chat: how it moves, where it is, and how it is
/// drawn. The drawing is iOS's English keyboard: a panel with the predictive bar on top (three
/// empty slots between two thin dividers) and four rows of keycaps with their labels and 1 pt
/// shadow: QWERTYUIOP, ASDFGHJKL, shift ZXCVBNM delete, then 123, emoji, space and return. It is
/// scenery: its rect is what the layout reports and what moves, and its labels name no element,
/// so the lints never judge them.
public enum Keyboard {
    /// The keyboard's motion (reference/swiftui-facts.md, docs/fixtures/chat.md): a critically damped spring,
    /// mass 3, stiffness 1000, w0 = sqrt(1000 / 3) = 18.26 rad/s, x(t) = 1 - (1 + w0 t) e^(-w0 t):
    /// 94% at 0.25 s, 99% at 0.5 s, settled (docs/fixtures/README.md "Common fields") in about 0.6 s. The damping 500 that
    /// UIKit's CASpringAnimation reports is not a physical coefficient: taken as one, the spring is
    /// overdamped and crawls for over 3 s, which no keyboard does.
    public static let spring = Spring(mass: 3, stiffness: 1000, dampingRatio: 1)

    /// The keyboard with `shown` points of it on the canvas (a hidden one sits just below), its
    /// display list (empty while hidden) and its layout element. Under a right-to-left layout the
    /// keyboard is drawn pre-mirrored, so that once the frame is mirrored it still reads QWERTY
    /// from the left: the system keyboard is not part of the app's mirrored view.
    static func layout(
        canvas: Canvas, device: Device, shown: Double, palette: Palette, style: KeyboardStyle = .default,
        direction: LayoutDirection, labels: Labels
    ) -> (ops: [DrawOp], element: LayoutElement) {
        let rect = Rect(x: 0, y: canvas.height - shown, width: canvas.width, height: device.keyboardHeight)
        let visible = shown > 0.005
        let mirrorWidth = direction == .rtl ? canvas.width : nil
        let ops =
            visible ? self.ops(rect, palette: palette, style: style, mirrorWidth: mirrorWidth, labels: labels) : []
        return (ops, LayoutElement(id: "keyboard", rect: rect, attributes: [("visible", .bool(visible))]))
    }

    static let letterRows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]
    /// Every key label as text with its measured width, measured once per fixture (the frames
    /// only place them).
    public struct Labels: Sendable {
        var texts: [String: (text: StyledText, width: Double)] = [:]

        public init(measurer: some TextMeasuring, style: KeyboardStyle = .default) throws {
            for (label, font) in letterRows.joined().map({ (String($0), style.letterFont) })
                + ["123", "space", "return"].map({ ($0, style.wordFont) })
            {
                let text = StyledText(runs: [TextRun(label)], font: font, width: nil)
                texts[label] = (text, try measurer.measure(text).maxLineWidth)
            }
        }
    }

    /// The keyboard's display list; with `mirrorWidth` (a right-to-left frame that wide) every op
    /// is placed so that the frame's mirror (`RightToLeft.mirror`) puts it back where it is here:
    /// shapes are mirrored ahead (mirroring twice is the identity), and a label, whose lines end
    /// at `width - leadingX` once mirrored, gets the leading edge that draws it in place.
    static func ops(
        _ rect: Rect, palette: Palette, style: KeyboardStyle = .default, mirrorWidth: Double? = nil, labels: Labels
    ) -> [DrawOp] {
        let ops = ltrOps(rect, palette: palette, style: style, mirrorWidth: mirrorWidth, labels: labels)
        guard let w = mirrorWidth else { return ops }
        return ops.map { op in
            if case .text = op { op } else { RightToLeft.mirror(op, width: w) }
        }
    }

    private static func ltrOps(
        _ rect: Rect, palette: Palette, style: KeyboardStyle, mirrorWidth: Double?, labels: Labels
    ) -> [DrawOp] {
        let (predictiveBar, keyGap, sideInset, keyRadius) = (
            style.predictiveBar, style.keyGap, style.sideInset, style.keyRadius
        )
        let (rowTop, rowHeight, rowGap) = (style.rowTop, style.rowHeight, style.rowGap)
        var ops: [DrawOp] = [.roundedRect(rect, cornerRadius: 0, fill: palette.keyboard, continuous: false)]
        for third in 1...2 {
            let x = rect.x + rect.width * Double(third) / 3
            ops.append(
                .roundedRect(
                    Rect(
                        x: x - style.dividerWidth / 2, y: rect.y + (predictiveBar - style.dividerHeight) / 2,
                        width: style.dividerWidth, height: style.dividerHeight), cornerRadius: 0,
                    fill: palette.functionKey, continuous: false))
        }
        let keyWidth = (rect.width - 2 * sideInset - 9 * keyGap) / 10
        let s = min(1, max(0, rect.height - predictiveBar) / style.keysArea)
        guard keyWidth > 0, s > 0 else { return ops }
        let height = rowHeight * s
        /// One keycap: its shadow 1 pt below, then the key.
        func key(_ x: Double, _ row: Int, _ width: Double, function: Bool = false) -> Rect {
            let y = rect.y + predictiveBar + (rowTop + Double(row) * (rowHeight + rowGap)) * s
            let r = Rect(x: x, y: y, width: width, height: height)
            ops.append(
                .roundedRect(
                    Rect(x: x, y: y + style.shadowOffset, width: width, height: height), cornerRadius: keyRadius,
                    fill: palette.keyShadow, continuous: false))
            ops.append(
                .roundedRect(
                    r, cornerRadius: keyRadius, fill: function ? palette.functionKey : palette.key, continuous: false))
            return r
        }
        func label(_ text: String, in r: Rect) {
            guard let (styled, width) = labels.texts[text] else { return }
            let font = styled.font
            let boxes = LineMetrics.boxes(lines: 1, font: font)
            let x = r.x + (r.width - width) / 2
            ops.append(
                .text(
                    TextDraw(
                        text: styled, origin: Point(x: x, y: r.y + (r.height - boxes.height) / 2),
                        baselines: boxes.baselines, color: palette.text, leadingX: mirrorWidth.map { $0 - x - width })))
        }
        for (row, letters) in letterRows.enumerated() {
            let total = Double(letters.count) * keyWidth + Double(letters.count - 1) * keyGap
            let start = rect.x + (rect.width - total) / 2
            for (i, letter) in letters.enumerated() {
                label(String(letter), in: key(start + Double(i) * (keyWidth + keyGap), row, keyWidth))
            }
        }
        let wide = style.functionWidth * keyWidth
        let glyph = min(s, keyWidth / 31.5)
        ops += shiftGlyph(center: key(rect.x + sideInset, 2, wide, function: true).mid, size: glyph, palette.text)
        ops += deleteGlyph(
            center: key(rect.maxX - sideInset - wide, 2, wide, function: true).mid, size: glyph, palette.text)
        var x = rect.x + sideInset
        label("123", in: key(x, 3, wide, function: true))
        x += wide + keyGap
        ops += emojiGlyph(center: key(x, 3, wide, function: true).mid, size: glyph, palette.text)
        x += wide + keyGap
        let returnKey = style.returnWidth * keyWidth
        let space = rect.maxX - sideInset - returnKey - keyGap - x
        if space > 0 { label("space", in: key(x, 3, space)) }
        label("return", in: key(rect.maxX - sideInset - returnKey, 3, returnKey, function: true))
        return ops
    }

    /// Symbols as vector paths, `size` 1 on a 375 pt wide keyboard: shift (an outlined up-arrow),
    /// delete (an outlined left-pointing tag with a cross) and emoji (a smiling face).
    static func shiftGlyph(center c: Point, size k: Double, _ color: Color) -> [DrawOp] {
        let arrow: [(Double, Double)] = [
            (0, -8.5), (8, -0.5), (4, -0.5), (4, 7), (-4, 7), (-4, -0.5), (-8, -0.5), (0, -8.5),
        ]
        return [.strokeLines([arrow.map { Point(x: c.x + $0.0 * k, y: c.y + $0.1 * k) }], color: color, lineWidth: 1.5)]
    }

    static func deleteGlyph(center c: Point, size k: Double, _ color: Color) -> [DrawOp] {
        func p(_ x: Double, _ y: Double) -> Point { Point(x: c.x + x * k, y: c.y + y * k) }
        let tag = [p(-11, 0), p(-5, -7.5), p(11, -7.5), p(11, 7.5), p(-5, 7.5), p(-11, 0)]
        return [
            .strokeLines([tag], color: color, lineWidth: 1.5),
            .strokeLines([[p(-0.5, -3.5), p(6.5, 3.5)], [p(-0.5, 3.5), p(6.5, -3.5)]], color: color, lineWidth: 1.5),
        ]
    }

    static func emojiGlyph(center c: Point, size k: Double, _ color: Color) -> [DrawOp] {
        let r = 9 * k
        var smile: [Point] = []
        for i in 0...8 {
            let a = Double.pi * (0.15 + 0.7 * Double(i) / 8)
            smile.append(Point(x: c.x + 5 * k * cos(a), y: c.y + 1 * k + 4 * k * sin(a)))
        }
        let eye = 1.2 * k
        return [
            .strokeRoundedRect(
                Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r), cornerRadius: r, color: color,
                lineWidth: 1.5,
                continuous: false),
            .roundedRect(
                Rect(x: c.x - 3.5 * k - eye, y: c.y - 3 * k - eye, width: 2 * eye, height: 2 * eye), cornerRadius: eye,
                fill: color, continuous: false),
            .roundedRect(
                Rect(x: c.x + 3.5 * k - eye, y: c.y - 3 * k - eye, width: 2 * eye, height: 2 * eye), cornerRadius: eye,
                fill: color, continuous: false),
            .strokeLines([smile], color: color, lineWidth: 1.5),
        ]
    }
}

extension Rect {
    fileprivate var mid: Point { Point(x: x + width / 2, y: y + height / 2) }
}
