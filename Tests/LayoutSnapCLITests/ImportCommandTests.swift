import Foundation
import LayoutSnapTestSupport
import XCTest

/// `layoutsnap import` end to end (docs/commands.md "import"): fixtures made from captions, chat
/// exports and Markdown that record and verify with exit 0, bad inputs reported with their file
/// and line while the batch goes on, and nothing overwritten without --force.
final class ImportCommandTests: XCTestCase {
    /// A VTT, an SRT, a chat export and a Markdown file become fixtures that record and verify;
    /// the summary says what was not carried over; importing again changes nothing.
    func testImportedFixturesRecordAndVerify() throws {
        let dir = try TempDir()
        try Self.writeInputs(dir)
        let run = try CLI.run(["import", "in", "--out", "Fixtures/imported", "--stream-last"], in: dir.url)
        XCTAssertEqual(run.status, 0, run.output)
        for line in [
            "in/captions/talk.vtt → Fixtures/imported/captions/talk.json: 3 cues from 0:01 to 0:03.9",
            "in/captions/Scene 1.SRT → Fixtures/imported/captions/scene-1.json: 2 cues from 0:00.5 to 0:02.1",
            "in/chat.json → Fixtures/imported/chat-1.json: 4 messages",
            "→ Fixtures/imported/chat-2.json: 2 messages",
            "in/notes.md → Fixtures/imported/notes.json: a card with 3 body lines",
            "  not carried over: 1 system message skipped",
            "imported 4 files into 5 fixtures in Fixtures/imported; 1 file of other types skipped",
            "Next: layoutsnap record Fixtures/imported",
        ] {
            XCTAssertTrue(run.stdout.contains(line), "\(line)\n\(run.stdout)")
        }
        XCTAssertTrue(run.stdout.contains("1 cue's settings (position, line, align, size) dropped"), run.stdout)
        XCTAssertTrue(run.stdout.contains("1 image dropped"), run.stdout)
        let chat = try String(contentsOf: dir.path("Fixtures/imported/chat-1.json"), encoding: .utf8)
        XCTAssertTrue(chat.contains(#"{"id": "m1", "role": "user""#), chat)
        XCTAssertTrue(chat.contains(#"{"receive": {"id": "m4""#), chat)

        let record = try CLI.run(["record", "--allow-ci", "--no-progress", "Fixtures/imported"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        let verify = try CLI.run(["verify", "--no-progress", "Fixtures/imported"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertTrue(withoutCacheCount(verify.stdout).contains(" passed, 0 failed"), verify.stdout)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: dir.path("Goldens/imported/captions/talk/03-append/000.png").path))

        // The same inputs write the same bytes: again in place (unchanged), and into another folder.
        let again = try CLI.run(["import", "in", "--out", "Fixtures/imported", "--stream-last"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.stdout.contains("(5 unchanged)"), again.stdout)
        XCTAssertFalse(again.stdout.contains("Next:"), again.stdout)
        XCTAssertEqual(try CLI.run(["import", "in", "--out", "copy", "--stream-last"], in: dir.url).status, 0)
        XCTAssertEqual(try fileSnapshot(dir.path("copy")), try fileSnapshot(dir.path("Fixtures/imported")))
    }

    /// A malformed input is reported with its file and line, the batch goes on (exit 2); an
    /// edited fixture is not overwritten without --force.
    func testBadInputsAndOverwrites() throws {
        let dir = try TempDir()
        try dir.write("in/a-good.srt", "1\n00:00:01,000 --> 00:00:02,000\nGood\n")
        try dir.write(
            "in/b-bad.srt", "1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:3,000 --> 00:00:04,000\nbad\n")
        try dir.write("in/c-latin1.srt", "")
        try Data([0x31, 0x0A] + Array("00:00:01,000 --> 00:00:02,000\ncaf".utf8) + [0xE9, 0x0A]).write(
            to: dir.path("in/c-latin1.srt"))
        try dir.write("in/d-empty.vtt", "")
        try dir.write("in/e-chat.json", #"{"messages": [{"role": "user", "content": 3}]}"#)
        try dir.write("in/f-good.md", "# Fine\n\nA card.\n")
        let run = try CLI.run(["import", "in", "--out", "out"], in: dir.url)
        XCTAssertEqual(run.status, 2, run.output)
        for error in [
            #"error: in/b-bad.srt:6: malformed timestamp "00:00:3,000""#,
            "error: in/c-latin1.srt:3:4: byte 0xE9 is not UTF-8",
            "error: in/d-empty.vtt: the file is empty",
            "error: in/e-chat.json:1:43: $.messages[0].content: expected the content as a string or a list of parts",
        ] {
            XCTAssertTrue(run.stderr.contains(error), "\(error)\n\(run.stderr)")
        }
        XCTAssertTrue(
            run.stdout.contains("imported 2 files into 2 fixtures in out; 4 files could not be imported"), run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("out/a-good.json").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("out/f-good.json").path))

        // An edited fixture: refused, nothing written, until --force.
        try dir.write("out/a-good.json", #"{"kind": "transcript", "text": "edited"}"#)
        try dir.write("in/g-new.md", "# New\n")
        let refused = try CLI.run(["import", "in/a-good.srt", "in/g-new.md", "--out", "out"], in: dir.url)
        XCTAssertEqual(refused.status, 2, refused.output)
        XCTAssertTrue(
            refused.stderr.contains("1 fixture is already there with other contents: out/a-good.json"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--force"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out/g-new.json").path))
        let forced = try CLI.run(["import", "in/a-good.srt", "in/g-new.md", "--out", "out", "--force"], in: dir.url)
        XCTAssertEqual(forced.status, 0, forced.output)
        XCTAssertTrue(try String(contentsOf: dir.path("out/a-good.json"), encoding: .utf8).contains("Good"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("out/g-new.json").path))

        let unknown = try CLI.run(["import", "in/nothing.vtt", "README.txt", "--out", "out"], in: dir.url)
        XCTAssertEqual(unknown.status, 2, unknown.output)
        XCTAssertTrue(unknown.stderr.contains("error: in/nothing.vtt: no such file or folder"), unknown.stderr)
        XCTAssertEqual(try CLI.run(["import", "--out", "out"], in: dir.url).status, 2)
    }

    static func writeInputs(_ dir: TempDir) throws {
        try dir.write(
            "in/captions/talk.vtt",
            """
            WEBVTT

            00:00:01.000 --> 00:00:03.000 align:start
            <v Ann>The first line

            00:00:03.500 --> 00:00:05.000
            <v Ann>The second, then a <i>third</i>,

            00:00:03.900 --> 00:00:06.000
            <v Bo>arriving while the view scrolls.
            """)
        try dir.write(
            "in/captions/Scene 1.SRT",
            "1\r\n00:00:00,500 --> 00:00:02,000\r\n<i>Hello</i> there,\r\nfriend.\r\n\r\n2\r\n00:00:02,100 --> 00:00:04,000\r\nGeneral Kenobi!\r\n"
        )
        try dir.write(
            "in/chat.json",
            """
            [
              {"messages": [
                {"role": "system", "content": "You are helpful."},
                {"role": "user", "content": "Plan a run?"},
                {"role": "assistant", "content": "Start with **five** easy minutes."},
                {"role": "user", "content": "And then?"},
                {"role": "assistant", "content": "Four blocks of four minutes at a steady pace, two easy between."}
              ]},
              [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]
            ]
            """)
        try dir.write("in/notes.md", "# Launch\n\nThe summary.\n\n![shot](x.png)\n\n## Done\n- one\n- two\n")
        try dir.write("in/readme.txt", "not an input")
    }

}

/// Every file below `folder` and its bytes.
func fileSnapshot(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
        var isFolder: ObjCBool = false
        let url = folder.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
            files[path] = try Data(contentsOf: url)
        }
    }
    return files
}
