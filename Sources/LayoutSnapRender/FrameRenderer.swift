import CRenderLibraries
import Foundation
import LayoutSnapCore
import LayoutSnapImaging

/// The pixels of the frame just rendered: premultiplied ARGB32 words, rows packed (`stride ==
/// width`). Borrowed from the renderer's surface: valid until the next `render` call.
public struct FramePixels {
    public let width: Int
    public let height: Int
    public let pixels: UnsafeBufferPointer<UInt32>
    /// The hash when it is known already (the result cache takes it before the handler does).
    public var knownHash: UInt64?

    public init(width: Int, height: Int, pixels: UnsafeBufferPointer<UInt32>) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public var hash: UInt64 { knownHash ?? PixelHash.of(pixels) }

    /// An owned copy, for when a frame must outlive the next render.
    public func copy() -> PixelImage { PixelImage(width: width, height: height, pixels: Array(pixels)) }
}

/// Paints display lists onto one reusable Cairo surface of the canvas's size, or of one region of
/// it. It knows nothing of kinds, goldens or files: the frame handler decides what happens to the
/// pixels.
public final class FrameRenderer {
    public let canvas: Canvas
    /// What `render` returns: the whole canvas, or the region `preview --serve` was asked for.
    /// A region's pixels are the same as the same pixels of the whole frame: the drawing is only
    /// moved by whole pixels (the pixel grid, and so every edge's anti-aliasing, is the same).
    public let region: PixelRegion
    /// What the surface holds: the region's rows across the whole canvas. Cairo clips a path to
    /// the surface before it rasterizes it, and a path cut at a side changes how some rows are
    /// sampled (a coverage a level apart, in rows far from the cut); cut only at whole rows, each
    /// row is sampled as in the whole frame.
    private let drawn: PixelRegion
    /// The region cut out of the drawn rows, when it is narrower than the canvas.
    private let cut: UnsafeMutableBufferPointer<UInt32>?
    private let engine: TextEngine
    private let surface: CairoSurface
    private let context: CairoContext
    private var images: [String: CairoSurface] = [:]
    private let imageLoader: (String) throws(RenderError) -> PixelImage

