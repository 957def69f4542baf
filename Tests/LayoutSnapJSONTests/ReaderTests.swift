import XCTest
@testable import LayoutSnapJSON

final class ReaderTests: XCTestCase {
    let document = """
        {
          "kind": "rect",
          "steps": [
            {"at": 1, "expand": true},
            {"at": "x", "count": 2.5}
          ],
          "colour": "red",
          "fps": null,
          "big": 3000000000,
          "whole": 2.0,
          "odd key": {"1st": []}
        }
        """

    func root() throws -> JSONElement {
        JSONElement(try JSONParser.parse(document))
    }

    func testPathDescriptions() {
        XCTAssertEqual(JSONPath.root.description, "$")
        XCTAssertEqual(
            JSONPath.root.appending(key: "steps").appending(index: 1).appending(key: "expand").description,
            "$.steps[1].expand")
        XCTAssertEqual(JSONPath.root.appending(key: "odd key").description, "$[\"odd key\"]")
        XCTAssertEqual(JSONPath.root.appending(key: "1st").description, "$[\"1st\"]")
        XCTAssertEqual(JSONPath.root.appending(key: "").description, "$[\"\"]")
        XCTAssertEqual(JSONPath.root.appending(key: "a\"b").description, "$[\"a\\\"b\"]")
        XCTAssertEqual(JSONPath.root.appending(key: "_ok9").appending(key: "é").description, "$._ok9[\"é\"]")
        XCTAssertEqual(JSONPath.root.appending(index: 0).appending(index: 2).description, "$[0][2]")
        XCTAssertEqual(JSONPath.root.appending(key: "a"), JSONPath([.key("a")]))
        XCTAssertNotEqual(JSONPath.root.appending(key: "0"), JSONPath.root.appending(index: 0))
    }

    func testTypicalDecoding() throws {
        let o = try root().object()
        let kind = try o.required("kind").string()
        let fpsElement = o.optional("fps")
        let missing = try o.optional("missing")?.double() ?? 60
        let steps = try o.required("steps").array()
        var ats: [Int] = []
        let first = try steps[0].object()
        ats.append(try first.required("at").int())
        XCTAssertTrue(try first.required("expand").bool())
        try first.finish()
        XCTAssertEqual(kind, "rect")
        XCTAssertEqual(fpsElement?.isNull, true)
        XCTAssertEqual(fpsElement?.typeName, "null")
        XCTAssertEqual(missing, 60)
        XCTAssertEqual(ats, [1])
        XCTAssertEqual(steps[1].path.description, "$.steps[1]")
        XCTAssertEqual(try o.required("whole").int(), 2)
        XCTAssertEqual(o.keys, ["kind", "steps", "colour", "fps", "big", "whole", "odd key"])
        XCTAssertTrue(o.contains("colour"))
        XCTAssertFalse(o.contains("color"))
        let odd = try o.required("odd key").object()
        XCTAssertEqual(try odd.required("1st").array().count, 0)
        XCTAssertEqual(odd.optional("1st")?.path.description, "$[\"odd key\"][\"1st\"]")
    }

    func testTypeMismatchMessage() throws {
        let steps = try root().object().required("steps").array()
        let second = try steps[1].object()
        XCTAssertEqual(
            decodingErrorDescription { _ = try second.required("at").double() },
            "$.steps[1].at: expected a number, found a string (line 5, column 12)")
        XCTAssertEqual(
            decodingErrorDescription { _ = try second.required("at").bool() },
            "$.steps[1].at: expected a boolean, found a string (line 5, column 12)")
        XCTAssertEqual(
            decodingErrorDescription { _ = try steps[0].array() },
            "$.steps[0]: expected an array, found an object (line 4, column 5)")
        XCTAssertEqual(
            decodingErrorDescription { _ = try root().object().required("kind").object() },
            "$.kind: expected an object, found a string (line 2, column 11)")
        XCTAssertEqual(
            decodingErrorDescription { _ = try root().object().required("fps").double() },
            "$.fps: expected a number, found null (line 8, column 10)")
        XCTAssertEqual(
            decodingErrorDescription { _ = try root().object().required("kind").int() },
            "$.kind: expected a whole number, found a string (line 2, column 11)")
    }

