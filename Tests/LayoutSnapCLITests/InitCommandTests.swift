import Foundation
import LayoutSnapTestSupport
import XCTest

/// `layoutsnap init` end to end (docs/commands.md "init"): a project made from nothing that
/// records and verifies with exit 0, and an init that overwrites nothing.
final class InitCommandTests: XCTestCase {
    /// init in an empty folder, then record (tests run with CI set) and verify: exit 0, and no
    /// lint finding, neither in verify nor in lint: the starters' only findings are the built-in
    /// design's (its accent, secondary and author colours, the post's author below the growing
    /// card), which it accepts itself. With four variants (dark, and a larger text size) the
    /// same holds.
    func testInitMakesAProjectThatRecordsAndVerifies() throws {
        let dir = try TempDir()
        let initRun = try CLI.run(["init", "app"], in: dir.url)
        XCTAssertEqual(initRun.status, 0, initRun.output)
        for file in [
            "layoutsnap.json", "schema/fixture.schema.json", "schema/config.schema.json",
            "Fixtures/first-transcript.json",
            "Fixtures/first-composer.json", "Fixtures/first-chat.json", "Fixtures/first-post.json", ".gitignore",
            ".vscode/settings.json",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("app/" + file).path), file)
        }
        XCTAssertTrue(initRun.stdout.contains("  cd app\n  layoutsnap record"), initRun.stdout)
        XCTAssertTrue(initRun.stdout.contains("layoutsnap verify"), initRun.stdout)
        XCTAssertTrue(initRun.stdout.contains(".layoutsnap/report/index.html"), initRun.stdout)
        let app = dir.path("app")
        XCTAssertEqual(
            try CLI.run(["schema", "fixture"], in: app).stdout,
            try String(contentsOf: dir.path("app/schema/fixture.schema.json"), encoding: .utf8))

        let record = try CLI.run(["record", "--allow-ci", "--no-progress"], in: app)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertTrue(record.stdout.contains("181 recorded, 0 unchanged"), record.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("app/Goldens/first-chat/initial/000.png").path))
        let verify = try CLI.run(["verify", "--no-progress"], in: app)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertTrue(withoutCacheCount(verify.stdout).hasSuffix("181 passed, 0 failed\n"), verify.stdout)
        XCTAssertFalse(verify.stdout.contains("LINT"), verify.stdout)
        XCTAssertFalse(verify.stderr.contains("error"), verify.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("app/.layoutsnap/report/index.html").path))

        let lint = try CLI.run(["lint", "--no-progress", "--verbose"], in: app)
        XCTAssertEqual(lint.status, 0, lint.output)
        XCTAssertEqual(
            lint.stdout, "lint: 4 fixtures, 181 frames: 0 findings (47 accepted by the built-in design) in 0 fixtures\n"
        )

        // Dark and a larger text size (four variants of each starter, 20 fixtures): still only the design's.
        for name in ["first-chat", "first-composer", "first-post", "first-transcript"] {
            let file = dir.path("app/Fixtures/\(name).json")
            var text = try String(contentsOf: file, encoding: .utf8)
            let end = try XCTUnwrap(text.range(of: "}", options: .backwards))
            text.replaceSubrange(
                end, with: #", "variants": {"appearance": ["light", "dark"], "textSize": ["large", "xLarge"]}}"#)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let variants = try CLI.run(["lint", "--no-progress"], in: app)
        XCTAssertEqual(variants.status, 0, variants.output)
        XCTAssertTrue(variants.stdout.hasPrefix("lint: 20 fixtures, "), variants.stdout)
        XCTAssertTrue(variants.stdout.contains(": 0 findings ("), variants.stdout)
    }

    /// A second init changes nothing; a starter file with other contents stops init before it
    /// writes anything, naming the file (exit 2); .gitignore and settings are added to.
    func testInitOverwritesNothing() throws {
        let dir = try TempDir()
        XCTAssertEqual(try CLI.run(["init"], in: dir.url).status, 0)
        let before = try fileSnapshot(dir.url)
        let again = try CLI.run(["init"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.stdout.contains("nothing to do"), again.stdout)
        XCTAssertEqual(try fileSnapshot(dir.url), before)

        let other = try TempDir()
        try other.write("Fixtures/first-post.json", #"{"kind": "post", "title": "Mine"}"#)
        try other.write(".gitignore", "node_modules")
        try other.write(".vscode/settings.json", #"{"editor.tabSize": 2}"#)
        let refused = try CLI.run(["init"], in: other.url)
        XCTAssertEqual(refused.status, 2, refused.output)
        XCTAssertTrue(refused.stderr.contains("Fixtures/first-post.json"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("wrote nothing"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.path("layoutsnap.json").path))
        XCTAssertEqual(try String(contentsOf: other.path(".gitignore"), encoding: .utf8), "node_modules")

        try FileManager.default.removeItem(at: other.path("Fixtures/first-post.json"))
        let merged = try CLI.run(["init"], in: other.url)
        XCTAssertEqual(merged.status, 0, merged.output)
        XCTAssertEqual(
            try String(contentsOf: other.path(".gitignore"), encoding: .utf8), "node_modules\n.layoutsnap/\n")
        let settings = try String(contentsOf: other.path(".vscode/settings.json"), encoding: .utf8)
        XCTAssertTrue(settings.contains(#""editor.tabSize": 2"#) && settings.contains("fixture.schema.json"), settings)

        // Settings with comments are left alone, with the setting to add by hand.
        let commented = try TempDir()
        try commented.write(".vscode/settings.json", "// mine\n{}\n")
        let warned = try CLI.run(["init"], in: commented.url)
        XCTAssertEqual(warned.status, 0, warned.output)
        XCTAssertTrue(warned.stderr.contains("warning: .vscode/settings.json is left as it is"), warned.stderr)
        XCTAssertTrue(warned.stderr.contains(#""json.schemas""#), warned.stderr)
        XCTAssertEqual(
            try String(contentsOf: commented.path(".vscode/settings.json"), encoding: .utf8), "// mine\n{}\n")
    }
}
