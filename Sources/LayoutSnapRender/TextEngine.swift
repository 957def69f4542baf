import CRenderLibraries
import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// Pango text layout for one thread at a time: its own font map and context over the shared private
/// fontconfig, and a second pair for the texts that name a brand family when the project has brand
/// fonts (a PangoLayout must never cross threads). It measures text for the rules and keeps each
/// layout so that the renderer draws it in every frame without laying it out again.
public final class TextEngine: TextMeasuring {
    /// A laid-out text and what was measured from it. Owns its PangoLayout.
    final class CachedLayout {
        private let owner: GObjectReference<OpaquePointer>
        var layout: OpaquePointer { owner.handle }
        let measured: MeasuredText
        /// The text Pango holds (NUL replaced, same characters as `plainText`): offsets in
        /// characters become byte indices through it.
        let string: String
        /// The cairo scaled font of each run, once each: the layout's Pango fonts hold them.
        let fonts: [OpaquePointer]

        init(layout: GObjectReference<OpaquePointer>, measured: MeasuredText, string: String, fonts: [OpaquePointer]) {
            self.owner = layout
            self.measured = measured
            self.string = string
            self.fonts = fonts
        }

        /// The UTF-8 byte index of character `offset` (clamped to the text).
        func byteIndex(_ offset: Int) -> Int32 {
            let index =
                string.index(string.startIndex, offsetBy: max(0, offset), limitedBy: string.endIndex) ?? string.endIndex
            return Int32(string.utf8.distance(from: string.utf8.startIndex, to: index))
        }
    }

    /// The font system the font map reads (kept: engines are handed out again by it).
    let fonts: FontSystem
    /// The context of texts that name no brand family, over the fonts without the brand fonts.
    private let bundled: PangoContextOwner
    /// The context of texts that name a brand family, over every font; nil when the project has
    /// no brand fonts (`bundled` then has them all).
    private let branded: PangoContextOwner?
    /// Whether a text of the fixture being laid out named a brand family (since `clearCache`):
    /// only then can its pixels depend on a brand font's bytes.
    public private(set) var usedBrandFonts = false
    /// Layouts by text, each with the time it was last used. Bounded: a chat of 3,000 messages
    /// measures every bubble once but draws only the few dozen in view, and holding all of its
    /// layouts took 35 MB more; the least recently used go first, and one needed again is laid out
    /// again (the same text gives the same layout).
    private var cache: [StyledText: (layout: CachedLayout, used: Int)] = [:]
    private var clock = 0
    /// What was measured of every text of the fixture, kept apart from the layouts (it is small):
    /// a rule that measures its texts again in every state (a chat's content) never lays them out
    /// again.
    private var measuredTexts: [StyledText: MeasuredText] = [:]
    /// Far more than any frame draws (a chat view shows a few dozen bubbles).
    public static let cachedLayoutLimit = 256
    /// How many Pango layouts this engine has built (the benchmark and tests check that it does
    /// not grow with the number of frames).
    public private(set) var layoutsCreated = 0
    /// Pango's metrics are serialised (`metricsSerialized`): this engine builds layouts without
    /// `metricsLock`.
    private let layoutsUnlocked: Bool

    public init(fonts: FontSystem) throws(RenderError) {
        Self.serializeMetrics(config: fonts.config)
        layoutsUnlocked = Self.metricsSerialized
        bundled = try PangoContextOwner(config: fonts.bundledConfig)
        branded = fonts.bundledConfig == fonts.config ? nil : try PangoContextOwner(config: fonts.config)
        self.fonts = fonts
    }

    /// A Pango font map over one FcConfig and the context layouts are made in, set up as every
    /// layout of layoutsnap's is.
    private final class PangoContextOwner {
        private let fontMap: GObjectReference<UnsafeMutablePointer<PangoFontMap>>
        private let owner: GObjectReference<OpaquePointer>
        var context: OpaquePointer { owner.handle }

