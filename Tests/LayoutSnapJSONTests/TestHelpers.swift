import XCTest
@testable import LayoutSnapJSON

/// Parses `text` expecting a syntax error and checks message and position.
func assertSyntaxError(
    _ text: String,
    _ message: String,
    line: Int,
    column: Int,
    file: StaticString = #filePath,
    sourceLine: UInt = #line
) {
    assertSyntaxError(Array(text.utf8), message, line: line, column: column, file: file, sourceLine: sourceLine)
}

func assertSyntaxError(
    _ bytes: [UInt8],
    _ message: String,
    line: Int,
    column: Int,
    maxDepth: Int = JSONParser.defaultMaxDepth,
    file: StaticString = #filePath,
    sourceLine: UInt = #line
) {
    do {
        let node = try JSONParser.parse(bytes, maxDepth: maxDepth)
        XCTFail("expected error \"\(message)\", parsed \(node.value.typeName)", file: file, line: sourceLine)
    } catch {
        XCTAssertEqual(error.message, message, file: file, line: sourceLine)
        XCTAssertEqual(error.position.line, line, "line of \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.position.column, column, "column of \(error)", file: file, line: sourceLine)
    }
}

/// Parses text that must be valid.
func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONNode? {
    do {
        return try JSONParser.parse(text)
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return nil
    }
}

/// The value with positions stripped, for structural comparisons.
func shape(_ node: JSONNode) -> JSONOutput { JSONOutput(node) }

/// Runs `body` expecting a decoding error and returns its description.
/// (Untyped `throws`: Swift 6 closures don't infer a typed thrown error.)
func decodingErrorDescription(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as JSONDecodingError {
        return error.description
    } catch {
        return "unexpected error type: \(error)"
    }
}
