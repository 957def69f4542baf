import Foundation
import LayoutSnapJSON
import LayoutSnapTestSupport
import XCTest

@testable import LayoutSnapCore

/// What `layoutsnap init` writes (docs/commands.md "init"), and the JSON Schema check of every
/// fixture init and import make.
final class StarterProjectTests: XCTestCase {
    /// Every kind has a starter fixture that decodes and a "your first fixture" page that shows
    /// it exactly as init writes it.
    func testEveryKindHasAStarterAndItsPage() throws {
        for kind in KindRegistry.kinds {
            let bytes = try XCTUnwrap(StarterProject.fixture(kind), "\(kind) has no starter fixture in StarterProject")
            let fixture = try FixtureDecoder.decode(
                bytes: bytes, id: "first-\(kind.rawValue)", file: "first.json", folder: .empty())
            XCTAssertEqual(fixture.kind, kind)
            let page = TestPaths.packageRoot.appendingPathComponent("docs/fixtures/first-\(kind.rawValue).md")
            let text = try String(contentsOf: page, encoding: .utf8)
            XCTAssertTrue(
                text.contains("```json\n" + String(decoding: bytes, as: UTF8.self) + "```"),
                "docs/fixtures/first-\(kind.rawValue).md does not show the starter fixture as init writes it")
        }
        let paths = StarterProject.files.map(\.path)
        XCTAssertEqual(Set(paths).count, paths.count)
        XCTAssertTrue(paths.contains("layoutsnap.json") && paths.contains("schema/fixture.schema.json"))
        let config = try XCTUnwrap(StarterProject.files.first { $0.path == "layoutsnap.json" })
        XCTAssertNoThrow(try ProjectConfig.decode(bytes: config.bytes, file: "layoutsnap.json"))
    }

    /// Chat ids are explicit in the starter: the layout names `message:question`, never by position.
    func testTheStarterChatNamesItsMessages() throws {
        let bytes = try XCTUnwrap(StarterProject.fixture(.chat))
        let chat = try XCTUnwrap(
            FixtureDecoder.decode(bytes: bytes, id: "c", file: "c.json", folder: .empty()).content as? ChatFixture)
        XCTAssertEqual(chat.messages.map(\.id), ["question", "summary"])
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains(#"{"receive": {"id": "follow-up""#), text)
        XCTAssertFalse(text.contains(#""send""#), "a sent message would be named by its position")
    }

    func testGitignoreIsAddedToOnce() {
        func merge(_ s: String?) -> String? {
            StarterProject.gitignore(s.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
        }
        XCTAssertEqual(merge(nil), ".layoutsnap/\n")
        XCTAssertEqual(merge(""), ".layoutsnap/\n")
        XCTAssertEqual(merge("node_modules"), "node_modules\n.layoutsnap/\n")
        XCTAssertEqual(merge("a\r\n"), "a\r\n.layoutsnap/\n")
        for present in ["x\n.layoutsnap/\n", "/.layoutsnap\n", "  .layoutsnap  \n", ".layoutsnap"] {
            XCTAssertNil(merge(present), present)
        }
    }

    func testVSCodeSettingsAreMergedOrRefused() throws {
        func merge(_ s: String?) throws(StarterProject.SettingsRefusal) -> String? {
            try StarterProject.vscodeSettings(s.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
        }
        let fresh = try XCTUnwrap(merge(nil))
        XCTAssertEqual(try merge(fresh), nil, "already there: nothing to add")
        XCTAssertEqual(try merge("  \n"), fresh)
        let merged = try XCTUnwrap(
            merge(#"{"editor.tabSize": 2, "json.schemas": [{"fileMatch": ["x.json"], "url": "y"}]}"#))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(merged.utf8)) as? [String: Any])
        XCTAssertEqual(object["editor.tabSize"] as? Int, 2)
        let schemas = try XCTUnwrap(object["json.schemas"] as? [[String: Any]])
        XCTAssertEqual(
            schemas.map { $0["url"] as? String }, ["y", "./schema/fixture.schema.json", "./schema/config.schema.json"])
        XCTAssertEqual(try merge(merged), nil)
        for (bad, reason) in [
            (
                "// comment\n{}",
                "it is not plain JSON (line 1, column 1: unexpected character '/'; comments are not allowed in JSON)"
            ),
            ("[]", "it is not a JSON object"),
            (#"{"json.schemas": {}}"#, #"its "json.schemas" is not a list"#),
        ] {
            XCTAssertThrowsError(try merge(bad), bad) { error in
                XCTAssertEqual((error as? StarterProject.SettingsRefusal)?.reason, reason)
            }
        }
    }

    /// python jsonschema (Draft 2020-12) accepts every fixture init and import write, as the decoder does.
    func testEveryStarterAndImportedFixturePassesTheSchema() throws {
        var documents = KindRegistry.kinds.compactMap { StarterProject.fixture($0) }
        let inputs: [(String, ImportFormat, Importer.Options)] = [
            (
                "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Ann>Hello <b>there</b>\n\n00:01.000 --> 00:03.000\nagain\n",
                .webVTT, .init()
            ),
            ("1\n00:00:01,000 --> 00:00:02,000\n<i>one</i>\n", .srt, .init()),
            (
                #"[{"role": "user", "content": [{"type": "image_url"}]}, {"role": "assistant", "content": "A reply in several words"}]"#,
                .chat, .init(streamLast: true)
            ),
            (
                #"{"messages": [{"role": "user", "content": "x"}]}"# + "\n" + #"[{"role": "model", "parts": ["y"]}]"#,
                .chatLines, .init()
            ),
            ("# Title\n\nSummary.\n\n## Body\n- a\n- b\n", .markdown, .init()),
            ("No heading at all.", .markdown, .init()),
        ]
        for (text, format, options) in inputs {
            documents += try Importer.convert(Array(text.utf8), file: "x", format: format, options: options).outputs
                .map(\.bytes)
        }
        let verdicts = try SchemaTests.validate(
            documents: documents.map { String(decoding: $0, as: UTF8.self) }, schema: "fixture.schema.json")
        XCTAssertEqual(verdicts.count, documents.count)
        for (document, verdict) in zip(documents, verdicts) {
            XCTAssertEqual(verdict, "valid", String(decoding: document, as: UTF8.self))
        }
        let config = try XCTUnwrap(StarterProject.files.first { $0.path == "layoutsnap.json" })
        XCTAssertEqual(
            try SchemaTests.validate(
                documents: [String(decoding: config.bytes, as: UTF8.self)], schema: "config.schema.json"),
            ["valid"])
    }

    func testFixtureNamesAreValidIds() {
        let cases = [
            ("My Talk (2024).srt", "my-talk-2024"), ("Café Crème.md", "cafe-creme"),
            ("already-fine_1.2.vtt", "already-fine_1.2"),
            ("日本語.json", "imported"), ("..hidden..md", "hidden"), ("a/b.md", "a-b"),
        ]
        for (file, name) in cases { XCTAssertEqual(Importer.fixtureName(forFile: file), name, file) }
    }
}
