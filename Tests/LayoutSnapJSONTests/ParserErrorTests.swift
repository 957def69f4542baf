import XCTest
@testable import LayoutSnapJSON

final class ParserErrorTests: XCTestCase {
    func testBrokenJSONOnLine3ReportsLine3() {
        let text = """
            {
              "a": 1,
              "b": 2 "c": 3
            }
            """
        assertSyntaxError(text, "expected ',' or '}' after object member", line: 3, column: 10)
        assertSyntaxError("[1 2]", "expected ',' or ']' after array element", line: 1, column: 4)
        assertSyntaxError("{\"a\" 1}", "expected ':' after object key", line: 1, column: 6)
    }

    func testErrorDescriptionIncludesPosition() {
        do {
            _ = try JSONParser.parse("[1,\n  2,\n]")
            XCTFail()
        } catch {
            XCTAssertEqual(error.description, "trailing comma is not allowed (line 2, column 4)")
            XCTAssertEqual(error.position.offset, 7)
        }
    }

    func testTrailingComma() {
        assertSyntaxError("[1, 2,]", "trailing comma is not allowed", line: 1, column: 6)
        assertSyntaxError("{\"a\": 1,\n}", "trailing comma is not allowed", line: 1, column: 8)
        assertSyntaxError("{\"a\": [1,\n\n  ]}", "trailing comma is not allowed", line: 1, column: 9)
        // CRLF line endings count as one line break.
        assertSyntaxError("[\r\n1,\r\n]", "trailing comma is not allowed", line: 2, column: 2)
        assertSyntaxError("[\r1,\r]", "trailing comma is not allowed", line: 2, column: 2)
    }

    func testMissingValuesAndKeys() {
        assertSyntaxError("[,1]", "unexpected character ','; expected a value", line: 1, column: 2)
        assertSyntaxError("{\"a\": }", "unexpected character '}'; expected a value", line: 1, column: 7)
        assertSyntaxError("{,}", "expected a string key or '}', found ','", line: 1, column: 2)
        assertSyntaxError("{\"a\": 1, [}", "expected a string key after ',', found '['", line: 1, column: 10)
        assertSyntaxError(
            "{\"a\": 1, 2: 3}", "expected a string key after ','; object keys must be in double quotes", line: 1,
            column: 10)
        assertSyntaxError(
            "{kind: 1}", "expected a string key or '}'; object keys must be in double quotes", line: 1, column: 2)
        assertSyntaxError(
            "{'kind': 1}", "expected a string key or '}'; strings must use double quotes", line: 1, column: 2)
    }

    func testDuplicateKeyReportedAtSecondKey() {
        assertSyntaxError("{\"kind\": 1,\n \"other\": 2,\n  \"kind\": 3}", "duplicate key \"kind\"", line: 3, column: 3)
        // Same key in different objects is fine.
        XCTAssertNoThrow(try JSONParser.parse("[{\"kind\": 1}, {\"kind\": 2}]"))
        // Large objects switch to a hash set; still detected.
        var big = "{"
        for n in 0..<40 { big += "\"k\(n)\": \(n), " }
        big += "\"k7\": 0}"
        assertSyntaxError(big, "duplicate key \"k7\"", line: 1, column: big.count - 7)
        // Keys are reported as JSON strings.
        assertSyntaxError("{\"a\\\"b\": 1, \"a\\u0022b\": 2}", "duplicate key \"a\\\"b\"", line: 1, column: 13)
    }

    func testUnterminatedString() {
        assertSyntaxError("{\"a\": \"abc", "unterminated string", line: 1, column: 7)
        assertSyntaxError("[\n  \"abc\\", "unterminated string", line: 2, column: 3)
        assertSyntaxError("[\"\\u12", "unterminated string", line: 1, column: 2)
        assertSyntaxError("[\"abc\n\"]", "unescaped line break in string (missing closing '\"'?)", line: 1, column: 6)
        assertSyntaxError("[\"a\tb\"]", "unescaped control character U+0009 in string", line: 1, column: 4)
        assertSyntaxError("[\"a\u{1}b\"]", "unescaped control character U+0001 in string", line: 1, column: 4)
    }

