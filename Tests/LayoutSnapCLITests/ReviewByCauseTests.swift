import Foundation
import LayoutSnapTestSupport
import XCTest

/// verify groups a run's failing frames by what explains them (docs/review.md): one fixture
/// change that fails every frame of every state is one cause, named in every output.
final class ReviewByCauseTests: XCTestCase {
    struct Results: Decodable {
        struct Cause: Decodable {
            var id: Int
            var summary: String
            var kind: String
            var frames: Int
            var states: Int
            var fixtures: Int
            var changes: [Change]
        }
        struct Change: Decodable {
            var element: String
            var property: String
            var delta: Double?
        }
        struct Fixture: Decodable {
            var id: String
            var states: [State]
        }
        struct State: Decodable {
            var name: String
            var frames: [Frame]
        }
        struct Frame: Decodable {
            var index: Int
            var status: String
            var cause: Int?
            var goldenHash: String?
            var attribution: Attribution?
        }
        struct Attribution: Decodable {
            var kind: String
            var elements: [Element]
        }
        struct Element: Decodable {
            var id: String
            var change: String
            var dy: Double
            var pixelsUnchanged: Bool?
        }
        var causes: [Cause]
        var fixtures: [Fixture]
    }

    /// The bundled keyboard chat (iPhone SE, 60 fps: a 37-frame keyboard show and hide) and a
    /// copy of it as a second fixture.
    func chat(inserting: Bool) throws -> String {
        let data = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Fixtures/chats/keyboard.json"))
        var fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        if inserting, var messages = fixture["messages"] as? [[String: Any]] {
            messages.insert(
                ["id": "inserted", "role": "assistant", "text": "A reply added in the middle of the conversation."],
                at: 3)
            fixture["messages"] = messages
        }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: fixture, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A message inserted in the middle of two chats: every frame of both fails, and one cause,
    /// `message:* appeared`, explains them all; the messages above the new one moved up with
    /// their pixels unchanged (at a fraction of a pixel: the chat is drawn at scale 1).
    func testAMessageInsertedInTheMiddleIsOneCause() throws {
        let dir = try TempDir()
        for name in ["a", "b"] { try dir.write("Fixtures/chats/\(name).json", try chat(inserting: false)) }
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        for name in ["a", "b"] { try dir.write("Fixtures/chats/\(name).json", try chat(inserting: true)) }
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1, "a cause never changes the verdict: \(verify.output)")
        let results = try JSONDecoder().decode(
            Results.self, from: Data(contentsOf: dir.path(".layoutsnap/report/results.json")))
        let failing = results.fixtures.flatMap { $0.states.flatMap(\.frames) }.filter { $0.status == "failed" }
        // Every state of both chats fails (the keyboard then covers the change in some frames).
        XCTAssertGreaterThan(failing.count, 2 * 3)
        XCTAssertEqual(results.causes.count, 1, "\(results.causes)")
        let cause = try XCTUnwrap(results.causes.first)
        XCTAssertEqual(cause.id, 1)
        XCTAssertEqual(cause.kind, "layout")
        XCTAssertEqual(cause.frames, failing.count)
        XCTAssertEqual(cause.states, 6)
        XCTAssertEqual(cause.fixtures, 2)
        XCTAssertEqual(cause.changes.first?.element, "message:*")
        XCTAssertEqual(cause.changes.first?.property, "appeared")
        XCTAssertTrue(
            failing.allSatisfy { $0.cause == 1 && $0.goldenHash?.count == 16 },
            "each failing frame names its cause and its golden's hash")
        // The first frame: the new message appeared; the two above it moved up by its height and
        // the spacing, looking the same (the first of them partly under the status bar now).
        let first = try XCTUnwrap(results.fixtures[0].states[0].frames[0].attribution)
        XCTAssertEqual(first.elements.first { $0.id == "message:inserted" }?.change, "appeared")
        let above = first.elements.filter { ["message:m2", "message:m3"].contains($0.id) }
        XCTAssertEqual(above.count, 2, "\(first.elements)")
        for element in above {
            XCTAssertEqual(element.change, "moved", element.id)
            XCTAssertLessThan(element.dy, 0, element.id)
            XCTAssertEqual(element.pixelsUnchanged, true, element.id)
        }
        // The terminal leads with the cause and lists each state once under it.
        let lines = verify.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.first, "1 cause explains \(failing.count) of \(failing.count) failing frames: \(cause.summary)",
            verify.stdout)
        XCTAssertTrue(cause.summary.hasPrefix("message:* appeared"), cause.summary)
        XCTAssertEqual(lines.filter { $0.hasPrefix("  FAIL chats/") }.count, 6, verify.stdout)
        XCTAssertFalse(
            verify.stdout.contains("MOTION"),
            "values that only start elsewhere are the cause, not motion: \(verify.stdout)")
        // --verbose: every state's own lines, as before causes.
        let verbose = try CLI.run(["verify", "--no-progress", "--verbose"], in: dir.url)
        XCTAssertEqual(verbose.status, 1)
        XCTAssertFalse(verbose.stdout.contains("CAUSE 1"), verbose.stdout)
        XCTAssertTrue(verbose.stdout.contains("\nFAIL chats/a 01-keyboard-show: frames 0-"), verbose.stdout)
        XCTAssertTrue(verbose.stdout.contains("  layout: "), verbose.stdout)
        // JUnit leads with the cause.
        let junit = try CLI.run(["verify", "--no-progress", "--junit", "junit.xml"], in: dir.url)
        XCTAssertEqual(junit.status, 1)
        let xml = try String(contentsOf: dir.path("junit.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains("<failure message=\"cause 1: message:* appeared"), xml)
    }

    /// A run that passes has no causes, and results.json says so.
    func testAPassingRunHasNoCauses() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertFalse(verify.stdout.contains("cause"), verify.stdout)
        let results = try JSONDecoder().decode(
            Results.self, from: Data(contentsOf: dir.path(".layoutsnap/report/results.json")))
        XCTAssertTrue(results.causes.isEmpty)
        let frames: [Results.Frame] = results.fixtures.flatMap { $0.states.flatMap(\.frames) }
        XCTAssertFalse(frames.isEmpty)
        for frame in frames {
            XCTAssertNil(frame.cause)
            XCTAssertNil(frame.goldenHash)
            XCTAssertNil(frame.attribution)
        }
    }
}
