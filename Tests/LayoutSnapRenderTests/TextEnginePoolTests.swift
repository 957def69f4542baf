import LayoutSnapCore
@testable import LayoutSnapRender
import XCTest

/// A finished worker's engine is kept for the next worker of the process, by font system, up to
/// a limit, and comes back with no layouts of the last fixture.
final class TextEnginePoolTests: XCTestCase {
    func testAGivenBackEngineIsTakenAgainEmptyAndOnce() throws {
        let fonts = try FontSystem.shared()
        // Whatever earlier tests left: taken out, so the pool holds only what this test gives.
        var drained: [TextEngine] = []
        for _ in 0..<TextEngine.idleLimit { drained.append(try TextEngine.take(fonts: fonts)) }
        let engine = drained.removeLast()
        _ = try engine.measure(StyledText(runs: [TextRun("Hello")], font: TextStyle.body.font, width: 200))
        let made = engine.layoutsCreated
        TextEngine.giveBack(engine)
        let again = try TextEngine.take(fonts: fonts)
        XCTAssertTrue(again === engine, "the engine given back")
        // Its cache was cleared: the same text is laid out again.
        _ = try again.measure(StyledText(runs: [TextRun("Hello")], font: TextStyle.body.font, width: 200))
        XCTAssertEqual(again.layoutsCreated, made + 1)
        let other = try TextEngine.take(fonts: fonts)
        XCTAssertFalse(other === engine, "a taken engine is nobody else's")
        // Up to the limit: the rest are let go.
        for e in drained + [again, other] { TextEngine.giveBack(e) }
        var back: [TextEngine] = []
        for _ in 0..<TextEngine.idleLimit { back.append(try TextEngine.take(fonts: fonts)) }
        let kept = Set(back.map(ObjectIdentifier.init))
        XCTAssertEqual(kept.count, TextEngine.idleLimit)
        XCTAssertEqual(
            kept.intersection((drained + [again, other]).map(ObjectIdentifier.init)).count, TextEngine.idleLimit)
        for e in back { TextEngine.giveBack(e) }
        // Given back twice, kept once.
        let twice = try TextEngine.take(fonts: fonts)
        TextEngine.giveBack(twice)
        TextEngine.giveBack(twice)
        XCTAssertTrue(try TextEngine.take(fonts: fonts) === twice)
        XCTAssertFalse(try TextEngine.take(fonts: fonts) === twice)
    }

    /// An engine reads its own font system's config: another system never gets it.
    func testAnEngineIsTakenOnlyForItsFontSystem() throws {
        let shared = try FontSystem.shared()
        let other = try FontSystem(projectFonts: nil)
        let engine = try TextEngine.take(fonts: shared)
        TextEngine.giveBack(engine)
        XCTAssertFalse(try TextEngine.take(fonts: other) === engine)
        XCTAssertTrue(try TextEngine.take(fonts: shared) === engine)
    }
}