    func testInvalidEscapes() {
        assertSyntaxError(#"["a\q"]"#, "invalid escape \\q", line: 1, column: 4)
        assertSyntaxError(#"["\x41"]"#, "invalid escape \\x", line: 1, column: 3)
        assertSyntaxError(#"["\u12G4"]"#, "invalid \\u escape; expected 4 hex digits", line: 1, column: 3)
        assertSyntaxError(
            "[\"\\\u{1}\"]", "invalid escape: '\\' must be followed by one of \" \\ / b f n r t u", line: 1, column: 3)
    }

    func testLoneSurrogates() {
        assertSyntaxError(#"["\uD800"]"#, "lone surrogate \\uD800 in string", line: 1, column: 3)
        assertSyntaxError(#"["ab\ud800x"]"#, "lone surrogate \\uD800 in string", line: 1, column: 5)
        assertSyntaxError(#"["\uD800\u0041"]"#, "lone surrogate \\uD800 in string", line: 1, column: 3)
        assertSyntaxError(#"["\uDBFF\uDBFF"]"#, "lone surrogate \\uDBFF in string", line: 1, column: 3)
        assertSyntaxError(#"["\uDC00"]"#, "lone surrogate \\uDC00 in string", line: 1, column: 3)
        assertSyntaxError(#"["\uD800\uZZZZ"]"#, "invalid \\u escape; expected 4 hex digits", line: 1, column: 9)
    }

    func testInvalidUTF8InStrings() {
        func bytes(_ prefix: String, _ raw: [UInt8], _ suffix: String = "\"]") -> [UInt8] {
            Array(prefix.utf8) + raw + Array(suffix.utf8)
        }
        assertSyntaxError(bytes("[\"a", [0xFF]), "invalid UTF-8 byte 0xFF", line: 1, column: 4)
        assertSyntaxError(bytes("[\"é", [0xFE]), "invalid UTF-8 byte 0xFE", line: 1, column: 4)
        assertSyntaxError(bytes("[\"", [0x80]), "invalid UTF-8 byte 0x80", line: 1, column: 3)
        assertSyntaxError(bytes("[\"", [0xF5, 0x80, 0x80, 0x80]), "invalid UTF-8 byte 0xF5", line: 1, column: 3)
        // Overlong encodings of '/' and NUL.
        assertSyntaxError(bytes("[\"", [0xC0, 0xAF]), "overlong UTF-8 encoding", line: 1, column: 3)
        assertSyntaxError(bytes("[\"", [0xC1, 0x80]), "overlong UTF-8 encoding", line: 1, column: 3)
        assertSyntaxError(bytes("[\"", [0xE0, 0x80, 0xAF]), "overlong UTF-8 encoding", line: 1, column: 3)
        assertSyntaxError(bytes("[\"", [0xF0, 0x80, 0x80, 0xAF]), "overlong UTF-8 encoding", line: 1, column: 3)
        // Surrogates encoded directly in UTF-8 (CESU-8 style).
        assertSyntaxError(
            bytes("[\"", [0xED, 0xA0, 0x80]), "UTF-8-encoded surrogate U+D800 in string", line: 1, column: 3)
        assertSyntaxError(
            bytes("[\"", [0xED, 0xBF, 0xBF]), "UTF-8-encoded surrogate U+DFFF in string", line: 1, column: 3)
        assertSyntaxError(
            bytes("[\"", [0xF4, 0x90, 0x80, 0x80]), "UTF-8 sequence encodes a value beyond U+10FFFF", line: 1, column: 3
        )
        // Truncated sequences: cut by the closing quote, or by end of input.
        assertSyntaxError(bytes("[\"ab", [0xE2, 0x82]), "truncated UTF-8 sequence", line: 1, column: 5)
        assertSyntaxError(bytes("[\"", [0xC3]), "truncated UTF-8 sequence", line: 1, column: 3)
        assertSyntaxError(bytes("[\"", [0xF0, 0x9F, 0x98], ""), "truncated UTF-8 sequence", line: 1, column: 3)
        // The largest valid values at each length are accepted.
        XCTAssertNoThrow(
            try JSONParser.parse(
                bytes("[\"", [0xDF, 0xBF, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF])))
    }

    func testNonJSONBytesOutsideStrings() {
        assertSyntaxError([0x5B, 0xFF, 0x5D], "unexpected character 0xFF (invalid UTF-8)", line: 1, column: 2)
        assertSyntaxError("[\u{1}]", "unexpected character U+0001", line: 1, column: 2)
        assertSyntaxError("[@]", "unexpected character '@'", line: 1, column: 2)
        assertSyntaxError(
            "{\"a\": “x”}", "unexpected character '“' (U+201C); strings must use straight double quotes", line: 1,
            column: 7)
        assertSyntaxError(
            "[1, // note\n 2]", "unexpected character '/'; comments are not allowed in JSON", line: 1, column: 5)
        assertSyntaxError("/* c */ 1", "unexpected character '/'; comments are not allowed in JSON", line: 1, column: 1)
        assertSyntaxError("['a']", "unexpected character \"'\"; strings must use double quotes", line: 1, column: 2)
        // Non-breaking space is not JSON whitespace.
        assertSyntaxError("[1,\u{A0}2]", "unexpected character '\u{A0}' (U+00A0)", line: 1, column: 4)
    }

    func testLiterals() {
        assertSyntaxError("[tru]", "invalid literal 'tru'; strings must be in double quotes", line: 1, column: 2)
        assertSyntaxError("[nulll]", "invalid literal 'nulll'; strings must be in double quotes", line: 1, column: 2)
        assertSyntaxError("{\"a\": True}", "invalid literal 'True'; JSON literals are lowercase", line: 1, column: 7)
        assertSyntaxError("[NaN]", "NaN is not allowed in JSON", line: 1, column: 2)
        assertSyntaxError("[1, Infinity]", "Infinity is not allowed in JSON", line: 1, column: 5)
        assertSyntaxError("[-Infinity]", "-Infinity is not allowed in JSON", line: 1, column: 2)
        assertSyntaxError("truex", "invalid literal 'truex'; strings must be in double quotes", line: 1, column: 1)
    }

    func testNumberSyntax() {
        assertSyntaxError("[01]", "leading zeros are not allowed in numbers", line: 1, column: 2)
        assertSyntaxError("[-007]", "leading zeros are not allowed in numbers", line: 1, column: 2)
        assertSyntaxError("[1.]", "expected a digit after '.'", line: 1, column: 4)
        assertSyntaxError("[1.e5]", "expected a digit after '.'", line: 1, column: 4)
        assertSyntaxError("[.5]", "unexpected character '.'; numbers must start with a digit", line: 1, column: 2)
        assertSyntaxError("[+1]", "unexpected character '+'; numbers must not start with '+'", line: 1, column: 2)
        assertSyntaxError("[-]", "expected a digit after '-'", line: 1, column: 3)
        assertSyntaxError("[-a]", "expected a digit after '-'", line: 1, column: 3)
        assertSyntaxError("[1e]", "expected a digit in exponent", line: 1, column: 4)
        assertSyntaxError("[1e+]", "expected a digit in exponent", line: 1, column: 5)
        assertSyntaxError("[0x10]", "expected ',' or ']' after array element", line: 1, column: 3)
        assertSyntaxError("[1.5.2]", "expected ',' or ']' after array element", line: 1, column: 5)
    }

    func testNumberOutOfRange() {
        assertSyntaxError("[1e309]", "number out of range", line: 1, column: 2)
        assertSyntaxError("{\n  \"x\": -1e309\n}", "number out of range", line: 2, column: 8)
        assertSyntaxError("1" + String(repeating: "0", count: 400), "number out of range", line: 1, column: 1)
        assertSyntaxError("[1e99999999999999999999]", "number out of range", line: 1, column: 2)
    }

    func testUnexpectedEndOfInput() {
        assertSyntaxError("", "unexpected end of input", line: 1, column: 1)
        assertSyntaxError("  \n ", "unexpected end of input", line: 2, column: 2)
        assertSyntaxError("{\"a\": ", "unexpected end of input", line: 1, column: 7)
        assertSyntaxError("[1,", "unexpected end of input", line: 1, column: 4)
        assertSyntaxError("[1", "unexpected end of input", line: 1, column: 3)
        assertSyntaxError("{\"a\"", "unexpected end of input", line: 1, column: 5)
        assertSyntaxError("{", "unexpected end of input", line: 1, column: 2)
        assertSyntaxError("[\n", "unexpected end of input", line: 2, column: 1)
        assertSyntaxError("-", "unexpected end of input", line: 1, column: 2)
        assertSyntaxError("[1.", "unexpected end of input", line: 1, column: 4)
        assertSyntaxError("[1e", "unexpected end of input", line: 1, column: 4)
    }

    func testOnlyOneTopLevelValue() {
        assertSyntaxError("{} x", "unexpected character 'x' after the top-level value", line: 1, column: 4)
        assertSyntaxError("1 2", "unexpected character '2' after the top-level value", line: 1, column: 3)
        assertSyntaxError("{\"a\": 1}}\n", "unexpected character '}' after the top-level value", line: 1, column: 9)
        XCTAssertNoThrow(try JSONParser.parse(" \t\r\n{} \n\r\n\t "))
    }

    func testNestingDepthLimit() {
        assertSyntaxError(
            Array(String(repeating: "[", count: 201).utf8) + [0x5D], "nesting deeper than 200 levels", line: 1,
            column: 201)
        assertSyntaxError(
            Array((String(repeating: "[", count: 200) + "{}" + String(repeating: "]", count: 200)).utf8),
            "nesting deeper than 200 levels", line: 1, column: 201)
        assertSyntaxError(
            Array(String(repeating: "[", count: 11).utf8), "nesting deeper than 10 levels", line: 1, column: 11,
            maxDepth: 10)
        assertSyntaxError(Array("[1]".utf8), "nesting deeper than 0 levels", line: 1, column: 1, maxDepth: 0)
        XCTAssertNoThrow(try JSONParser.parse("1", maxDepth: 0))
    }

    func testHundredThousandOpenBracketsFailsFast() {
        let brackets = [UInt8](repeating: 0x5B, count: 100_000)
        assertSyntaxError(brackets, "nesting deeper than 200 levels", line: 1, column: 201)
        let objects = Array(String(repeating: "{\"a\":", count: 100_000).utf8)
        assertSyntaxError(objects, "nesting deeper than 200 levels", line: 1, column: 5 * 200 + 1)
        let mixed = Array(String(repeating: "[{\"k\": ", count: 50_000).utf8)
        assertSyntaxError(mixed, "nesting deeper than 200 levels", line: 1, column: 7 * 100 + 1)
    }
}