        init(config: OpaquePointer) throws(RenderError) {
            guard let newMap = pango_cairo_font_map_new() else {
                throw RenderError.pango("pango_cairo_font_map_new failed")
            }
            let map = GObjectReference(taking: newMap)
            pango_fc_font_map_set_config(layoutsnap_as_fc_font_map(map.handle), config)
            guard let newContext = pango_font_map_create_context(map.handle) else {
                throw RenderError.pango("pango_font_map_create_context failed")
            }
            let owner = GObjectReference(taking: newContext)
            let context = owner.handle
            // pangocairo assumes 96 dpi; at 72, one Pango point is one canvas point. Set on the
            // context, not on the font map, on purpose: the font map stays at 96 so that the fonts
            // Pango loads for its own font-metrics sample layouts (contexts it makes from the font
            // map) are never the fonts our layouts use (the resolution is part of every font's
            // pattern). Pango 1.50 works out a font's approximate character width by laying out a
            // sample text, and a font first met inside such a sample layout keeps a width of 0 for
            // that language for good; line breaking uses that width (its safety margin), so a text
            // broke differently depending on what this engine laid out earlier.
            // Sizes are always absolute, so neither resolution changes any size.
            pango_cairo_context_set_resolution(context, 72)
            pango_context_set_language(context, pango_language_from_string("en"))
            // Layouts are measured once and drawn at any device scale: no rounding to whole units.
            pango_context_set_round_glyph_positions(context, 0)
            let options = cairo_font_options_create()
            defer { cairo_font_options_destroy(options) }
            try checkCairo(cairo_font_options_status(options), "create font options")
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            pango_cairo_context_set_font_options(context, options)
            self.fontMap = map
            self.owner = owner
        }
    }

    /// An engine of `fonts` that no thread is using: one a finished worker of this process gave
    /// back (`giveBack`), or a new one.
    public static func take(fonts: FontSystem) throws(RenderError) -> TextEngine {
        let kept = idle.withLock { engines -> TextEngine? in
            guard let i = engines.lastIndex(where: { $0.engine.fonts === fonts }) else { return nil }
            return engines.remove(at: i).engine
        }
        if let kept {
            kept.clearCache()
            return kept
        }
        return try TextEngine(fonts: fonts)
    }

    /// Keeps the engine of a finished worker for the next (up to `idleLimit`), instead of
    /// tearing its font map down: a run's last step waited about 2 ms for its workers' teardown
    /// at 2 jobs, with nothing else to do, and a later batch of the process (the tests, `review
    /// --watch`, the batch after `--shard`'s frame count) makes no font map again. The caller no
    /// longer uses it; beyond the limit, its last reference tears the engine down as before.
    public static func giveBack(_ engine: TextEngine) {
        idle.withLock { engines in
            // Given back twice, it could be taken twice: kept once.
            guard engines.count < idleLimit, !engines.contains(where: { $0.engine === engine }) else { return }
            engines.append(IdleEngine(engine: engine))
        }
    }

    /// More than any run's jobs on the machines this runs on; the rest are torn down.
    static let idleLimit = 16

    /// An engine no thread uses: whoever takes it from `idle` owns it.
    private struct IdleEngine: @unchecked Sendable {
        let engine: TextEngine
    }

    private static let idle = LockedValue<[IdleEngine]>([])

    /// Drops cached layouts (between fixtures, so memory does not grow with the batch).
    public func clearCache() {
        cache.removeAll(keepingCapacity: true)
        measuredTexts.removeAll(keepingCapacity: true)
        usedBrandFonts = false
    }

    public func measure(_ text: StyledText) throws -> MeasuredText {
        if let measured = measuredTexts[text] { return measured }
        let measured = try layout(for: text).measured
        measuredTexts[text] = measured
        return measured
    }

    public func caret(in text: StyledText, at offset: Int) throws -> CaretPosition {
        let cached = try layout(for: text)
        let index = cached.byteIndex(offset)
        var line: Int32 = 0
        var lineX: Int32 = 0
        // Not trailing: at a soft break the caret goes to the line that starts there.
        pango_layout_index_to_line_x(cached.layout, index, 0, &line, &lineX)
        // The strong cursor is in layout coordinates (alignment and bidi included).
        var strong = PangoRectangle()
        var weak = PangoRectangle()
        pango_layout_get_cursor_pos(cached.layout, index, &strong, &weak)
        return CaretPosition(line: Int(line), x: layoutsnap_pango_units_to_double(strong.x))
    }

