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

    /// What a fixtures folder's walk takes: every .json below real folders (a file that is a link
    /// too, and a folder named like one as well as what it holds), nothing in `images`, in a
    /// folder starting with a dot, or behind a link to a folder.
    func testTheWalkTakesJSONBelowRealFoldersOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layoutsnap-walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let fixtures = root.path + "/Fixtures"
        for folder in ["real/deeper", ".hidden", "images", "x.json", "other", ".dotted-link-target"] {
            try manager.createDirectory(atPath: fixtures + "/" + folder, withIntermediateDirectories: true)
        }
        for file in [
            "top.json", "real/a.json", "real/deeper/b.json", "real/notes.txt", ".hidden/h.json", "images/i.json",
            "x.json/inner.json", "other/o.json", ".file.json",
        ] {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: fixtures + "/" + file))
        }
        try manager.createDirectory(atPath: root.path + "/outside", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root.path + "/outside/c.json"))
        try manager.createSymbolicLink(atPath: fixtures + "/linked", withDestinationPath: root.path + "/outside")
        try manager.createSymbolicLink(atPath: fixtures + "/.linked", withDestinationPath: root.path + "/outside")
        try manager.createSymbolicLink(
            atPath: fixtures + "/real/link.json", withDestinationPath: fixtures + "/top.json")

        let found = FixtureDiscovery.jsonFiles(under: fixtures).map { String($0.dropFirst(fixtures.count + 1)) }
        XCTAssertEqual(
            found,
            [
                ".file.json", "other/o.json", "real/a.json", "real/deeper/b.json", "real/link.json", "top.json",
                "x.json",
                "x.json/inner.json",
            ])
    }
}
