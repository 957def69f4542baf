import XCTest
@testable import LayoutSnapJSON

final class WriterTests: XCTestCase {
    func format(_ x: Double, _ step: Double? = nil) -> String {
        JSONWriter.formatNumber(x, roundingTo: step)
    }

    func testNumberFormattingWithoutRounding() {
        XCTAssertEqual(format(370), "370")
        XCTAssertEqual(format(370.0), "370")
        XCTAssertEqual(format(12.5), "12.5")
        XCTAssertEqual(format(0.01), "0.01")
        XCTAssertEqual(format(-3.25), "-3.25")
        XCTAssertEqual(format(0), "0")
        XCTAssertEqual(format(-0.0), "0")
        XCTAssertEqual(format(1e-5), "0.00001")
        XCTAssertEqual(format(1.2345e-7), "0.00000012345")
        XCTAssertEqual(format(1e16), "10000000000000000")
        XCTAssertEqual(format(1.5e21), "1500000000000000000000")
        XCTAssertEqual(format(0.1 + 0.2), "0.30000000000000004")
        XCTAssertEqual(format(123456.789), "123456.789")
        XCTAssertEqual(format(-1e-300).count, 303)  // "-0." + 299 zeros + "1"
        XCTAssertEqual(format(.nan), "null")
        XCTAssertEqual(format(.infinity), "null")
    }

    func testNumberFormattingRoundTripsExactly() throws {
        for x in [
            0.1, 1.0 / 3.0, -2.0 / 3.0, 1e-7, 123456789.123, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            9007199254740992, 2.5e-8,
        ] {
            let text = format(x)
            XCTAssertFalse(text.contains("e") || text.contains("E"), text)
            XCTAssertEqual(try JSONParser.parse(text).value, .number(x), text)
        }
    }

    func testRoundingToHundredths() {
        XCTAssertEqual(format(0.005, 0.01), "0.01")
        XCTAssertEqual(format(0.015, 0.01), "0.02")
        XCTAssertEqual(format(0.025, 0.01), "0.03")
        XCTAssertEqual(format(1.005, 0.01), "1.01")
        XCTAssertEqual(format(2.675, 0.01), "2.68")
        XCTAssertEqual(format(-0.005, 0.01), "-0.01")
        XCTAssertEqual(format(0.0049, 0.01), "0")
        XCTAssertEqual(format(0.0049999, 0.01), "0")
        XCTAssertEqual(format(-0.001, 0.01), "0")
        XCTAssertEqual(format(-0.0001, 0.01), "0")
        XCTAssertEqual(format(12.345, 0.01), "12.35")
        XCTAssertEqual(format(12.344, 0.01), "12.34")
        XCTAssertEqual(format(99.995, 0.01), "100")
        XCTAssertEqual(format(-99.995, 0.01), "-100")
        XCTAssertEqual(format(12.5, 0.01), "12.5")
        XCTAssertEqual(format(370, 0.01), "370")
        XCTAssertEqual(format(0.1 + 0.2, 0.01), "0.3")
        XCTAssertEqual(format(1.0 / 3.0, 0.01), "0.33")
        XCTAssertEqual(format(1e-20, 0.01), "0")
        XCTAssertEqual(format(1e20 + 0.5, 0.01), "100000000000000000000")
    }

    func testRoundingToOtherSteps() {
        XCTAssertEqual(format(0.3, 0.1), "0.3")
        XCTAssertEqual(format(0.05, 0.1), "0.1")
        XCTAssertEqual(format(2.5, 1), "3")
        XCTAssertEqual(format(-2.5, 1), "-3")
        XCTAssertEqual(format(1234, 10), "1230")
        XCTAssertEqual(format(1235, 10), "1240")
        XCTAssertEqual(format(0.3, 0.25), "0.25")
        XCTAssertEqual(format(0.4, 0.25), "0.5")
        XCTAssertEqual(format(1.125, 0.25), "1.25")
        XCTAssertEqual(format(7, 5), "5")
        // 0.7 / 0.2 is 3.4999999999999996 in binary; a near-tie is a tie.
        XCTAssertEqual(format(0.7, 0.2), "0.8")
        XCTAssertEqual(format(0.69, 0.2), "0.6")
        XCTAssertEqual(format(-0.1, 0.25), "0")
        // Invalid steps are ignored.
        XCTAssertEqual(format(1.234, 0), "1.234")
        XCTAssertEqual(format(1.234, -1), "1.234")
        XCTAssertEqual(format(1.234, .nan), "1.234")
    }

