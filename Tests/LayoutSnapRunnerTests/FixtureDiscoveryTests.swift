import Foundation
import XCTest

@testable import LayoutSnapRunner

final class FixtureDiscoveryTests: XCTestCase {
    /// The quick look for `"variants"` before a file is parsed for them: anywhere in the file,
    /// and never a partial word at its end.
    func testContainsFindsTheWordAnywhere() {
        let word = "\"variants\""
        for (text, expected) in [
            ("\"variants\": []", true), ("{\"kind\": \"post\", \"variants\": {}}", true), ("x\"variants\"", true),
            ("", false), ("\"variants", false), ("variants\"", false), ("\"\"\"varia\"variants\"", true),
            ("{\"kind\": \"post\"}", false), ("\"variant\"s\"", false),
        ] {
            XCTAssertEqual(FixtureDiscovery.contains(Data(text.utf8), word), expected, text)
        }
    }
}
