/// Where an image's pixels come from.
public enum ImageSource: Sendable, Hashable {
    /// A PNG file (absolute path, resolved against the fixture's folder when decoding).
    case file(String)
}

/// Text placed on the canvas: the cached layout of `text`, its lines drawn at `baselines`.
public struct TextDraw: Sendable, Hashable {
    public var text: StyledText
    /// Top-left of the text's box (line 0's top).
    public var origin: Point
    /// Baselines relative to `origin.y`, one per laid-out line.
    public var baselines: [Double]
    public var color: Color
    /// Only this part of the canvas is painted (a mask or a scroll viewport).
    public var clip: Rect?
    /// The leading edge of the text's frame when it is not `origin.x`: a text sized to its
    /// content inside a wider layout (a chat bubble's), for right-to-left mirroring.
    public var leadingX: Double?
    /// Right-to-left (`RightToLeft.mirror`): every line is drawn ending at this x, whatever its
    /// script's direction (SwiftUI's `.leading` in a right-to-left layout); nil draws each line
    /// where the text engine placed it, from `origin`.
    public var alignRight: Double?
    /// The layout element the text belongs to (`body`, `message:3`): how the lints name what
    /// they find. The renderer never reads it.
    public var element: String?

    public init(
        text: StyledText, origin: Point, baselines: [Double], color: Color, clip: Rect? = nil, leadingX: Double? = nil,
        element: String? = nil
    ) {
        self.text = text
        self.origin = origin
        self.baselines = baselines
        self.color = color
        self.clip = clip
        self.leadingX = leadingX
        self.element = element
    }

    /// Where line `line` (measured `x` and `width` from the layout's left edge) starts on the canvas.
    public func lineX(_ line: MeasuredLine) -> Double {
        alignRight.map { $0 - line.width } ?? origin.x + line.x
    }
}

/// The display list of one frame, in painting order. The renderer turns it into pixels and knows
/// nothing about kinds or rules.
public enum DrawOp: Sendable, Hashable {
    /// Fill the whole canvas.
    case fill(Color)
    /// A rounded rectangle filled with a colour. `continuous` gives iOS's squircle corners.
    case roundedRect(Rect, cornerRadius: Double, fill: Color, continuous: Bool)
    /// The outline of a rounded rectangle, centred on its edge as SwiftUI's `.stroke()` draws it.
    case strokeRoundedRect(Rect, cornerRadius: Double, color: Color, lineWidth: Double, continuous: Bool)
    /// The blurred shadow of a rounded rectangle (`.shadow(radius:)`: Gaussian, sigma ≈ radius).
    case shadow(Rect, cornerRadius: Double, blur: Double, color: Color)
    /// An image scaled to fill `rect` (aspect-fill, centred) and clipped to its rounded corners.
    case image(ImageSource, Rect, cornerRadius: Double, opacity: Double)
    /// `rect` filled with a vertical linear gradient from `top` (its top edge) to `bottom` (its
    /// bottom edge), painted only inside `clip`'s continuous rounded rectangle: an image
    /// placeholder cut to its bubble's shape.
    case gradient(Rect, top: Color, bottom: Color, clip: Rect, cornerRadius: Double)
    /// A picture covering `rect` (aspect-fill, centred), painted only inside `clip`'s continuous
    /// rounded rectangle: a chat picture cut to its bubble's shape.
    case picture(ImageSource, Rect, clip: Rect, cornerRadius: Double)
    case text(TextDraw)
    /// Open polylines stroked with round caps and joins (a glyph drawn as a path: the send
    /// button's arrow).
    case strokeLines([[Point]], color: Color, lineWidth: Double)
}
