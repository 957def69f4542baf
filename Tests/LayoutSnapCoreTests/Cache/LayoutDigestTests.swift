import Foundation
import LayoutSnapCore
import LayoutSnapTestSupport
import XCTest

/// The bytes the result cache hashes a fixture's layout from: the same layout gives the same
/// bytes, and each thing layout.json shows, changed by any amount, gives other bytes.
final class LayoutDigestTests: XCTestCase {
    func layout() throws -> FixtureLayout {
        let json = """
            {"kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": 160,
             "title": "Small card", "summary": "A summary", "body": "Body text", "author": "Ann",
             "fps": 20, "steps": [{"expand": true}]}
            """
        let fixture = try FixtureDecoder.decode(
            bytes: Array(json.utf8), id: "cards/small", file: "x.json", folder: .empty(), defaults: FixtureDefaults())
        return try LayoutEngine.layout(fixture, measurer: FakeMeasurer())
    }

    func testEveryValueOfTheLayoutIsInItsBytes() throws {
        let base = try layout()
        let bytes = LayoutJSON.digestBytes(base)
        XCTAssertEqual(LayoutJSON.digestBytes(try layout()), bytes, "the same layout, the same bytes")
        XCTAssertGreaterThan(base.states.count, 1)
        let a = try XCTUnwrap(base.states[1].frames[0].elements.firstIndex { !$0.attributes.isEmpty })

        var changes: [(String, (inout FixtureLayout) -> Void)] = [
            ("fixture id", { $0.fixtureID += "x" }),
            ("canvas", { $0.canvas.scale = 2 }),
            ("state name", { $0.states[1].name += "x" }),
            ("state note", { $0.states[1].note = "a note" }),
            ("a frame less", { $0.states[1].frames.removeLast() }),
            ("frame index", { $0.states[1].frames[0].index += 1 }),
            ("frame time", { $0.states[1].frames[0].time += 1e-12 }),
            ("frame progress", { $0.states[1].frames[0].progress = $0.states[1].frames[0].progress.nextUp }),
            ("element id", { $0.states[1].frames[0].elements[0].id += "x" }),
            ("rect, below layout.json's rounding", { $0.states[1].frames[0].elements[0].rect.y += 0.001 }),
            ("an element less", { $0.states[1].frames[0].elements.removeLast() }),
            ("attribute value", { $0.states[1].frames[0].elements[a].attributes[0].value = .null }),
            ("attribute key", { $0.states[1].frames[0].elements[a].attributes[0].key += "x" }),
            (
                "scroll",
                {
                    $0.states[1].frames[0].scroll = ScrollInfo(
                        offset: 0, contentHeight: 1, viewportHeight: 1, following: true)
                }
            ),
        ]
        changes.append(("following", { $0.states[1].frames[0].scroll?.following.toggle() }))
        var seen: Set<[UInt8]> = [bytes]
        var withScroll = base
        withScroll.states[1].frames[0].scroll = ScrollInfo(
            offset: 0, contentHeight: 1, viewportHeight: 1, following: true)
        for (name, change) in changes {
            var changed = name == "following" ? withScroll : base
            change(&changed)
            let other = LayoutJSON.digestBytes(changed)
            XCTAssertTrue(seen.insert(other).inserted, "\(name): the same bytes as another layout")
        }
        // Attribute kinds that print alike are told apart.
        var one = base
        var other = base
        one.states[1].frames[0].elements[0].attributes = [("a", .int(1))]
        other.states[1].frames[0].elements[0].attributes = [("a", .ints([1]))]
        XCTAssertNotEqual(LayoutJSON.digestBytes(one), LayoutJSON.digestBytes(other))
        one.states[1].frames[0].elements[0].attributes = [("a", .strings(["b", "c"]))]
        other.states[1].frames[0].elements[0].attributes = [("a", .strings(["bc", ""]))]
        XCTAssertNotEqual(LayoutJSON.digestBytes(one), LayoutJSON.digestBytes(other))
    }
}
