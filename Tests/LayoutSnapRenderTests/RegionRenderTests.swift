import Foundation
import LayoutSnapCore
import LayoutSnapRender
import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

/// `FrameRenderer(region:)`, what `preview --serve` draws zoomed regions with: a region's pixels
/// are exactly those of the whole frame at the same scale, whatever the fixture draws (text,
/// shadows, pictures, gradients, strokes, the keyboard).
final class RegionRenderTests: XCTestCase {
    /// Every bundled fixture at twice its scale, the middle frame of each state, five regions of a
    /// seeded size and place, each compared with the whole frame. (Cut at its sides, a region
    /// drawn on its own surface differed by a level in a few pixels of most chats: Cairo samples
    /// a path clipped at a side otherwise; the renderer draws a region's rows across the canvas.)
    func testARegionHasTheWholeFramesPixelsInEveryBundledFixture() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Fixtures")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".json") }
            .sorted()
        XCTAssertGreaterThan(files.count, 40)
        let engine = try TextEngine(fonts: FontSystem.shared())
        var rng = SplitMix64(seed: 33)
        var compared = 0
        for file in files {
            let path = root.appendingPathComponent(file).path
            let fixture = try FixtureDecoder.load(
                path: path, id: String(file.dropLast(5)), displayPath: path, files: LocalInputFiles())
            let layout = try LayoutEngine.layout(fixture, measurer: engine)
            let canvas = Canvas(
                width: fixture.canvas.width, height: fixture.canvas.height, scale: fixture.canvas.scale * 2)
            let whole = try FrameRenderer(canvas: canvas, engine: engine)
            for state in layout.states {
                let frame = state.frames[state.frames.count / 2]
                let all = try whole.render(frame).copy()
                for _ in 0..<5 {
                    let width = rng.int(1...max(1, canvas.pixelWidth / 2))
                    let height = rng.int(1...max(1, canvas.pixelHeight / 3))
                    let region = PixelRegion(
                        x: rng.int(0...(canvas.pixelWidth - width)), y: rng.int(0...(canvas.pixelHeight - height)),
                        width: width, height: height)
                    let renderer = try FrameRenderer(canvas: canvas, engine: engine, region: region)
                    let part = try renderer.render(frame).copy()
                    XCTAssertEqual([part.width, part.height], [width, height])
                    var differing: [String] = []
                    for y in 0..<height {
                        for x in 0..<width
                        where part.pixels[y * width + x] != all.pixels[(region.y + y) * all.width + region.x + x] {
                            differing.append("\(x),\(y)")
                        }
                    }
                    XCTAssertEqual(
                        differing.count, 0,
                        "\(file) \(state.name) frame \(frame.index), region \(region): at \(differing.prefix(8))")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 400)
    }
}