    func testIntsAreExactAndNotRounded() {
        let writer = JSONWriter(style: .compact, roundingTo: 10)
        XCTAssertEqual(writer.string([.int(1234), .int(Int.min), .number(1234)]), "[1234,-9223372036854775808,1230]")
    }

    func testStringEscaping() {
        let writer = JSONWriter(style: .compact)
        XCTAssertEqual(
            writer.string("a\"b\\c/d\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F} é 😀 \u{2028}"),
            "\"a\\\"b\\\\c/d\\n\\r\\t\\b\\f\\u0001\\u001f\u{7F} é 😀 \u{2028}\"")
        XCTAssertEqual(writer.string(["k\"ey": "v"]), "{\"k\\\"ey\":\"v\"}")
    }

    func testCompactStyle() {
        let value: JSONOutput = [
            "kind": "rect", "rect": [10, 12.5, 370, 100], "on": true, "none": nil,
            "steps": [["at": 0], [:]], "empty": [],
        ]
        XCTAssertEqual(
            JSONWriter(style: .compact).string(value),
            #"{"kind":"rect","rect":[10,12.5,370,100],"on":true,"none":null,"steps":[{"at":0},{}],"empty":[]}"#)
        XCTAssertEqual(JSONWriter(style: .compact).bytes(value), Array(JSONWriter(style: .compact).string(value).utf8))
    }

    func testPrettyStyle() {
        let value: JSONOutput = [
            "kind": "rect",
            "rect": [10, 12.345, 370, 100],
            "labels": ["a", "b", true, nil],
            "steps": [["at": 0, "expand": [1, 2]], [:], [[1], 2]],
            "empty": [],
            "nested": ["deep": ["x": -0.001]],
        ]
        let expected = """
            {
              "kind": "rect",
              "rect": [10, 12.35, 370, 100],
              "labels": ["a", "b", true, null],
              "steps": [
                {
                  "at": 0,
                  "expand": [1, 2]
                },
                {},
                [
                  [1],
                  2
                ]
              ],
              "empty": [],
              "nested": {
                "deep": {
                  "x": 0
                }
              }
            }
            """
        let writer = JSONWriter(style: .pretty, roundingTo: 0.01)
        XCTAssertEqual(writer.string(value), expected)
        XCTAssertEqual(writer.format(0.005), "0.01")
        XCTAssertEqual(JSONWriter().string([1, 2] as JSONOutput), "[1, 2]")
        XCTAssertEqual(JSONWriter().string(.object([])), "{}")
        XCTAssertEqual(JSONWriter().string(42), "42")
    }

    func testWritingParsedValuesPreservesOrder() throws {
        let node = try JSONParser.parse("{\"z\": 1, \"a\": [1.50, 2e2], \"m\": {\"b\": \"é\"}}")
        XCTAssertEqual(JSONWriter(style: .compact).string(JSONOutput(node)), #"{"z":1,"a":[1.5,200],"m":{"b":"é"}}"#)
    }

    func testOutputEquality() {
        XCTAssertEqual(["a": 1, "b": 2] as JSONOutput, .object([("a", .int(1)), ("b", .int(2))]))
        XCTAssertNotEqual(["a": 1, "b": 2] as JSONOutput, ["b": 2, "a": 1] as JSONOutput)
        XCTAssertNotEqual(JSONOutput.int(1), .number(1))
    }
}