    public func spans(in text: StyledText, from start: Int, to end: Int) throws -> [LineSpan] {
        let cached = try layout(for: text)
        let first = cached.byteIndex(start)
        let last = cached.byteIndex(end)
        guard last > first else { return [] }
        var spans: [LineSpan] = []
        // The lines belong to the layout: keep its owner alive until the walk is done.
        defer { withExtendedLifetime(cached) {} }
        var node = pango_layout_get_lines_readonly(cached.layout)
        var index = 0
        while let current = node {
            let line = current.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            let lineStart = line.pointee.start_index
            let lineEnd = lineStart + line.pointee.length
            // A range that starts at a line's end still covers its line break there.
            if first <= lineEnd && last > lineStart {
                var ranges: UnsafeMutablePointer<Int32>?
                var count: Int32 = 0
                pango_layout_line_get_x_ranges(line, first, last, &ranges, &count)
                if let ranges {
                    for k in 0..<Int(count) {
                        let x0 = layoutsnap_pango_units_to_double(ranges[2 * k])
                        let x1 = layoutsnap_pango_units_to_double(ranges[2 * k + 1])
                        guard x1 > x0 else { continue }
                        // Pango reports the glyphs and the stretch to the trailing edge as two
                        // adjacent ranges: one span each.
                        if let last = spans.last, last.line == index, abs(last.x + last.width - x0) < 1e-6 {
                            spans[spans.count - 1].width = x1 - last.x
                        } else {
                            spans.append(LineSpan(line: index, x: x0, width: x1 - x0))
                        }
                    }
                    g_free(ranges)
                }
            }
            node = current.pointee.next
            index += 1
        }
        return spans
    }

    /// A font face Pango drew a run of text with: its file, its index in the file (a face of a
    /// collection, or a variable font's named instance in the high 16 bits), and the family
    /// fontconfig knows it by.
    public struct UsedFace: Sendable, Hashable {
        public var file: String
        public var index: Int
        public var family: String
    }

    /// The faces the runs of `text` resolved to, in order, each once: which file a family name
    /// reached (`layoutsnap config` shows a brand family's, the tests check it).
    public func faces(of text: StyledText) throws(RenderError) -> [UsedFace] {
        let built = try layout(for: text)
        guard let iter = pango_layout_get_iter(built.layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        var faces: [UsedFace] = []
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let pattern = layoutsnap_run_font_pattern(run)
            else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var family: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            FcPatternGetString(pattern, FC_FAMILY, 0, &family)
            FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
            let face = UsedFace(
                file: String(cString: file), index: Int(index), family: family.map { String(cString: $0) } ?? "")
            if !faces.contains(face) { faces.append(face) }
        } while pango_layout_iter_next_run(iter) != 0
        return faces
    }

    func layout(for text: StyledText) throws(RenderError) -> CachedLayout {
        clock += 1
        if let cached = cache[text] {
            cache[text]!.used = clock
            return cached.layout
        }
        let built = try build(text)
        if cache.count >= Self.cachedLayoutLimit {
            // The least recently used quarter goes: amortised, a few comparisons a layout.
            let oldest = cache.map(\.value.used).sorted()[Self.cachedLayoutLimit / 4]
            cache = cache.filter { $0.value.used >= oldest }
        }
        cache[text] = (built, clock)
        return built
    }

    /// Whether pangocairo's fonts work out their metrics one font at a time in the whole process
    /// (`layoutsnap_serialize_font_metrics`, set up once from a font of a font map of its own).
    /// Pango 1.50 works out a font's metrics (the first time a layout needs them, for each
    /// language) under one process-wide, unsynchronised "already computing" flag, and skips the
    /// approximate character width when it finds the flag set: while one thread worked out a
    /// font's metrics, a font first met on another thread kept a width of 0 for good, and its
    /// lines broke differently (timing decided the pixels). With the metrics serialised, the
    /// flag is only ever seen by the thread that set it, and layouts are built on every worker at
    /// once (before, one lock was held for all of a layout's work, about a sixth of a run's
    /// layout and rendering, and the other worker waited on it).
    static var metricsSerialized: Bool { serializedMetrics.withLock { $0 ?? false } }
    private static let serializedMetrics = LockedValue<Bool?>(nil)

