import CRenderLibraries
import Foundation
import LayoutSnapCore
@testable import LayoutSnapRender
import XCTest

/// Pango's font pattern threads run on the thread that asks (PangoThreads.c); any other thread
/// GLib is asked for is still a thread of its own.
final class PangoThreadsTests: XCTestCase {
    func testANewFontPatternIsMatchedOnTheAskingThread() throws {
        let engine = try TextEngine(fonts: FontSystem.shared())
        let before = layoutsnap_pango_threads_run_inline()
        // A size no other test lays out: a pattern this font map has not matched yet.
        let text = StyledText(runs: [TextRun("Matched here")], font: FontSpec(size: 23.4567), width: nil)
        _ = try engine.measure(text)
        // One match and one sort per new pattern; the text may need fallbacks' patterns too.
        XCTAssertGreaterThanOrEqual(layoutsnap_pango_threads_run_inline() - before, 2)
    }

    func testAnyOtherNameStartsAThread() throws {
        _ = try FontSystem.shared()  // GLib loaded
        final class Box: @unchecked Sendable { var ranOn: pthread_t? }
        let box = Box()
        let before = layoutsnap_pango_threads_run_inline()
        let thread = g_thread_new(
            "layoutsnap test",
            { data in
                Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().ranOn = pthread_self()
                return nil
            }, Unmanaged.passUnretained(box).toOpaque())
        _ = g_thread_join(thread)
        let ranOn = try XCTUnwrap(box.ranOn)
        XCTAssertEqual(pthread_equal(ranOn, pthread_self()), 0, "ran on a thread of its own")
        XCTAssertEqual(layoutsnap_pango_threads_run_inline(), before)
    }
}
