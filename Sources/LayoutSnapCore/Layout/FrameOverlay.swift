/// The geometry a designer checks a frame against (`layoutsnap preview`): the layout JSON's
/// element rects with their ids, and the box and baseline of every text line drawn.

import LayoutSnapJSON

public struct FrameOverlay: Sendable, Hashable {
    public struct Element: Sendable, Hashable {
        public var id: String
        public var rect: Rect
    }

    /// One drawn line of text: its natural line box (ascender to descender, iOS metrics), and
    /// its baseline as a y on the canvas. Both are cut to the text's clip (a scroll viewport or a
    /// reveal mask); lines wholly outside it are left out.
    public struct Line: Sendable, Hashable {
        public var box: Rect
        public var baseline: Double
    }

    public var elements: [Element]
    public var lines: [Line]

    /// Builds the overlay of `frame`; `measurer` gives each line's x and width (the same cached
    /// layouts the renderer draws).
    public init(frame: LayoutFrame, measurer: any TextMeasuring) throws {
        elements = frame.elements.map { Element(id: $0.id, rect: $0.rect) }
        lines = []
        for op in frame.drawList {
            guard case .text(let draw) = op, draw.color.alpha > 0 else { continue }
            let measured = try measurer.measure(draw.text)
            let font = draw.text.font
            for (index, line) in measured.lines.enumerated() where index < draw.baselines.count {
                let baseline = draw.origin.y + draw.baselines[index]
                var box = Rect(
                    x: draw.lineX(line), y: baseline - font.ascent, width: max(line.width, 0),
                    height: font.firstLineHeight)
                if let clip = draw.clip {
                    guard let visible = box.intersection(clip) else { continue }
                    box = visible
                }
                lines.append(Line(box: box, baseline: baseline))
            }
        }
    }

    public static let elementColor = Color(hex: 0xFF2D55)
    public static let lineBoxColor = Color(red: 0.2, green: 0.68, blue: 0.9, alpha: 0.18)
    public static let baselineColor = Color(hex: 0xFF9500)

    /// The overlay as display-list operations drawn over the frame (`preview --overlay` bakes them
    /// into the contact sheet and the animation): hairlines one pixel wide at `scale`.
    public func drawOps(scale: Double) -> [DrawOp] {
        let hairline = 1 / scale
        var ops: [DrawOp] = []
        for line in lines {
            ops.append(.roundedRect(line.box, cornerRadius: 0, fill: Self.lineBoxColor, continuous: false))
            ops.append(
                .roundedRect(
                    Rect(x: line.box.x, y: line.baseline - hairline / 2, width: line.box.width, height: hairline),
                    cornerRadius: 0, fill: Self.baselineColor, continuous: false))
        }
        let label = FontSpec(size: 9, weight: .semibold)
        for element in elements where element.rect.width > 0 || element.rect.height > 0 {
            let r = element.rect
            ops.append(
                .strokeRoundedRect(
                    Rect(
                        x: r.x + hairline / 2, y: r.y + hairline / 2, width: max(r.width - hairline, hairline),
                        height: max(r.height - hairline, hairline)),
                    cornerRadius: 0, color: Self.elementColor, lineWidth: hairline, continuous: false))
            let text = StyledText(runs: [TextRun(element.id)], font: label, width: nil, maxLines: 1)
            ops.append(
                .text(
                    TextDraw(
                        text: text, origin: Point(x: r.x + 2, y: r.y + 1), baselines: [label.ascent],
                        color: Self.elementColor)))
        }
        return ops
    }

    /// `{"elements": [{"id", "rect"}], "lines": [{"box": [x, y, w, h], "baseline": y}]}`, rounded
    /// like the layout JSON.
    public var json: JSONOutput {
        func rect(_ r: Rect) -> JSONOutput {
            .array([.number(r.x), .number(r.y), .number(r.width), .number(r.height)])
        }
        return .object([
            ("elements", .array(elements.map { .object([("id", .string($0.id)), ("rect", rect($0.rect))]) })),
            ("lines", .array(lines.map { .object([("box", rect($0.box)), ("baseline", .number($0.baseline))]) })),
        ])
    }
}
