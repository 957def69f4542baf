import LayoutSnapCore
import XCTest

/// A fixture's estimated cost orders the batch (heaviest first): frames times pixels, and each
/// text laid out at what drawing 10,000 pixels costs.
final class EstimatedCostTests: XCTestCase {
    func fixture(_ json: String) throws -> Fixture {
        try FixtureDecoder.decode(bytes: Array(json.utf8), id: "f", file: "f.json", folder: .empty())
    }

    func testAChatOfManyMessagesWeighsItsTexts() throws {
        let messages = (1...500).map { #"{"id": "m\#($0)", "role": "user", "text": "Message \#($0)"}"# }
        let many = try fixture(
            #"{"kind": "chat", "scale": 1, "height": 640, "messages": [\#(messages.joined(separator: ","))]}"#)
        let one = try fixture(#"{"kind": "chat", "scale": 1, "height": 640, "messages": [\#(messages[0])]}"#)
        XCTAssertEqual(many.estimatedFrames, 1)
        XCTAssertEqual(one.estimatedFrames, 1)
        let pixels = Double(many.canvas.pixelWidth * many.canvas.pixelHeight)
        XCTAssertEqual(many.estimatedCost, pixels + 500 * 10_000)
        XCTAssertEqual(one.estimatedCost, pixels + 1 * 10_000)
        // Some twenty frames of its own canvas: no longer the lightest of a suite, handed out last.
        XCTAssertGreaterThan(many.estimatedCost, 15 * pixels)
    }

    func testEveryKindCountsItsTexts() throws {
        let transcript = try fixture(
            #"{"kind": "transcript", "text": "a", "steps": [{"append": " b"}, {"append": " c"}]}"#)
        XCTAssertEqual(transcript.content.estimatedTexts, 3)
        let post = try fixture(#"{"kind": "post", "title": "T", "summary": "S", "body": "B"}"#)
        XCTAssertEqual(post.content.estimatedTexts, 3)
        let composer = try fixture(#"{"kind": "composer", "text": "hi"}"#)
        XCTAssertEqual(composer.content.estimatedTexts, 1)
    }
}
