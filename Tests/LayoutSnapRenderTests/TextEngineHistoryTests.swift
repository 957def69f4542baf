import CRenderLibraries
import Foundation
import LayoutSnapCore
@testable import LayoutSnapRender
import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

/// A text engine must lay out a text the same whatever it laid out before and whatever other
/// engines do at the same time (Pango's per-font metrics cache, see TextEngine.init).
final class TextEngineHistoryTests: XCTestCase {
    func fixture(_ name: String) throws -> Fixture {
        let path = TestPaths.packageRoot.appendingPathComponent("Tests/Determinism/\(name).json").path
        return try FixtureDecoder.load(
            path: path, id: "determinism/\(name)", displayPath: path, files: LocalInputFiles())
    }

    /// Every frame's pixel hash, on `engine`, then its cache cleared as between fixtures.
    static func hashes(_ fixture: Fixture, _ engine: TextEngine) throws -> [UInt64] {
        defer { engine.clearCache() }
        let layout = try LayoutEngine.layout(fixture, measurer: engine)
        let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
        return try layout.states.flatMap { try $0.frames.map { try renderer.render($0).hash } }
    }

    /// Laying out "نな " first used to leave Noto Sans CJK with an approximate character width of 0
    /// for Japanese, and the next bubble then broke its first line one kana later (past the bubble's
    /// width). Found as 4 frames of a generated chat that failed only with --jobs 16.
    func testSameLinesAndPixelsAfterAnEarlierFixtureOnTheSameEngine() throws {
        let before = try fixture("metrics-poison-before")
        let after = try fixture("metrics-poison-after")
        let fonts = try FontSystem.shared()
        let alone = try Self.hashes(after, TextEngine(fonts: fonts))
        let engine = try TextEngine(fonts: fonts)
        _ = try Self.hashes(before, engine)
        XCTAssertEqual(try Self.hashes(after, engine), alone)
    }