    /// Sets up `metricsSerialized` once, before the first engine lays anything out, from a font
    /// of a font map of its own (the engines' maps are left as they were).
    private static func serializeMetrics(config: OpaquePointer) {
        serializedMetrics.withLock { done in
            guard done == nil else { return }
            done = false
            guard let map = pango_cairo_font_map_new() else { return }
            defer { layoutsnap_g_object_unref(map) }
            pango_fc_font_map_set_config(layoutsnap_as_fc_font_map(map), config)
            guard let context = pango_font_map_create_context(map) else { return }
            defer { layoutsnap_g_object_unref(UnsafeMutableRawPointer(context)) }
            let description = pango_font_description_new()
            defer { pango_font_description_free(description) }
            pango_font_description_set_family(description, FontSpec.defaultFamily)
            pango_font_description_set_absolute_size(description, 12 * Double(PANGO_SCALE))
            guard let font = pango_context_load_font(context, description) else { return }
            defer { layoutsnap_g_object_unref(font) }
            done = layoutsnap_serialize_font_metrics(font, pinFromMetrics) == 1
        }
    }

    /// Held while an engine builds a layout only if the metrics could not be serialised (no font
    /// could be loaded to find the class, or it is not a pangocairo font): the old way, one
    /// layout at a time.
    /// It guards no Swift value, only Pango's state: a lock around the call.
    private static let metricsLock = Lock()

    /// The cairo scaled fonts kept alive for the life of the process, by address.
    private static let pinnedScaledFonts = LockedValue(Set<UInt>())
    /// Enough for every text style, weight and scale of a large batch; fonts past it are left to
    /// cairo's own reference counting.
    static let pinnedScaledFontLimit = 4096

    /// The file of a face `layout` uses that was to be opened at its first font and could not
    /// be, or nil.
    private static func failedDeferredFace(in layout: OpaquePointer) -> String? {
        guard let iter = pango_layout_get_iter(layout) else { return nil }
        defer { pango_layout_iter_free(iter) }
        repeat {
            if let run = pango_layout_iter_get_run_readonly(iter), let pattern = layoutsnap_run_font_pattern(run),
                let failed = layoutsnap_deferred_face_failed(pattern)
            {
                return String(cString: failed)
            }
        } while pango_layout_iter_next_run(iter) != 0
        return nil
    }

    /// Takes one more reference, kept for the life of the process, to the cairo scaled font of each
    /// of `layout`'s runs; the metrics wrapper does the same for every font Pango asks about
    /// (`pinFromMetrics`: an empty line's font, a metrics sample's fallbacks), so that fonts a
    /// layout only measures with are covered too now that layouts are built on every worker at
    /// once. Cairo 1.16 (Debian 12's) drops a scaled font's last reference before it
    /// takes its font-map lock, so another worker can look the same font up and start drawing with
    /// it in between: `cairo_scaled_font_destroy: Assertion '! scaled_font->cache_frozen' failed`,
    /// seen once in a debug render of 1,200 generated fixtures on two workers (fixed upstream in
    /// cairo's commit a677350, 1.17.4). Workers share cairo's scaled fonts (they share faces and
    /// sizes) while each has its own Pango fonts, which release theirs as Pango's caches turn over;
    /// a pinned font's count never reaches zero, so that path never runs for it. A pinned font
    /// also keeps its cairo font face, whose list per font file cairo 1.16 changes unlocked.
    ///
    /// Returns the runs' scaled fonts, once each, for `pinDrawnFonts`.
    private static func pinScaledFonts(of layout: OpaquePointer) -> [OpaquePointer] {
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        var fonts: [OpaquePointer] = []
        repeat {
            if let run = pango_layout_iter_get_run_readonly(iter), let font = layoutsnap_run_scaled_font(run),
                !fonts.contains(font)
            {
                fonts.append(font)
                pin(font)
            }
        } while pango_layout_iter_next_run(iter) != 0
        return fonts
    }