    func testWholeNumbers() throws {
        let o = try root().object()
        let second = try o.required("steps").array()[1].object()
        XCTAssertEqual(
            decodingErrorDescription { _ = try second.required("count").int() },
            "$.steps[1].count: expected a whole number, found 2.5 (line 5, column 26)")
        XCTAssertEqual(
            decodingErrorDescription { _ = try o.required("big").int() },
            "$.big: expected a whole number between -2147483648 and 2147483647, found 3000000000 (line 9, column 10)")
        let edge = try JSONElement(JSONParser.parse("[2147483647, -2147483648, -0]")).array()
        XCTAssertEqual(try edge.map { el throws(JSONDecodingError) in try el.int() }, [2147483647, -2147483648, 0])
    }

    func testMissingRequiredField() throws {
        let o = try root().object()
        XCTAssertEqual(
            decodingErrorDescription { _ = try o.required("width") },
            "$: missing required field \"width\" (line 1, column 1)")
        let step = try o.required("steps").array()[0].object()
        do {
            _ = try step.required("duration")
            XCTFail()
        } catch {
            XCTAssertEqual(error.path.description, "$.steps[0]")
            XCTAssertEqual(error.message, "missing required field \"duration\"")
            XCTAssertEqual(error.position, SourcePosition(line: 4, column: 5, offset: 37))
        }
    }

    func testUnknownFieldWithSuggestion() throws {
        let o = try root().object()
        _ = try o.required("kind")
        _ = try o.required("steps")
        _ = o.optional("color")
        _ = o.optional("fps")
        _ = o.optional("big")
        _ = o.optional("whole")
        _ = o.optional("odd key")
        XCTAssertEqual(
            decodingErrorDescription { try o.finish() },
            "$.colour: unknown field \"colour\"; did you mean \"color\"? (line 7, column 3)")
    }

    func testUnknownFieldWithoutSuggestion() throws {
        let o = try JSONElement(JSONParser.parse("{\"a\": 1, \"zzz\": 2, \"id\": 3}")).object()
        _ = o.optional("a")
        _ = o.optional("at")
        XCTAssertEqual(
            decodingErrorDescription { try o.finish() },
            "$.zzz: unknown field \"zzz\"; allowed here: a, at (line 1, column 10)")
        _ = o.optional("zzz")
        // "id" is two edits from "at", but that is the whole key: no suggestion, the allowed keys.
        XCTAssertEqual(
            decodingErrorDescription { try o.finish() },
            "$.id: unknown field \"id\"; allowed here: a, at, zzz (line 1, column 20)")
        _ = o.optional("id")
        XCTAssertNil(decodingErrorDescription { try o.finish() })
    }

    func testSuggestionPicksClosestAndHandlesTranspositions() throws {
        let o = try JSONElement(JSONParser.parse("{\"fsp\": 30, \"durration\": 1}")).object()
        _ = o.optional("fps")
        _ = o.optional("duration")
        _ = o.optional("fsx")
        XCTAssertEqual(
            decodingErrorDescription { try o.finish() },
            "$.fsp: unknown field \"fsp\"; did you mean \"fps\"? (line 1, column 2)")
        _ = o.optional("fsp")
        XCTAssertEqual(
            decodingErrorDescription { try o.finish() },
            "$.durration: unknown field \"durration\"; did you mean \"duration\"? (line 1, column 13)")
        XCTAssertEqual(ObjectReader.editDistance("colour", "color"), 1)
        XCTAssertEqual(ObjectReader.editDistance("fsp", "fps"), 1)
        XCTAssertEqual(ObjectReader.editDistance("", "abc"), 3)
        XCTAssertEqual(ObjectReader.editDistance("kitten", "sitting"), 3)
    }

    func testNullCountsAsPresentAndFinishCountsOptionalReads() throws {
        let o = try JSONElement(JSONParser.parse("{\"fps\": null}")).object()
        let fps = o.optional("fps")
        XCTAssertNotNil(fps)
        XCTAssertTrue(fps!.isNull)
        XCTAssertNoThrow(try o.finish())
        XCTAssertEqual(
            decodingErrorDescription { _ = try o.optional("fps")?.double() ?? 60 },
            "$.fps: expected a number, found null (line 1, column 9)")
    }

    func testErrorWithoutPositionAndCustomErrors() throws {
        let e = JSONDecodingError(path: .root.appending(key: "x"), position: nil, message: "bad")
        XCTAssertEqual(e.description, "$.x: bad")
        let el = try root().object().required("kind")
        XCTAssertEqual(
            el.error("expected one of \"circle\", \"square\"").description,
            "$.kind: expected one of \"circle\", \"square\" (line 2, column 11)")
    }

    func testReaderIsUsableAcrossTasks() async throws {
        let o = try root().object()
        let kind = try await Task.detached { try o.required("kind").string() }.value
        XCTAssertEqual(kind, "rect")
    }
}