    /// Runs whose font Pango believes has no character width (approximate_char_width 0), in every
    /// layout of `texts`.
    static func runsWithoutCharWidth(_ engine: TextEngine, _ texts: [StyledText]) throws -> Int {
        var count = 0
        for text in texts {
            let layout = try engine.layout(for: text).layout
            let iter = pango_layout_get_iter(layout)
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item else { continue }
                let metrics = pango_font_get_metrics(item.pointee.analysis.font, item.pointee.analysis.language)
                if pango_font_metrics_get_approximate_char_width(metrics) == 0 { count += 1 }
                pango_font_metrics_unref(metrics)
            } while pango_layout_iter_next_run(iter) != 0
            pango_layout_iter_free(iter)
        }
        return count
    }

    /// Pango 1.50 skips a font's character width when another font's metrics are being worked out
    /// at that moment, in any thread, and keeps the result. With four engines laying out at once
    /// and nothing serialised, nearly every font ends up without one.
    func testEveryFontHasACharWidthWhenEnginesRunOnSeveralThreads() throws {
        let fonts = try FontSystem.shared()
        let samples = [
            "hello world", "نص عربي طويل", "日本語のテキスト", "한국어 텍스트", "emoji 😀 🎉 **bold** *italic*", "mixed نص 日本 text",
        ]
        final class Box: @unchecked Sendable {
            var missing: [Int] = [0, 0, 0, 0]
            var errors: [String] = []
        }
        let box = Box()
        let lock = NSLock()
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let engine = try TextEngine(fonts: fonts)
                    // A new size is a new set of fonts, each with metrics still to work out.
                    let texts = (0..<30).flatMap { step in
                        samples.map {
                            StyledText(
                                markup: $0, font: FontSpec(size: 8 + Double(step) * 0.5 + Double(thread) * 0.01),
                                width: 40)
                        }
                    }
                    let missing = try Self.runsWithoutCharWidth(engine, texts)
                    lock.lock()
                    box.missing[thread] = missing
                    lock.unlock()
                } catch {
                    lock.lock()
                    box.errors.append("\(error)")
                    lock.unlock()
                }
            }.start()
        }
        group.wait()
        XCTAssertEqual(box.errors, [])
        XCTAssertEqual(box.missing, [0, 0, 0, 0])
        // Layouts are built outside any lock of layoutsnap's: only Pango's metrics are serialised.
        XCTAssertTrue(TextEngine.metricsSerialized)
    }

    /// A font a layout only asks about is pinned too: an empty text has no runs, but Pango measures
    /// its empty line with the text's font, through the metrics wrapper.
    func testAFontOnlyMeasuredWithIsPinned() throws {
        let fonts = try FontSystem.shared()
        let engine = try TextEngine(fonts: fonts)
        // A size no other test uses: a scaled font not pinned yet.
        let empty = StyledText(markup: "", font: FontSpec(size: 17.123), width: 60)
        let before = TextEngine.pinnedScaledFontCount
        let layout = try engine.layout(for: empty).layout
        let iter = pango_layout_get_iter(layout)
        var runs = 0
        repeat {
            if pango_layout_iter_get_run_readonly(iter) != nil { runs += 1 }
        } while pango_layout_iter_next_run(iter) != 0
        pango_layout_iter_free(iter)
        XCTAssertEqual(runs, 0)
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, before + 1)
    }

    /// Every run's cairo scaled font gets one reference more, for good (TextEngine.pinScaledFonts:
    /// cairo 1.16 races when a scaled font's last reference goes while another worker looks it up),
    /// once per font: a second engine laying out the same texts shares cairo's fonts and pins none.
    func testEveryRunsScaledFontIsPinnedOnce() throws {
        let fonts = try FontSystem.shared()
        let texts = ["pinned fonts", "نص عربي", "日本語", "😀 **bold** *italic*"].map {
            StyledText(markup: $0, font: FontSpec(size: 13.37), width: 60)
        }
        let before = TextEngine.pinnedScaledFontCount
        let engine = try TextEngine(fonts: fonts)
        var seen = Set<UInt>()
        for text in texts {
            let layout = try engine.layout(for: text).layout
            let iter = pango_layout_get_iter(layout)
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter), let font = layoutsnap_run_scaled_font(run)
                else { continue }
                seen.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(font))))
                // Pango's font holds one reference; the pin is another.
                XCTAssertGreaterThanOrEqual(cairo_scaled_font_get_reference_count(font), 2)
            } while pango_layout_iter_next_run(iter) != 0
            pango_layout_iter_free(iter)
        }
        XCTAssertGreaterThanOrEqual(seen.count, 3, "Inter (regular, bold, italic), Arabic, CJK, emoji")
        // The runs' fonts, and the fonts Pango only measured with (the metrics wrapper pins those:
        // in a process of its own, a size first seen here measures its fallbacks too).
        let pinned = TextEngine.pinnedScaledFontCount
        XCTAssertGreaterThanOrEqual(pinned, before + seen.count)
        XCTAssertLessThanOrEqual(pinned, before + 2 * seen.count)
        let second = try TextEngine(fonts: fonts)
        for text in texts { _ = try second.layout(for: text) }
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, pinned)
    }

    /// The font cairo draws a run with is a scaled font of its own, made for the font and the
    /// transform (and the image surface's font options, so at 1x too): it is pinned before it is
    /// first drawn with, once for each font and transform (TextEngine.pinDrawnFonts).
    func testTheFontsCairoDrawsWithArePinnedOnce() throws {
        let fonts = try FontSystem.shared()
        let engine = try TextEngine(fonts: fonts)
        let text = StyledText(markup: "drawn **fonts**", font: FontSpec(size: 11.71), width: 200)
        let draw = TextDraw(text: text, origin: Point(x: 2, y: 2), baselines: [12], color: .black)
        let runFonts = try engine.layout(for: text).fonts.count
        XCTAssertEqual(runFonts, 2, "regular and bold")
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        let before = TextEngine.pinnedScaledFontCount
        try engine.draw(draw, on: cr!)
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, before + runFonts, "at 1x too, a font of cairo's own for each")
        try engine.draw(draw, on: cr!)
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, before + runFonts, "once")
        cairo_scale(cr, 2.97, 2.97)
        try engine.draw(draw, on: cr!)
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, before + 2 * runFonts, "one for each font at 2.97x")
        cairo_translate(cr, 5, 7)
        try engine.draw(draw, on: cr!)
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, before + 2 * runFonts, "a translation is the same font")
        cairo_scale(cr, 1.5, 1.5)
        try engine.draw(draw, on: cr!)
        XCTAssertEqual(TextEngine.pinnedScaledFontCount, before + 3 * runFonts)
    }
}
