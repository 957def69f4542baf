import XCTest

@testable import LayoutSnapJSON

/// Every mistake of a document in one reading: unknown fields and unreadable array elements are
/// recorded and decoding goes on; what may only follow from them is left out.
final class DecodingErrorsTests: XCTestCase {
    struct Item {
        var name: String
        var size: Int
    }

    /// Reads `{"items": [{"name", "size"}], "count"}` the way the fixture decoders do.
    func read(_ text: String, limit: Int = 20) -> [String] {
        let root = try! JSONParser.parse(text)
        do {
            _ = try DecodingErrors.collecting(limit: limit) { () throws(JSONDecodingError) in
                let o = try JSONElement(root).object()
                let items = try o.required("items").each { (e) throws(JSONDecodingError) -> Item in
                    let item = try e.object()
                    let value = Item(name: try item.required("name").string(), size: try item.required("size").int())
                    try item.finish()
                    return value
                }
                if let count = o.optional("count"), try count.int() != items.count {
                    throw count.error("says \(try count.int()), there are \(items.count)")
                }
                try o.finish()
                return items
            }
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    func testEveryMistakeIsReportedInSourceOrder() {
        let text = """
            {
              "items": [
                {"name": "a", "size": 1, "colour": 2},
                {"name": "b", "size": "big"},
                {"name": "c", "size": 3}
              ],
              "extra": true
            }
            """
        XCTAssertEqual(
            read(text),
            [
                #"$.items[0].colour: unknown field "colour"; allowed here: name, size (line 3, column 30)"#,
                #"$.items[1].size: expected a whole number, found a string (line 4, column 27)"#,
                #"$.extra: unknown field "extra"; allowed here: count, items (line 7, column 3)"#,
            ])
    }

    func testAMisspelledRequiredFieldIsTheMistakeNotAMissingField() {
        XCTAssertEqual(
            read(#"{"items": [{"nmae": "a", "size": 1}]}"#),
            [#"$.items[0].nmae: unknown field "nmae"; did you mean "name"? (line 1, column 13)"#])
        // Two edits away is not taken for a misspelling: another key of the object, unread yet.
        XCTAssertEqual(
            read(#"{"items": [{"size": 1}]}"#), [#"$.items[0]: missing required field "name" (line 1, column 12)"#])
    }

    func testWhatFollowsFromASkippedElementIsLeftOut() {
        // The count disagrees only because the broken item was left out: one error, not two.
        XCTAssertEqual(
            read(#"{"items": [{"name": "a", "size": 1}, {"name": 2, "size": 1}], "count": 2}"#),
            [#"$.items[1].name: expected a string, found a number (line 1, column 47)"#])
        // Without a skipped element, the same check is a mistake of its own.
        XCTAssertEqual(
            read(#"{"items": [{"name": "a", "size": 1}], "count": 2}"#),
            [#"$.count: says 2, there are 1 (line 1, column 48)"#])
    }

    func testTheLimitStopsEarly() {
        let items = (0..<100).map { _ in #"{"name": 1, "size": 1}"# }.joined(separator: ", ")
        XCTAssertEqual(read(#"{"items": [\#(items)]}"#, limit: 5).count, 5)
    }

    func testOutsideCollectingTheFirstErrorIsThrown() throws {
        let o = try JSONElement(JSONParser.parse(#"{"a": [1, "x", "y"]}"#)).object()
        XCTAssertThrowsError(try o.required("a").each { (e) throws(JSONDecodingError) in try e.int() }) { error in
            XCTAssertEqual((error as? JSONDecodingError)?.path.description, "$.a[1]")
        }
    }
}