    /// The fonts cairo draws with are not Pango's: Pango's are made for the layout's own scale,
    /// and a frame is drawn at the canvas's scale (2x, 3x) onto an image surface whose font
    /// options differ from the layout's (at 1x too), so `cairo_show_glyphs` makes (or finds in
    /// its font map) a scaled font for each font and transform, which the drawing context
    /// holds until the next run's font replaces it. Its count then reaches zero while the other
    /// worker may be looking the same font up: the race of `pinScaledFonts`, which aborted two
    /// cold verifies of the bundled suite in about 650 at 2 jobs (`cairo_scaled_font_destroy:
    /// Assertion '! scaled_font->cache_frozen' failed`, under `cairo_show_glyphs`). Each such font
    /// is found before the first time it is drawn with, the way `cairo_show_glyphs` finds it, and
    /// pinned; after that, a lookup of a font and transform already seen takes one lock.
    static func pinDrawnFonts(_ fonts: [OpaquePointer], on cr: OpaquePointer) {
        guard !fonts.isEmpty else { return }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        for font in fonts {
            // Cairo keys a scaled font by the transform's linear part, not its translation.
            let key = DrawnFont(
                font: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(font))), xx: matrix.xx, yx: matrix.yx,
                xy: matrix.xy, yy: matrix.yy)
            guard drawnFonts.withLock({ $0.count < pinnedScaledFontLimit && !$0.contains(key) }),
                let drawn = layoutsnap_drawn_scaled_font(cr, font)
            else { continue }
            // The reference the helper took is the pin, unless the font is pinned already (by
            // another worker meanwhile) or the limit is reached. Marked done only once pinned:
            // a worker that finds the mark draws at once.
            let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(drawn)))
            let kept = pinnedScaledFonts.withLock { pinned -> Bool in
                pinned.count < pinnedScaledFontLimit && pinned.insert(address).inserted
            }
            if !kept { cairo_scaled_font_destroy(drawn) }
            drawnFonts.withLock { _ = $0.insert(key) }
        }
    }

    /// A run's font and the transform it was drawn under.
    private struct DrawnFont: Hashable {
        var font: UInt
        var xx: Double, yx: Double, xy: Double, yy: Double
    }

    /// Each run font and transform whose drawn font has been pinned.
    private static let drawnFonts = LockedValue(Set<DrawnFont>())

    /// Pins `font` (see `pinScaledFonts`), once, while fewer than `pinnedScaledFontLimit` are.
    static func pin(_ font: OpaquePointer) {
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(font)))
        let taken = pinnedScaledFonts.withLock { pinned -> Bool in
            pinned.count < pinnedScaledFontLimit && pinned.insert(address).inserted
        }
        // The caller's Pango font holds the scaled font meanwhile.
        if taken { cairo_scaled_font_reference(font) }
    }

    /// What the metrics wrapper calls for each font it is asked about, under its mutex.
    private static let pinFromMetrics: @convention(c) (OpaquePointer?) -> Void = { font in
        if let font { TextEngine.pin(font) }
    }

    /// How many scaled fonts are pinned (for the tests).
    static var pinnedScaledFontCount: Int { pinnedScaledFonts.withLock { $0.count } }

    private func build(_ text: StyledText) throws(RenderError) -> CachedLayout {
        if layoutsUnlocked { return try buildLayout(text) }
        return try Self.metricsLock.withLock { () throws(RenderError) in try buildLayout(text) }
    }

    private func buildLayout(_ text: StyledText) throws(RenderError) -> CachedLayout {
        let brand = fonts.isBrandFamily(text.font.family) ? branded : nil
        if brand != nil { usedBrandFonts = true }
        guard let newLayout = pango_layout_new((brand ?? bundled).context) else {
            throw RenderError.pango("pango_layout_new failed")
        }
        let owner = GObjectReference(taking: newLayout)
        let layout = owner.handle
        layoutsCreated += 1

        // NUL would end the C string early; a limited text is one paragraph so that the line
        // limit applies to the whole text (Pango counts it per paragraph).
        var runs = text.runs.map { run -> TextRun in
            var r = run
            r.text = r.text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
            if text.maxLines != nil { r.text = r.text.replacingOccurrences(of: "\n", with: " ") }
            return r
        }
        if runs.isEmpty { runs = [TextRun("")] }
        let utf8 = runs.map(\.text).joined()
        utf8.withCString { pango_layout_set_text(layout, $0, -1) }

        let description = pango_font_description_new()
        pango_font_description_set_family(description, text.font.family ?? FontSpec.defaultFamily)
        pango_font_description_set_absolute_size(description, text.font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(text.font.weight.numeric)))
        pango_font_description_set_style(description, text.font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)

        let attributes = pango_attr_list_new()
        // Pango >= 1.44 draws a hyphen where it breaks inside a word; iOS does not.
        pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(0))
        var offset = 0
        for run in runs {
            let length = run.text.utf8.count
            defer { offset += length }
            guard length > 0 else { continue }
            if run.bold {
                let attr = pango_attr_weight_new(PANGO_WEIGHT_BOLD)!
                attr.pointee.start_index = UInt32(offset)
                attr.pointee.end_index = UInt32(offset + length)
                pango_attr_list_insert(attributes, attr)
            }
            if run.italic {
                let attr = pango_attr_style_new(PANGO_STYLE_ITALIC)!
                attr.pointee.start_index = UInt32(offset)
                attr.pointee.end_index = UInt32(offset + length)
                pango_attr_list_insert(attributes, attr)
            }
        }
        // Long words are cut into items of their own (see UnbrokenRuns: otherwise quadratic).
        for chunk in utf8.utf8.count < UnbrokenRuns.minimum ? [] : UnbrokenRuns.alternateChunks(in: utf8) {
            let attr = pango_attr_letter_spacing_new(0)!
            attr.pointee.start_index = UInt32(chunk.lowerBound)
            attr.pointee.end_index = UInt32(chunk.upperBound)
            pango_attr_list_insert(attributes, attr)
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)

        if let width = text.width {
            pango_layout_set_width(layout, layoutsnap_pango_units_from_double(width))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        if let maxLines = text.maxLines {
            pango_layout_set_height(layout, -Int32(max(maxLines, 1)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }

        var lines: [MeasuredLine] = []
        let iter = pango_layout_get_iter(layout)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            lines.append(
                MeasuredLine(
                    x: layoutsnap_pango_units_to_double(logical.x),
                    width: layoutsnap_pango_units_to_double(logical.width)))
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)

        let fonts = Self.pinScaledFonts(of: layout)
        // A face opened at its first font (DeferredFaces.c) whose file changed or went since the
        // set-up: as a set-up that cannot open a face, the rendering is an error, not a pass.
        if layoutsnap_deferred_faces_failed() > 0, let failed = Self.failedDeferredFace(in: layout) {
            throw RenderError.fonts("\(failed) changed or could not be read after the fonts were set up; run again")
        }

        let rtl = pango_find_base_dir(utf8, -1) == PANGO_DIRECTION_RTL
        let measured = MeasuredText(lines: lines, truncated: pango_layout_is_ellipsized(layout) != 0, rightToLeft: rtl)
        return CachedLayout(layout: owner, measured: measured, string: utf8, fonts: fonts)
    }

    /// Draws `draw` with each line's baseline where the rules put it (iOS metrics), ignoring
    /// Pango's own line spacing.
    func draw(_ draw: TextDraw, on cr: OpaquePointer) throws(RenderError) {
        let cached = try layout(for: draw.text)
        let color = draw.color
        guard color.alpha > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let clip = draw.clip {
            guard clip.width > 0, clip.height > 0 else { return }
            cairo_rectangle(cr, clip.x, clip.y, clip.width, clip.height)
            cairo_clip(cr)
        }
        // Colour emoji ignore the source alpha, so translucent text is drawn opaque into a group
        // (bounded by the text's box) and composited with the alpha.
        let grouped = color.alpha < 1
        if grouped {
            let size = draw.text.font.size
            let right = cached.measured.maxLineWidth
            let bottom = (draw.baselines.last ?? 0) + size
            // Right-aligned lines (right to left) lie left of their right edge.
            let left = draw.alignRight.map { $0 - right } ?? draw.origin.x
            cairo_rectangle(cr, left - size, draw.origin.y - size, right + 2 * size, bottom + 2 * size)
            cairo_clip(cr)
            cairo_push_group(cr)
        }
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, grouped ? 1 : color.alpha)
        defer { withExtendedLifetime(cached) {} }
        Self.pinDrawnFonts(cached.fonts, on: cr)
        var node = pango_layout_get_lines_readonly(cached.layout)
        var index = 0
        // Lines wholly outside the clip paint nothing: skip them (a long scrolled transcript
        // shows a few of its lines). A font size of slack above and below covers tall glyphs.
        let size = draw.text.font.size
        while let current = node, index < draw.baselines.count, index < cached.measured.lines.count {
            let line = current.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            let baseline = draw.origin.y + draw.baselines[index]
            if let clip = draw.clip, baseline + size < clip.minY || baseline - 2 * size > clip.maxY {
                node = current.pointee.next
                index += 1
                continue
            }
            cairo_move_to(cr, draw.lineX(cached.measured.lines[index]), baseline)
            pango_cairo_show_layout_line(cr, line)
            node = current.pointee.next
            index += 1
        }
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, color.alpha)
        }
    }
}
