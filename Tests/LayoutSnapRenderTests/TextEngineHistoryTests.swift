import Foundation
import LayoutSnapCore
import LayoutSnapRender
import XCTest

/// A text engine must lay out a text the same whatever it laid out before (Pango's per-font
/// metrics cache, see TextEngine.init).
final class TextEngineHistoryTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func fixture(_ name: String) throws -> Fixture {
        let path = Self.root.appendingPathComponent("Tests/Determinism/\(name).json").path
        return try FixtureDecoder.load(path: path, id: "determinism/\(name)", displayPath: path)
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
        let before = try fixture("metrics-poison-before"), after = try fixture("metrics-poison-after")
        let fonts = try FontSystem.shared()
        let alone = try Self.hashes(after, TextEngine(fonts: fonts))
        let engine = try TextEngine(fonts: fonts)
        _ = try Self.hashes(before, engine)
        XCTAssertEqual(try Self.hashes(after, engine), alone)
    }
}