    /// `region`: return only that part of the canvas (nil: all of it); its rows are drawn across
    /// the whole canvas's width.
    public init(
        canvas: Canvas, engine: TextEngine, region: PixelRegion? = nil,
        imageLoader: @escaping (String) throws(RenderError) -> PixelImage = FrameRenderer.loadPNG
    ) throws(RenderError) {
        self.canvas = canvas
        self.engine = engine
        self.imageLoader = imageLoader
        let region = region ?? PixelRegion(canvas)
        self.region = region
        drawn = PixelRegion(x: 0, y: region.y, width: canvas.pixelWidth, height: region.height)
        surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: drawn.width, height: drawn.height)
        guard surface.stride == surface.width * 4 else {
            throw RenderError.cairo(
                operation: "create the frame surface", status: "unexpected stride \(surface.stride)")
        }
        context = try CairoContext(surface)
        cut = region == drawn ? nil : .allocate(capacity: region.width * region.height)
        cairo_translate(context.pointer, 0, Double(-drawn.y))
        cairo_scale(context.pointer, canvas.scale, canvas.scale)
    }

    /// Renders one frame and returns a view of its pixels.
    public func render(_ frame: LayoutFrame) throws(RenderError) -> FramePixels {
        let cr = context.pointer
        // A frame never inherits the previous one's pixels.
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_restore(cr)
        return try paintOver(frame.drawList, operation: "render frame \(frame.index)")
    }

    /// Paints `ops` over the frame rendered last (preview's overlays: the same pixels as
    /// rendering the frame with the ops appended, without drawing the frame twice).
    public func paintOver(_ ops: [DrawOp], operation: @autoclosure () -> String = "paint over a frame")
        throws(RenderError) -> FramePixels
    {
        let cr = context.pointer
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        for op in ops {
            try paint(op, cr)
        }
        cairo_restore(cr)
        try context.check(operation())
        cairo_surface_flush(surface.pointer)
        let count = surface.width * surface.height
        let words = UnsafeRawPointer(surface.data).bindMemory(to: UInt32.self, capacity: count)
        guard let cut else {
            return FramePixels(
                width: surface.width, height: surface.height, pixels: UnsafeBufferPointer(start: words, count: count))
        }
        for y in 0..<region.height {
            (cut.baseAddress! + y * region.width).update(from: words + y * drawn.width + region.x, count: region.width)
        }
        return FramePixels(width: region.width, height: region.height, pixels: UnsafeBufferPointer(cut))
    }

    deinit { cut?.deallocate() }

    /// `direct`: paint `op` on `cr` as it is, even in a region (`paintAtFrameOrigin` does).
    private func paint(_ op: DrawOp, _ cr: OpaquePointer, direct: Bool = false) throws(RenderError) {
        if !direct, drawn != PixelRegion(canvas), let bounds = Self.sampled(op) {
            return try paintAtFrameOrigin(op, bounds: bounds)
        }
        switch op {
        case .fill(let color):
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            cairo_paint(cr)
        case .roundedRect(let rect, let radius, let fill, let continuous):
            guard rect.width > 0, rect.height > 0 else { return }
            addPath(RoundedRectPath.path(rect, radius: radius, continuous: continuous), cr)
            cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha)
            cairo_fill(cr)
        case .strokeRoundedRect(let rect, let radius, let color, let lineWidth, let continuous):
            guard rect.width > 0, rect.height > 0, lineWidth > 0 else { return }
            addPath(RoundedRectPath.path(rect, radius: radius, continuous: continuous), cr)
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            cairo_set_line_width(cr, lineWidth)
            cairo_stroke(cr)
        case .shadow(let rect, let radius, let blur, let color):
            try paintShadow(rect: rect, radius: radius, blur: blur, color: color, cr)
        case .image(let source, let rect, let radius, let opacity):
            try paintImage(source, rect: rect, radius: radius, opacity: opacity, cr)
        case .picture(let source, let rect, let clip, let radius):
            guard clip.width > 0, clip.height > 0 else { return }
            cairo_save(cr)
            addPath(RoundedRectPath.path(clip, radius: radius, continuous: true), cr)
            cairo_clip(cr)
            try paintImage(source, rect: rect, radius: 0, opacity: 1, cr)
            cairo_restore(cr)
        case .gradient(let rect, let top, let bottom, let clip, let radius):
            guard rect.width > 0, rect.height > 0, clip.width > 0, clip.height > 0 else { return }
            cairo_save(cr)
            addPath(RoundedRectPath.path(clip, radius: radius, continuous: true), cr)
            cairo_clip(cr)
            let pattern = cairo_pattern_create_linear(0, rect.minY, 0, rect.maxY)
            defer { cairo_pattern_destroy(pattern) }
            cairo_pattern_add_color_stop_rgba(pattern, 0, top.red, top.green, top.blue, top.alpha)
            cairo_pattern_add_color_stop_rgba(pattern, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            cairo_set_source(cr, pattern)
            cairo_fill(cr)
            cairo_restore(cr)
        case .text(let draw):
            try engine.draw(draw, on: cr)
        case .strokeLines(let lines, let color, let lineWidth):
            guard lineWidth > 0 else { return }
            cairo_save(cr)
            for line in lines where line.count > 1 {
                cairo_move_to(cr, line[0].x, line[0].y)
                for point in line.dropFirst() { cairo_line_to(cr, point.x, point.y) }
            }
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            cairo_set_line_width(cr, lineWidth)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
            cairo_restore(cr)
        }
    }

    /// Where an op that samples a pattern (a picture, a gradient) can draw: nil for the others.
    private static func sampled(_ op: DrawOp) -> Rect? {
        switch op {
        case .image(_, let rect, _, _): rect
        case .picture(_, _, let clip, _): clip
        case .gradient(_, _, _, let clip, _): clip
        default: nil
        }
    }

    /// In a region, a picture or a gradient is drawn where the whole frame draws it. Cairo hands
    /// a pattern to pixman as a 16.16 fixed-point transform, adjusted to be exact at the centre
    /// of what the operation covers; moved by whole pixels, that transform (and so a picture's
    /// sampling) changes by a rounding. So the op is painted on a surface whose origin is the
    /// frame's, as large as what the op covers (the same extents, so the same transform), with
    /// the region's pixels under it copied in and copied back out. Only the rows the op covers
    /// are allocated: pixman writes nothing outside the operation's extents.
    private func paintAtFrameOrigin(_ op: DrawOp, bounds: Rect) throws(RenderError) {
        let scale = canvas.scale
        guard bounds.width > 0, bounds.height > 0 else { return }
        let x0 = max(0, Int((bounds.minX * scale).rounded(.down)) - 1)
        let y0 = max(0, Int((bounds.minY * scale).rounded(.down)) - 1)
        let x1 = min(canvas.pixelWidth, Int((bounds.maxX * scale).rounded(.up)) + 1)
        let y1 = min(canvas.pixelHeight, Int((bounds.maxY * scale).rounded(.up)) + 1)
        // The part of the drawn rows the op can change.
        let cx0 = max(x0, drawn.x)
        let cy0 = max(y0, drawn.y)
        let cx1 = min(x1, drawn.x + drawn.width)
        let cy1 = min(y1, drawn.y + drawn.height)
        guard cx1 > cx0, cy1 > cy0 else { return }
        let stride = x1 * 4
        let bytes = (y1 - y0) * stride
        guard x1 <= 32767, y1 <= 32767, bytes <= Self.maxFrameOriginBytes else {
            throw RenderError.cairo(
                operation: "draw a picture of \(x1 - x0) x \(y1 - y0) px in a region",
                status: "more than \(Self.maxFrameOriginBytes >> 20) MB to draw it where the whole frame does")
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        defer { buffer.deallocate() }
        // Row y of the frame is at origin + y * stride; rows above y0 are never touched.
        let origin = (buffer - y0 * stride).assumingMemoryBound(to: UInt8.self)
        let target = cairo_image_surface_create_for_data(
            origin, CAIRO_FORMAT_ARGB32, Int32(x1), Int32(y1), Int32(stride))!
        defer { cairo_surface_destroy(target) }
        try checkCairo(cairo_surface_status(target), "create a surface at the frame's origin")
        cairo_surface_flush(surface.pointer)
        let own = surface.data
        let ownStride = surface.stride
        let rowBytes = (cx1 - cx0) * 4
        for y in cy0..<cy1 {
            memcpy(origin + y * stride + cx0 * 4, own + (y - drawn.y) * ownStride + (cx0 - drawn.x) * 4, rowBytes)
        }
        cairo_surface_mark_dirty(target)
        let cr = cairo_create(target)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        try paint(op, cr, direct: true)
        try checkCairo(cairo_status(cr), "draw a picture in a region")
        cairo_surface_flush(target)
        for y in cy0..<cy1 {
            memcpy(own + (y - drawn.y) * ownStride + (cx0 - drawn.x) * 4, origin + y * stride + cx0 * 4, rowBytes)
        }
        cairo_surface_mark_dirty(surface.pointer)
    }

    /// The most memory `paintAtFrameOrigin` takes for one op.
    static let maxFrameOriginBytes = 1 << 29

    private func addPath(_ elements: [PathElement], _ cr: OpaquePointer) {
        cairo_new_path(cr)
        for element in elements {
            switch element {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .curve(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(cr)
            }
        }
    }

    // MARK: Images

    private func paintImage(_ source: ImageSource, rect: Rect, radius: Double, opacity: Double, _ cr: OpaquePointer)
        throws(RenderError)
    {
        guard rect.width > 0, rect.height > 0 else { return }
        let image = try surface(for: source)
        let iw = Double(image.width)
        let ih = Double(image.height)
        // Aspect-fill: cover the frame, centred, then clip to the rounded frame.
        let s = max(rect.width / iw, rect.height / ih)
        cairo_save(cr)
        addPath(RoundedRectPath.path(rect, radius: radius), cr)
        cairo_clip(cr)
        cairo_translate(cr, rect.x + (rect.width - iw * s) / 2, rect.y + (rect.height - ih * s) / 2)
        cairo_scale(cr, s, s)
        cairo_set_source_surface(cr, image.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint_with_alpha(cr, opacity)
        cairo_restore(cr)
    }

    private func surface(for source: ImageSource) throws(RenderError) -> CairoSurface {
        let path: String
        switch source {
        case .file(let file): path = file
        }
        if let cached = images[path] { return cached }
        let image = try imageLoader(path)
        let target = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: image.width, height: image.height)
        cairo_surface_flush(target.pointer)
        let stride = target.stride
        image.pixels.withUnsafeBytes { src in
            for row in 0..<image.height {
                memcpy(target.data + row * stride, src.baseAddress! + row * image.width * 4, image.width * 4)
            }
        }
        cairo_surface_mark_dirty(target.pointer)
        images[path] = target
        return target
    }

    /// Reads and decodes a PNG with the project's own decoder (hostile files become errors).
    public static func loadPNG(_ path: String) throws(RenderError) -> PixelImage {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RenderError.image(path: path, reason: "cannot be read")
        }
        do {
            return try PNGDecoder.decode([UInt8](data), maxPixels: Limits.maxGoldenPixels)
        } catch {
            throw RenderError.image(path: path, reason: error.description)
        }
    }

    // MARK: Shadows

    /// `.shadow(radius:)`: the shape's alpha blurred with a Gaussian of sigma ≈ radius (three box
    /// blurs), tinted, under the shape. Integer arithmetic throughout so pixels are reproducible.
    private func paintShadow(rect: Rect, radius: Double, blur: Double, color: Color, _ cr: OpaquePointer)
        throws(RenderError)
    {
        guard rect.width > 0, rect.height > 0 else { return }
        let scale = canvas.scale
        let sigma = blur * scale
        let margin = Int((3 * sigma).rounded(.up)) + 1
        // Only the part that can reach the canvas is computed.
        let x0 = max(Int((rect.minX * scale).rounded(.down)) - margin, -margin)
        let y0 = max(Int((rect.minY * scale).rounded(.down)) - margin, -margin)
        let x1 = min(Int((rect.maxX * scale).rounded(.up)) + margin, canvas.pixelWidth + margin)
        let y1 = min(Int((rect.maxY * scale).rounded(.up)) + margin, canvas.pixelHeight + margin)
        // Of that, the part the region can see: a blurred pixel depends only on the mask's pixels
        // within `reach` of it (outside the mask is 0 either way), so the region's pixels are the
        // whole frame's.
        let reach = GaussianBlur.reach(sigma: sigma)
        let wx0 = max(x0, drawn.x - reach)
        let wy0 = max(y0, drawn.y - reach)
        let wx1 = min(x1, drawn.x + drawn.width + reach)
        let wy1 = min(y1, drawn.y + drawn.height + reach)
        guard wx1 > wx0, wy1 > wy0 else { return }
        let mask = try CairoSurface(format: CAIRO_FORMAT_A8, width: wx1 - wx0, height: wy1 - wy0)
        let mcr = try CairoContext(mask)
        cairo_translate(mcr.pointer, Double(-wx0), Double(-wy0))
        cairo_scale(mcr.pointer, scale, scale)
        addPath(RoundedRectPath.path(rect, radius: radius), mcr.pointer)
        cairo_set_source_rgba(mcr.pointer, 0, 0, 0, 1)
        cairo_fill(mcr.pointer)
        try mcr.check("draw a shadow mask")
        cairo_surface_flush(mask.pointer)
        GaussianBlur.blurA8Collapsing(
            mask.data, width: mask.width, height: mask.height, stride: mask.stride, sigma: sigma)
        cairo_surface_mark_dirty(mask.pointer)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(cr, mask.pointer, Double(wx0 - drawn.x), Double(wy0 - drawn.y))
        cairo_restore(cr)
    }
}
