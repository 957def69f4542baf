import XCTest
@testable import LayoutSnapCore
import LayoutSnapJSON

/// The defences against text that is valid but costs quadratic time somewhere (docs/guarantees.md "Fuzzing"
/// found each of them as a hang).
final class HostileTextTests: XCTestCase {
    func testOrdinaryTextIsNeverCut() {
        XCTAssertEqual(UnbrokenRuns.alternateChunks(in: "Hello world, " + String(repeating: "word ", count: 5_000)), [])
        XCTAssertEqual(UnbrokenRuns.alternateChunks(in: String(repeating: "a", count: 255)), [])
    }

    func testALongWordIsCutEveryOtherChunkOnClusterBoundaries() {
        let word = String(repeating: "a", count: 600)
        XCTAssertEqual(UnbrokenRuns.alternateChunks(in: "x " + word + " y"), [2..<130, 258..<386, 514..<602])
        // A family emoji is 25 bytes and one cluster: cuts fall between clusters, never inside.
        let family = "👩‍👩‍👧‍👦"
        let chunks = UnbrokenRuns.alternateChunks(in: String(repeating: family, count: 300))
        XCTAssertEqual(chunks.first, 0..<(128 * family.utf8.count))
        XCTAssertTrue(
            chunks.allSatisfy { $0.lowerBound % family.utf8.count == 0 && $0.upperBound % family.utf8.count == 0 })
    }

    func testStreamSafeLeavesRealTextAloneAndBreaksLongMarkRuns() {
        for text in ["plain", "café", "e\u{301}\u{302}\u{303}", "مرحبا", "👩‍👩‍👧‍👦", String(repeating: "\u{301}", count: 30)] {
            XCTAssertEqual(StreamSafe.apply(text).unicodeScalars.count, text.unicodeScalars.count, text)
        }
        let zalgo = "Z" + String(repeating: "\u{336}", count: 95)
        let safe = StreamSafe.apply(zalgo)
        // A joiner after every 30 marks: 95 marks need 3.
        XCTAssertEqual(safe.unicodeScalars.filter { $0.value == 0x34F }.count, 3)
        XCTAssertEqual(safe.unicodeScalars.count, 96 + 3)
        // Strings read from fixtures are stream-safe.
        let node = try! JSONParser.parse(Array("\"\(zalgo)\"".utf8))
        XCTAssertEqual(try JSONElement(node).string(), safe)
    }

    func testLineBreaksAreCountedAsPangoCountsParagraphs() {
        XCTAssertEqual(FixtureDecoder.lineBreaks(in: "a\nb\r\nc\rd\u{2029}e\u{2028}f"), 4)
        XCTAssertEqual(FixtureDecoder.lineBreaks(in: String(repeating: "\n", count: 7)), 7)
    }

    func testTooManyLineBreaksAreRefusedAtTheStringThatCrossesTheLimit() {
        let steps = (0..<3).map { _ in "{\"append\": \"" + String(repeating: "\\n", count: 2_000) + "\"}" }.joined(
            separator: ", ")
        let json = "{\"kind\": \"transcript\", \"text\": \"a\", \"steps\": [\(steps)]}"
        XCTAssertThrowsError(
            try FixtureDecoder.decode(bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty())
        ) { error in
            let e = error as! FixtureError
            XCTAssertEqual(e.path, "$.steps[2].append")
            XCTAssertTrue(e.message.contains("more than 5000 line breaks"), e.message)
        }
    }

    func testTooManyStepsAreRefusedBeforeAnyLayout() {
        let steps = Array(repeating: "{\"append\": \"x\"}", count: 10_000).joined(separator: ",")
        let json = "{\"kind\": \"transcript\", \"text\": \"a\", \"steps\": [\(steps)]}"
        XCTAssertThrowsError(
            try FixtureDecoder.decode(bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty())
        ) { error in
            let e = error as! FixtureError
            XCTAssertEqual(e.path, "$.steps")
            XCTAssertTrue(e.message.contains("10000 steps make at least 10001 states"), e.message)
        }
    }
}
