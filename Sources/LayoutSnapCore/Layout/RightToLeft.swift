/// A right-to-left layout direction as SwiftUI applies it (`direction: "rtl"`): the whole view is
/// mirrored, x' = width - x - w, so leading and trailing swap (chat bubbles change sides, the send
/// button moves left, the post's compact image goes left, the suggestion strip's order reverses,
/// scroll indicators move left), while images are not flipped and every text keeps its own
/// script's direction: its frame is mirrored and its lines align to the frame's leading edge, now
/// the right (SwiftUI's `.leading`). Positions inside a text (a caret, a selection) are the rules'
/// to place (`preMirrored`), since a mirror would reverse them within their line.
public enum RightToLeft {
    /// `frame` mirrored across a canvas `width` points wide.
    public static func mirror(_ frame: LayoutFrame, width w: Double) -> LayoutFrame {
        var f = frame
        f.elements = frame.elements.map { element in
            var e = element
            e.rect = mirror(element.rect, width: w)
            e.attributes = element.attributes.map { attribute in
                guard attribute.key == "clip", case .numbers(let n) = attribute.value, n.count == 4 else {
                    return attribute
                }
                return (attribute.key, .numbers([w - n[0] - n[2], n[1], n[2], n[3]]))
            }
            return e
        }
        f.drawList = frame.drawList.map { mirror($0, width: w) }
        return f
    }

    public static func mirror(_ r: Rect, width w: Double) -> Rect {
        Rect(x: w - r.x - r.width, y: r.y, width: r.width, height: r.height)
    }

    static func mirror(_ op: DrawOp, width w: Double) -> DrawOp {
        switch op {
        case .fill: return op
        case .roundedRect(let r, let radius, let fill, let continuous):
            return .roundedRect(mirror(r, width: w), cornerRadius: radius, fill: fill, continuous: continuous)
        case .strokeRoundedRect(let r, let radius, let color, let lineWidth, let continuous):
            return .strokeRoundedRect(
                mirror(r, width: w), cornerRadius: radius, color: color, lineWidth: lineWidth, continuous: continuous)
        case .shadow(let r, let radius, let blur, let color):
            return .shadow(mirror(r, width: w), cornerRadius: radius, blur: blur, color: color)
        case .image(let source, let r, let radius, let opacity):
            return .image(source, mirror(r, width: w), cornerRadius: radius, opacity: opacity)
        case .gradient(let r, let top, let bottom, let clip, let radius):
            return .gradient(
                mirror(r, width: w), top: top, bottom: bottom, clip: mirror(clip, width: w), cornerRadius: radius)
        case .picture(let source, let r, let clip, let radius):
            return .picture(source, mirror(r, width: w), clip: mirror(clip, width: w), cornerRadius: radius)
        case .strokeLines(let lines, let color, let lineWidth):
            return .strokeLines(
                lines.map { $0.map { Point(x: w - $0.x, y: $0.y) } }, color: color, lineWidth: lineWidth)
        case .text(let draw):
            var d = draw
            // The text's frame starts at its leading edge (its origin, unless the rules say
            // otherwise); mirrored, that edge is where its lines end.
            d.alignRight = w - (draw.leadingX ?? draw.origin.x)
            d.clip = draw.clip.map { mirror($0, width: w) }
            return .text(d)
        }
    }

    /// Where the rules store a rect on `line` of a text laid out `layoutWidth` wide (relative to
    /// the text's origin) so that, once the frame is mirrored, it sits on that line as the
    /// renderer right-aligns it: moved with the line to its right-aligned place, then mirrored
    /// back (the frame's mirroring mirrors it again).
    public static func preMirrored(_ r: Rect, line: MeasuredLine, layoutWidth: Double) -> Rect {
        let placed = r.x + (layoutWidth - line.width - line.x)
        return Rect(x: layoutWidth - placed - r.width, y: r.y, width: r.width, height: r.height)
    }
}
