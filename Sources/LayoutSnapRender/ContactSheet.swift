import CRenderLibraries
import Foundation
import LayoutSnapCore

/// A filmstrip contact sheet: a state's frames shrunk into a grid, each labelled with its index,
/// time and progress (`layoutsnap preview`). Frames are added in order; a sheet holds at most
/// `framesPerPage` of them, so a 600-frame keyboard animation becomes several pages instead of one
/// image taller than Cairo allows.
public final class ContactSheet {
    /// Thumbnails fit this box in pixels and are never enlarged.
    static let thumbnailBox = (width: 200.0, height: 400.0)
    static let padding = 16, gap = 12, labelHeight = 22, titleHeight = 30
    /// Pages stay under about this many pixels wide and tall.
    static let pageLimit = (width: 1700, height: 4200)

    public let title: String
    public let frameCount: Int
    public let columns: Int
    public let framesPerPage: Int
    public var pageCount: Int { (frameCount + framesPerPage - 1) / framesPerPage }
    let thumbWidth: Int, thumbHeight: Int, thumbScale: Double
    private let engine: TextEngine
    private var page: (surface: CairoSurface, context: CairoContext)?
    private var added = 0

    public init(title: String, frameWidth: Int, frameHeight: Int, frameCount: Int, engine: TextEngine) {
        precondition(frameWidth > 0 && frameHeight > 0 && frameCount > 0)
        self.title = title
        self.frameCount = frameCount
        self.engine = engine
        thumbScale = min(
            1, Self.thumbnailBox.width / Double(frameWidth), Self.thumbnailBox.height / Double(frameHeight))
        thumbWidth = max(1, Int((Double(frameWidth) * thumbScale).rounded()))
        thumbHeight = max(1, Int((Double(frameHeight) * thumbScale).rounded()))
        let cellWidth = thumbWidth + Self.gap
        let cellHeight = thumbHeight + Self.labelHeight + Self.gap
        columns = max(1, min(frameCount, (Self.pageLimit.width - 2 * Self.padding) / cellWidth))
        let rows = max(1, (Self.pageLimit.height - 2 * Self.padding - Self.titleHeight) / cellHeight)
        framesPerPage = columns * rows
    }

    /// Draws the next frame. When it completes a page (or is the last frame), `pageDone` gets the
    /// page number (1-based) and the page's pixels, valid during the call.
    public func add(
        _ frame: FramePixels, label: String,
        pageDone: (Int, FramePixels) throws -> Void
    ) throws {
        precondition(added < frameCount, "ContactSheet: more frames than announced")
        let slot = added % framesPerPage
        if slot == 0 { page = try makePage(firstFrame: added) }
        guard let page else { return }
        let cr = page.context.pointer
        let x = Double(Self.padding + (slot % columns) * (thumbWidth + Self.gap))
        let y = Double(Self.padding + Self.titleHeight + (slot / columns) * (thumbHeight + Self.labelHeight + Self.gap))

        // The frame's own pixels as a source (borrowed, drawn at once), scaled with a filter
        // that averages when shrinking.
        let source = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(mutating: frame.pixels.baseAddress!).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_ARGB32, Int32(frame.width), Int32(frame.height), Int32(frame.width * 4))!
        defer { cairo_surface_destroy(source) }
        try checkCairo(cairo_surface_status(source), "wrap a frame for the contact sheet")
        cairo_save(cr)
        cairo_rectangle(cr, x, y, Double(thumbWidth), Double(thumbHeight))
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, Double(thumbWidth) / Double(frame.width), Double(thumbHeight) / Double(frame.height))
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
        cairo_set_source_rgba(cr, 0.78, 0.78, 0.8, 1)
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, x - 0.5, y - 0.5, Double(thumbWidth) + 1, Double(thumbHeight) + 1)
        cairo_stroke(cr)
        try text(label, x: x, y: y + Double(thumbHeight) + 4, size: 11, width: Double(thumbWidth), on: cr)
        try page.context.check("draw frame \(added) on the contact sheet")

        added += 1
        if slot == framesPerPage - 1 || added == frameCount {
            cairo_surface_flush(page.surface.pointer)
            let count = page.surface.width * page.surface.height
            let words = UnsafeRawPointer(page.surface.data).bindMemory(to: UInt32.self, capacity: count)
            try pageDone(
                (added - 1) / framesPerPage + 1,
                FramePixels(
                    width: page.surface.width, height: page.surface.height,
                    pixels: UnsafeBufferPointer(start: words, count: count)))
            self.page = nil
        }
    }

    private func makePage(firstFrame: Int) throws(RenderError) -> (surface: CairoSurface, context: CairoContext) {
        let framesHere = min(framesPerPage, frameCount - firstFrame)
        let rows = (framesHere + columns - 1) / columns
        let pageNote = pageCount > 1 ? " · page \(firstFrame / framesPerPage + 1) of \(pageCount)" : ""
        let titleFont = FontSpec(size: 14, weight: .medium)
        // A state of one or two frames is narrower than its title: the page widens to fit it.
        let titleWidth =
            (try? engine.measure(
                StyledText(runs: [TextRun(title + pageNote)], font: titleFont, width: nil, maxLines: 1)))?.maxLineWidth
            ?? 0
        let width = max(
            2 * Self.padding + columns * (thumbWidth + Self.gap) - Self.gap,
            2 * Self.padding + Int(titleWidth.rounded(.up)))
        let height = 2 * Self.padding + Self.titleHeight + rows * (thumbHeight + Self.labelHeight + Self.gap) - Self.gap
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
        guard surface.stride == surface.width * 4 else {
            throw RenderError.cairo(operation: "create a contact sheet", status: "unexpected stride \(surface.stride)")
        }
        let context = try CairoContext(surface)
        cairo_set_source_rgba(context.pointer, 0.949, 0.949, 0.969, 1)
        cairo_paint(context.pointer)
        try text(
            title + pageNote, x: Double(Self.padding), y: Double(Self.padding), size: 14, width: nil,
            on: context.pointer)
        return (surface, context)
    }

    private func text(_ string: String, x: Double, y: Double, size: Double, width: Double?, on cr: OpaquePointer)
        throws(RenderError)
    {
        let font = FontSpec(size: size, weight: .medium)
        let styled = StyledText(runs: [TextRun(string)], font: font, width: width, maxLines: 1)
        try engine.draw(
            TextDraw(
                text: styled, origin: Point(x: x, y: y), baselines: [font.ascent],
                color: Color(red: 0.235, green: 0.235, blue: 0.263)), on: cr)
    }
}
