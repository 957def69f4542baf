import Foundation
import LayoutSnapTestSupport
import XCTest

/// `accept` heals goldens that are missing or unreadable from the actual frames verify rendered,
/// like any other frame; where the report has no actual frame, it names the `record` command
/// that writes it. Its counts are worded in the singular and plural (docs/goldens.md).
final class AcceptHealsTests: XCTestCase {
    /// The first bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    func bytes(_ dir: TempDir, _ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: dir.path(relative)))
    }

    /// Runs accept in `dir`, which refuses a frame: exit 2, `reason` on stderr, `stdout` exactly.
    func acceptRefusing(in dir: TempDir, reason: String, stdout: String) throws {
        let accept = try CLI.run(["accept", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accept.status, 2, accept.output)
        XCTAssertTrue(accept.stderr.contains(reason), accept.stderr)
        XCTAssertEqual(accept.stdout, stdout, accept.output)
    }

    /// The run: one golden deleted, two corrupted, a fixture changed. verify is bad input
    /// (exit 2) and says accept heals them; accept writes all of them; verify passes.
    func testAcceptHealsMissingAndUnreadableGoldensWithTheChangedFrames() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        try dir.write("Fixtures/cards/b.json", smallPost(title: "Other card"))
        let recorded = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(recorded.status, 0, recorded.output)
        XCTAssertTrue(recorded.stdout.contains("recorded cards/a: 8 new, 0 changed frames"), recorded.stdout)

        try FileManager.default.removeItem(at: dir.path("Goldens/cards/a/01-expand/002.png"))
        try dir.write("Goldens/cards/a/01-expand/004.png", "garbage\n")
        let truncated = try bytes(dir, "Goldens/cards/b/initial/000.png").prefix(100)
        try Data(truncated).write(to: dir.path("Goldens/cards/b/initial/000.png"))
        try dir.write("Fixtures/cards/a.json", smallPost(title: "Changed card"))

        let verify = try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url)
        // Unreadable goldens are bad input (docs/outcomes.md): exit 2, each named on stderr.
        XCTAssertEqual(verify.status, 2, verify.output)
        XCTAssertTrue(
            verify.stderr.contains("error: Fixtures/cards/a.json: 01-expand frame 4: unreadable golden"), verify.stderr)
        XCTAssertTrue(
            verify.stderr.contains("error: Fixtures/cards/b.json: initial frame 0: unreadable golden"), verify.stderr)
        XCTAssertTrue(verify.stdout.contains("MISSING cards/a 01-expand: frame 2 has no golden"), verify.stdout)
        XCTAssertTrue(
            verify.stdout.contains(
                "2 goldens cannot be read: layoutsnap accept cards/a cards/b writes the actual frames over them "
                    + "(or record them again: layoutsnap record Fixtures/cards/a.json Fixtures/cards/b.json)"),
            verify.stdout)
        XCTAssertTrue(
            withoutCacheCount(verify.stdout).hasSuffix("7 passed, 6 failed, 1 missing, 2 errors\n"), verify.stdout)

        let accept = try CLI.run(["accept", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accept.status, 0, accept.output)
        // a: 6 changed, 1 missing and 1 unreadable; b: 1 unreadable.
        XCTAssertEqual(accept.stdout, "9 frames accepted into Goldens/, 2 layout.json updated\n", accept.output)
        XCTAssertEqual(accept.stderr, "")
        for golden in ["cards/a/01-expand/002.png", "cards/a/01-expand/004.png", "cards/b/initial/000.png"] {
            XCTAssertEqual(
                try bytes(dir, "Goldens/" + golden), try bytes(dir, ".layoutsnap/report/actual/" + golden), golden)
            XCTAssertEqual(Array(try bytes(dir, "Goldens/" + golden).prefix(8)), Self.signature, golden)
        }
        let again = try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertEqual(withoutCacheCount(again.stdout), "16 passed, 0 failed\n", again.output)
        XCTAssertEqual(again.stderr, "")

        // Exactly one frame: in the singular.
        try dir.write("Goldens/cards/b/01-expand/003.png", "garbage\n")
        let one = try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url)
        XCTAssertEqual(one.status, 2, one.output)
        XCTAssertTrue(
            one.stdout.contains(
                "1 golden cannot be read: layoutsnap accept cards/b writes the actual frame over it "
                    + "(or record it again: layoutsnap record Fixtures/cards/b.json)"), one.stdout)
        XCTAssertTrue(withoutCacheCount(one.stdout).hasSuffix("15 passed, 0 failed, 1 error\n"), one.stdout)
        let acceptOne = try CLI.run(["accept", "--allow-ci"], in: dir.url)
        XCTAssertEqual(acceptOne.status, 0, acceptOne.output)
        XCTAssertEqual(acceptOne.stdout, "1 frame accepted into Goldens/, 1 layout.json updated\n")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url).status, 0)
    }

    /// A report without the actual frame (removed since verify): accept refuses that frame
    /// (exit 2), accepts the others, and names the record command with the fixture's path, which
    /// heals it.
    func testWithoutAnActualFrameAcceptNamesTheRecordCommand() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        try dir.write("Fixtures/cards/b.json", smallPost(title: "Other card"))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci", "--goldens", "G"], in: dir.url).status, 0)
        try dir.write("G/cards/a/initial/000.png", "garbage\n")
        try dir.write("G/cards/b/initial/000.png", "garbage\n")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--goldens", "G"], in: dir.url).status, 2)
        try FileManager.default.removeItem(at: dir.path(".layoutsnap/report/actual/cards/b/initial/000.png"))

        try acceptRefusing(
            in: dir,
            reason: "error: cards/b/initial/000.png: .layoutsnap/report/actual/cards/b/initial/000.png is gone",
            stdout: "1 frame accepted into G/, 1 layout.json updated\n"
                + "The frames above that the report has no actual image for are rendered and written by record: "
                + "layoutsnap record Fixtures/cards/b.json --goldens G\n")
        let record = try CLI.run(
            ["record", "--no-progress", "--allow-ci", "Fixtures/cards/b.json", "--goldens", "G"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertTrue(record.stdout.contains("recorded cards/b: 0 new, 1 changed frame\n"), record.stdout)
        let verify = try CLI.run(["verify", "--no-progress", "--goldens", "G"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
    }

    /// A reviewer approves an unreadable golden's frame in a static report (approvals.json with the
    /// hash verify read): it is written like any other approved frame, and verify passes.
    func testAnApprovedUnreadableGoldenIsWritten() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        try dir.write("Goldens/cards/a/01-expand/003.png", "version https://git-lfs.github.com/spec/v1\n")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url).status, 2)
        let results = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: dir.path(".layoutsnap/report/results.json")))
                as? [String: Any])
        let frames = ((results["fixtures"] as? [[String: Any]])?.first?["states"] as? [[String: Any]])?.flatMap {
            $0["frames"] as? [[String: Any]] ?? []
        }
        let frame = try XCTUnwrap(frames?.first { $0["status"] as? String == "unreadable" })
        XCTAssertEqual(frame["golden"] as? String, "cards/a/01-expand/003.png")
        let hash = try XCTUnwrap(frame["goldenHash"] as? String)
        let approvals: [String: Any] = [
            "tool": "layoutsnap", "kind": "approvals", "version": 1, "rejected": [],
            "approvals": [["golden": "cards/a/01-expand/003.png", "goldenHash": hash]],
        ]
        try JSONSerialization.data(withJSONObject: approvals).write(to: dir.path("approvals.json"))
        let accept = try CLI.run(["accept", "--approvals", "approvals.json", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accept.status, 0, accept.output)
        XCTAssertEqual(accept.stdout, "1 frame accepted into Goldens/, 1 layout.json updated\n", accept.output)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url).status, 0)
    }

    /// A folder where a golden belongs cannot be replaced by a rename: accept refuses that frame
    /// with what to do, before writing anything of it.
    func testAFolderInAGoldensPlaceIsRefusedWithWhatToDo() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        try FileManager.default.removeItem(at: dir.path("Goldens/cards/a/initial/000.png"))
        try dir.write("Goldens/cards/a/initial/000.png/inside", "x")
        let verify = try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url)
        XCTAssertEqual(verify.status, 2, verify.output)
        try acceptRefusing(
            in: dir, reason: "Goldens/cards/a/initial/000.png is a folder, not a golden: remove it, then accept again",
            stdout: "0 frames accepted into Goldens/\n")
        try FileManager.default.removeItem(at: dir.path("Goldens/cards/a/initial/000.png"))
        XCTAssertEqual(try CLI.run(["accept", "--allow-ci"], in: dir.url).status, 0)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url).status, 0)
    }
}
