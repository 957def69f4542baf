import Foundation
import LayoutSnapCore
import LayoutSnapTestSupport
import XCTest

/// Counts are worded by one helper (docs/decisions.md, "Counts in words"): the singular for one,
/// and no hand-made `s` anywhere in the sources or the pages' scripts.
final class PluralTests: XCTestCase {
    func testOneIsSingularEverythingElsePlural() {
        XCTAssertEqual(Plural.count(1, "frame"), "1 frame")
        XCTAssertEqual(Plural.count(0, "frame"), "0 frames")
        XCTAssertEqual(Plural.count(2, "orphan"), "2 orphans")
        XCTAssertEqual(Plural.count(1, "crash", "crashes"), "1 crash")
        XCTAssertEqual(Plural.count(3, "crash", "crashes"), "3 crashes")
        XCTAssertEqual(Plural.word(1, "differs", "differ"), "differs")
        XCTAssertEqual(Plural.word(7, "its", "their"), "their")
    }

    /// `n == 1 ? "" : "s"` and its kin, in Swift and in the pages' JavaScript, outside the helper.
    func testNoCountIsPluralisedByHand() throws {
        let root = TestPaths.packageRoot
        let patterns = [#"== 1 ? "" : "s""#, #"=== 1 ? '' : 's'"#, #"== 1 ? "s" : """#, #"(n === 1 ? '' : 's')"#]
        var found: [String] = []
        let sources = root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
        for case let file as String in files where file.hasSuffix(".swift") || file.hasSuffix(".js") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where patterns.contains(where: { line.contains($0) }) {
                found.append("Sources/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(found, [], "counts go through Plural (Swift) or Words (the pages)")
    }
}
