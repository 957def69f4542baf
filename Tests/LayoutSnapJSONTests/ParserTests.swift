import Foundation
import XCTest
@testable import LayoutSnapJSON

final class ParserTests: XCTestCase {
    func testScalars() throws {
        XCTAssertEqual(try JSONParser.parse("null").value, .null)
        XCTAssertEqual(try JSONParser.parse(" true ").value, .bool(true))
        XCTAssertEqual(try JSONParser.parse("\n\tfalse\r\n").value, .bool(false))
        XCTAssertEqual(try JSONParser.parse("\"hi\"").value, .string("hi"))
        XCTAssertEqual(try JSONParser.parse("42").value, .number(42))
    }

    func testObjectKeepsSourceOrderAndPositions() throws {
        let text = """
            {
              "b": [1, true],
              "a": {"x": null}
            }
            """
        let node = try JSONParser.parse(text)
        XCTAssertEqual(node.position, SourcePosition(line: 1, column: 1, offset: 0))
        guard case .object(let members) = node.value else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["b", "a"])
        XCTAssertEqual(members[0].keyPosition.description, "line 2, column 3")
        XCTAssertEqual(members[0].value.position.description, "line 2, column 8")
        guard case .array(let items) = members[0].value.value else { return XCTFail("not an array") }
        XCTAssertEqual(items.map(\.position.column), [9, 12])
        XCTAssertEqual(items[1].value, .bool(true))
        XCTAssertEqual(members[1].value.position.description, "line 3, column 8")
        XCTAssertEqual(members[1].value.position.offset, 27)
    }

    func testEmptyContainers() throws {
        XCTAssertEqual(try JSONParser.parse("[]").value, .array([]))
        XCTAssertEqual(try JSONParser.parse("{ \n }").value, .object([]))
        XCTAssertEqual(shape(try JSONParser.parse("[[],{},[[]]]")), [[], .object([]), [[]]])
    }

    func testNumbers() throws {
        func number(_ text: String) throws -> Double {
            guard case .number(let d) = try JSONParser.parse(text).value else {
                XCTFail("not a number: \(text)")
                return .nan
            }
            return d
        }
        let negativeZero = try number("-0")
        XCTAssertEqual(negativeZero, 0)
        XCTAssertEqual(negativeZero.sign, .minus)
        XCTAssertEqual(try number("-0.0").sign, .minus)
        XCTAssertEqual(try number("0"), 0)
        XCTAssertEqual(try number("1e308"), 1e308)
        XCTAssertEqual(try number("0.1"), 0.1)
        XCTAssertEqual(try number("1E-5"), 1e-5)
        XCTAssertEqual(try number("1e-5"), 0.00001)
        XCTAssertEqual(try number("2.5E+3"), 2500)
        XCTAssertEqual(try number("-12.75"), -12.75)
        XCTAssertEqual(try number("0.000001"), 1e-6)
        XCTAssertEqual(try number("123456789012345678901234567890"), 1.2345678901234568e29)
        XCTAssertEqual(try number("9007199254740993"), 9007199254740992)  // 2^53 + 1 rounds to even
        XCTAssertEqual(try number("2.2250738585072014e-308"), 2.2250738585072014e-308)
        XCTAssertEqual(try number("1.7976931348623157e308"), .greatestFiniteMagnitude)
        XCTAssertEqual(try number("5e-324"), .leastNonzeroMagnitude)
        XCTAssertEqual(try number("1e-400"), 0)  // underflow is not an error
        XCTAssertEqual(try number("0e99999999999999999999"), 0)
        XCTAssertEqual(try number("3.141592653589793238462643383279"), 3.141592653589793)
        XCTAssertEqual(try number("0.30000000000000004"), 0.1 + 0.2)
    }

    func testStringsAndEscapes() throws {
        XCTAssertEqual(
            try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u4E2D""#).value,
            .string("a\"b\\c/d\u{8}\u{C}\n\r\tAé中"))
        XCTAssertEqual(try JSONParser.parse("\"héllo 😀 中文\"").value, .string("héllo 😀 中文"))
        XCTAssertEqual(try JSONParser.parse(#""\u0000""#).value, .string("\u{0}"))
        XCTAssertEqual(try JSONParser.parse("\"\u{7F}\"").value, .string("\u{7F}"))  // DEL is allowed
    }

    func testSurrogatePairsDecodeToTheRightScalar() throws {
        let node = try JSONParser.parse(#"["\uD83D\uDE00", "x\ud834\udd1ey"]"#)
        XCTAssertEqual(shape(node), ["😀", "x𝄞y"])
        guard case .array(let items) = node.value, case .string(let s) = items[0].value else {
            return XCTFail()
        }
        XCTAssertEqual(s.unicodeScalars.map(\.value), [0x1F600])
    }

    func testByteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8)
        let node = try JSONParser.parse(bytes)
        XCTAssertEqual(shape(node), ["a": 1.0])
        XCTAssertEqual(node.position, SourcePosition(line: 1, column: 1, offset: 3))
    }

    func testColumnsCountUnicodeScalars() {
        // 名前 is 6 bytes but two columns; the offset stays in bytes.
        do {
            _ = try JSONParser.parse("{\"名前\": x}")
            XCTFail("should fail")
        } catch {
            XCTAssertEqual(error.position, SourcePosition(line: 1, column: 8, offset: 11))
        }
    }

    func testInputKinds() throws {
        let expected: JSONOutput = ["a": [1.0, 2.0]]
        let text = "{\"a\": [1, 2]}"
        XCTAssertEqual(shape(try JSONParser.parse(text)), expected)
        XCTAssertEqual(shape(try JSONParser.parse(text.utf8)), expected)
        XCTAssertEqual(shape(try JSONParser.parse(Data(text.utf8))), expected)
        XCTAssertEqual(shape(try JSONParser.parse(Array(text.utf8)[...])), expected)
        // Non-contiguous collection: copied once.
        XCTAssertEqual(shape(try JSONParser.parse(Array(text.utf8).lazy.map { $0 })), expected)
        try Array(text.utf8).withUnsafeBytes { raw in
            XCTAssertEqual(shape(try JSONParser.parse(raw)), expected)
        }
    }

    func testDepthLimitAllowsExactlyMaxDepth() throws {
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        XCTAssertNoThrow(try JSONParser.parse(ok))
        let objects = String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)
        XCTAssertNoThrow(try JSONParser.parse(objects))
    }

    func testParserDoesNotRecurseWithLargeMaxDepth() throws {
        // The parser uses an explicit stack, so a generous limit is safe for
        // the parser itself.
        let n = 5_000
        let text = String(repeating: "[", count: n) + String(repeating: "]", count: n)
        var node = try JSONParser.parse(text, maxDepth: n)
        var depth = 0
        while case .array(let items) = node.value, let first = items.first {
            node = first
            depth += 1
        }
        XCTAssertEqual(depth, n - 1)
    }

    func testRoundTripParseWriteParse() throws {
        let text = """
            {
              "name": "layout \\"main\\"\\n\\u0001 é 😀",
              "fps": 59.94,
              "size": [1920, 1080],
              "negZero": -0,
              "tiny": 1e-7,
              "huge": 1.5e300,
              "flags": [true, false, null],
              "steps": [
                {"at": 0, "rect": [10, 12.5, 370, 100]},
                {"at": 1.25, "nested": {"deep": [[1, [2]], {}]}, "empty": []}
              ],
              "odd key": {"": ""}
            }
            """
        let first = try JSONParser.parse(text)
        for style in [JSONWriter.Style.pretty, .compact] {
            let written = JSONWriter(style: style).bytes(JSONOutput(first))
            let second = try JSONParser.parse(written)
            XCTAssertEqual(shape(second), shape(first), "style \(style)")
            // Writing is deterministic and a fixed point.
            XCTAssertEqual(JSONWriter(style: style).bytes(JSONOutput(second)), written)
        }
    }

    func testLargeInputParses() throws {
        // ~16 MB: an array of small objects mixing numbers, strings with
        // escapes and non-ASCII, and literals.
        let element = Array(
            #"{"id": 123456, "x": -12.375, "name": "caf\u00e9 \"q\" ü", "ok": true, "v": [1e3, null]}"#.utf8)
        var bytes: [UInt8] = [0x5B]
        bytes.reserveCapacity(16 * 1024 * 1024 + 200)
        var count = 0
        while bytes.count < 16 * 1024 * 1024 {
            if count > 0 { bytes.append(contentsOf: [0x2C, 0x0A]) }
            bytes.append(contentsOf: element)
            count += 1
        }
        bytes.append(0x5D)
        let node = try JSONParser.parse(bytes)
        guard case .array(let items) = node.value else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, count)
        XCTAssertEqual(items.last?.position.line, count)
        guard case .object(let members) = items[count / 2].value else { return XCTFail("not an object") }
        XCTAssertEqual(members[2].value.value, .string("café \"q\" ü"))
        XCTAssertEqual(members[1].value.value, .number(-12.375))
    }

    func testTypeNames() {
        XCTAssertEqual(JSONValue.null.typeName, "null")
        XCTAssertEqual(JSONValue.bool(true).typeName, "a boolean")
        XCTAssertEqual(JSONValue.number(1).typeName, "a number")
        XCTAssertEqual(JSONValue.string("").typeName, "a string")
        XCTAssertEqual(JSONValue.array([]).typeName, "an array")
        XCTAssertEqual(JSONValue.object([]).typeName, "an object")
    }

    func testEverythingIsSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(JSONNode.self)
        requireSendable(JSONValue.self)
        requireSendable(JSONSyntaxError.self)
        requireSendable(JSONDecodingError.self)
        requireSendable(JSONElement.self)
        requireSendable(ObjectReader.self)
        requireSendable(JSONPath.self)
        requireSendable(JSONWriter.self)
        requireSendable(JSONOutput.self)
    }
}
