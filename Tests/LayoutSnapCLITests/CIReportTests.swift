import Foundation
import XCTest

/// verify inside GitHub Actions: annotations in the workflow-command syntax naming the fixture
/// files from the repository root, the job summary appended to $GITHUB_STEP_SUMMARY, and
/// `--summary FILE.md` anywhere.
final class CIReportTests: XCTestCase {
    /// `::error file=...,title=...::message`: a name, optional comma-separated properties whose
    /// values escape `,` and `:`, then the message on one line.
    static let workflowCommand = try! NSRegularExpression(
        pattern: #"^::(error|warning|notice)( [a-z]+=[^,:\n]*(,[a-z]+=[^,:\n]*)*)?::[^\n\r]*$"#)

    func failingRun(environment: [String: String], arguments: [String] = []) throws -> (TempDir, CLI.Result) {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        try dir.write("Fixtures/cards/b.json", smallPost(title: "Other"))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        try dir.write("Fixtures/cards/a.json", smallPost(extra: #", "duration": 0.35"#))
        try dir.write("Fixtures/cards/b.json", #"{"kind": "post", "title": 3}"#)
        var env = environment
        for (key, value) in env { env[key] = value.replacingOccurrences(of: "$DIR", with: dir.url.path) }
        return (dir, try CLI.run(["verify", "--no-progress"] + arguments, in: dir.url, environment: env))
    }

    func testGitHubActionsGetsAnnotationsAndAJobSummary() throws {
        let (dir, r) = try failingRun(environment: [
            "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": "$DIR", "GITHUB_STEP_SUMMARY": "$DIR/summary.md",
        ])
        XCTAssertEqual(r.status, 2, r.output)
        let annotations = r.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") }
        // The failing card, the unusable one, and the failing card's lint warning (its author
        // hangs below the card while it expands).
        XCTAssertEqual(annotations.count, 3, r.stdout)
        XCTAssertTrue(
            annotations.contains {
                $0.hasPrefix(
                    "::warning file=Fixtures/cards/a.json,line=4,title=layoutsnap lint%3A cards/a::01-expand frames ")
            }, r.stdout)
        for line in annotations {
            XCTAssertNotNil(
                Self.workflowCommand.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        }
        // The changed card: its file from the repository root, what changed in motion terms.
        let a = try XCTUnwrap(annotations.first { $0.contains("cards/a ") })
        // On the line of the step that made the failing state (smallPost's steps are on line 4).
        XCTAssertTrue(
            a.hasPrefix("::error file=Fixtures/cards/a.json,line=4,title=layoutsnap%3A cards/a failed::01-expand: "), a)
        XCTAssertTrue(a.contains("motion: duration 7 → 8 frames"), a)
        // The broken one: its line and column.
        let b = try XCTUnwrap(annotations.first { $0.contains("cards/b ") })
        XCTAssertTrue(b.hasPrefix("::error file=Fixtures/cards/b.json,line=1,col="), b)
        XCTAssertTrue(b.contains("$.title"), b)

        let summary = try String(contentsOf: dir.path("summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("## layoutsnap verify: error\n"), summary)
        XCTAssertTrue(summary.contains("| `cards/a` | `01-expand` | failed | "), summary)
        XCTAssertTrue(summary.contains("| `cards/b` | | error | | | "), summary)
        XCTAssertLessThan(summary.utf8.count, 1 << 20)

        // --reporter terminal turns the annotations off, even inside GitHub Actions.
        let quiet = try CLI.run(
            ["verify", "--no-progress", "--reporter", "terminal"], in: dir.url, environment: ["GITHUB_ACTIONS": "true"])
        XCTAssertFalse(quiet.stdout.contains("::error"), quiet.stdout)
    }

    func testSummaryFileOutsideGitHub() throws {
        let (dir, r) = try failingRun(environment: [:], arguments: ["--summary", "out/summary.md"])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertFalse(r.stdout.contains("::error"), "no annotations outside GitHub Actions")
        let summary = try String(contentsOf: dir.path("out/summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("| fixture | state | outcome | frames | most pixels | what changed |"), summary)
        XCTAssertTrue(summary.contains("motion: duration 7 → 8 frames"), summary)
    }
}
