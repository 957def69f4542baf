import XCTest
import LayoutSnapCore
import LayoutSnapDiff

final class LayoutDiffTests: XCTestCase {
    func layout(bodyY: Double, withAuthor: Bool = true) -> FixtureLayout {
        var elements = [
            LayoutElement(id: "card", rect: Rect(x: 10, y: 12, width: 370, height: 100)),
            LayoutElement(id: "body", rect: Rect(x: 20, y: bodyY, width: 350, height: 42.29)),
        ]
        if withAuthor {
            elements.append(LayoutElement(id: "author", rect: Rect(x: 20, y: 200, width: 350, height: 17.9)))
        }
        let frame = LayoutFrame(index: 7, time: 7.0 / 60, progress: 0.4, elements: elements, drawList: [])
        return FixtureLayout(
            fixtureID: "posts/x", canvas: Canvas(width: 390, height: 500, scale: 2),
            states: [StateLayout(name: "01-expand", frames: [frame])])
    }

    func testMovedElementIsNamedWithItsDelta() throws {
        let golden = LayoutSnapshot.parse(LayoutJSON.encode(layout(bodyY: 126)))!
        let now = LayoutSnapshot(layout(bodyY: 130))
        XCTAssertEqual(now.changes(from: golden, state: "01-expand", frame: 7), ["body.y +4.00"])
    }

    func testAddedAndRemovedElements() throws {
        let golden = LayoutSnapshot.parse(LayoutJSON.encode(layout(bodyY: 126, withAuthor: true)))!
        let now = LayoutSnapshot(layout(bodyY: 125.5, withAuthor: false))
        XCTAssertEqual(now.changes(from: golden, state: "01-expand", frame: 7), ["body.y -0.50", "author removed"])
        XCTAssertEqual(golden.changes(from: now, state: "01-expand", frame: 7), ["body.y +0.50", "author added"])
    }

    func testUnchangedLayoutReportsNothingAfterRounding() throws {
        let a = layout(bodyY: 126.0012)
        XCTAssertEqual(
            LayoutSnapshot(a).changes(from: LayoutSnapshot.parse(LayoutJSON.encode(a))!, state: "01-expand", frame: 7),
            [])
    }
}
