import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

final class RenderDeterminismTests: XCTestCase {
    func fixture(_ name: String) throws -> Fixture {
        let path = TestPaths.packageRoot.appendingPathComponent("Fixtures/posts/\(name).json").path
        return try FixtureDecoder.load(path: path, id: "posts/\(name)", displayPath: path, files: LocalInputFiles())
    }

    /// Every frame's pixel hash, rendered with a fresh engine.
    static func hashes(_ fixture: Fixture) throws -> [UInt64] {
        let engine = try TextEngine(fonts: FontSystem.shared())
        let layout = try LayoutEngine.layout(fixture, measurer: engine)
        let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
        return try layout.states.flatMap { try $0.frames.map { try renderer.render($0).hash } }
    }

    func testSameHashesTwiceAndOnTwoThreadsAtOnce() throws {
        let f = try fixture("cjk-emoji")
        let first = try Self.hashes(f)
        XCTAssertEqual(try Self.hashes(f), first)

        final class Box: @unchecked Sendable {
            var results: [[UInt64]] = [[], []]
            var errors: [String] = []
        }
        let box = Box()
        let lock = NSLock()
        let group = DispatchGroup()
        for i in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let h = try RenderDeterminismTests.hashes(f)
                    lock.lock()
                    box.results[i] = h
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
        XCTAssertEqual(box.results[0], first)
        XCTAssertEqual(box.results[1], first)
    }

    /// Layout runs once per distinct text, not once per frame: 19 frames of an expand lay out
    /// exactly as many texts as the single initial frame needs plus the body and author.
    func testPangoLayoutRunsOncePerTextNotPerFrame() throws {
        let f = try fixture("long-body")
        let engine = try TextEngine(fonts: FontSystem.shared())
        let layout = try LayoutEngine.layout(f, measurer: engine)
        let afterLayout = engine.layoutsCreated
        XCTAssertGreaterThan(afterLayout, 5)
        let renderer = try FrameRenderer(canvas: f.canvas, engine: engine)
        for state in layout.states { for frame in state.frames { _ = try renderer.render(frame) } }
        // Only the bullet marker, drawn but never measured, is added while rendering.
        XCTAssertEqual(engine.layoutsCreated, afterLayout + 1)
        XCTAssertEqual(layout.frameCount, 20)
    }

    func testIOSLineMetricsNotInters() throws {
        let engine = try TextEngine(fonts: FontSystem.shared())
        let text = StyledText(
            markup: "one two three four five six seven eight nine ten eleven twelve", font: TextStyle.body.font,
            width: 120)
        let m = try engine.measure(text)
        XCTAssertGreaterThan(m.lineCount, 3)
        // Heights come from LineMetrics, never from the font: body is 20.29 + 22 per extra line.
        XCTAssertEqual(
            LineMetrics.height(lines: m.lineCount, font: text.font), 20.2878 + 22 * Double(m.lineCount - 1),
            accuracy: 1e-9)
    }

    func testEllipsisAndNoVisibleHyphens() throws {
        let engine = try TextEngine(fonts: FontSystem.shared())
        let limited = try engine.measure(
            StyledText(
                markup: String(repeating: "word ", count: 80), font: TextStyle.body.font, width: 200, maxLines: 2))
        XCTAssertEqual(limited.lineCount, 2)
        XCTAssertTrue(limited.truncated)
        let free = try engine.measure(
            StyledText(markup: String(repeating: "word ", count: 80), font: TextStyle.body.font, width: 200))
        XCTAssertFalse(free.truncated)
        XCTAssertGreaterThan(free.lineCount, 2)
    }

    func testBrokenImageIsARenderErrorNotACrash() throws {
        let dir = try makeTemporaryFolder("img")
        defer { removeTemporaryFolder(dir) }
        let png = dir.appendingPathComponent("bad.png")
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += [0, 0, 0, 10, 0, 0, 0, 5, 8, 2, 0, 0, 0, 0, 0, 0, 0]  // header only, bad CRC, no data
        try Data(bytes).write(to: png)
        XCTAssertThrowsError(try FrameRenderer.loadPNG(png.path)) { error in
            guard case RenderError.image(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, png.path)
        }
    }

    /// Preview bakes overlays by painting them over the rendered frame: the same pixels as
    /// rendering the frame with the overlay appended to its draw list, for every frame.
    func testPaintingOverAFrameEqualsRenderingItWithTheOps() throws {
        let f = try fixture("no-image")
        let engine = try TextEngine(fonts: FontSystem.shared())
        let layout = try LayoutEngine.layout(f, measurer: engine)
        let renderer = try FrameRenderer(canvas: f.canvas, engine: engine)
        var checked = 0
        for state in layout.states {
            for frame in state.frames {
                let ops = try FrameOverlay(frame: frame, measurer: engine).drawOps(scale: f.canvas.scale)
                XCTAssertFalse(ops.isEmpty)
                var marked = frame
                marked.drawList += ops
                let whole = try renderer.render(marked).hash
                let plain = try renderer.render(frame).hash
                let over = try renderer.paintOver(ops).hash
                XCTAssertEqual(over, whole, "\(state.name) frame \(frame.index)")
                XCTAssertNotEqual(over, plain, "the overlay shows")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }
}
