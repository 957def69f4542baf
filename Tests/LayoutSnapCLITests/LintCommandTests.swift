import Foundation
import LayoutSnapTestSupport
import XCTest

/// `layoutsnap lint` and `verify --lint`: fixtures made to break one rule each, clean ones that
/// give nothing, findings of the built-in design it accepts itself, ignores with reasons, and
/// every output (terminal, results.json, JUnit, GitHub, the HTML report) carrying the findings.
final class LintCommandTests: XCTestCase {
    /// One fixture per rule that a real fixture can break, clean ones, and two whose only findings
    /// are the built-in design's (`faint`: the placeholder's secondary grey; `leaving-card`: the
    /// author below the growing card and its 50% grey).
    static func writeFixtures(_ dir: TempDir) throws {
        try dir.write(
            "F/faint.json",
            #"{"kind": "composer", "width": 390, "height": 300, "scale": 1, "keyboard": false, "placeholder": "Write something"}"#
        )
        try dir.write(
            "F/hidden-caret.json",
            #"{"kind": "composer", "width": 390, "height": 500, "scale": 1, "maxLines": 3, "text": "one\ntwo\nthree\nfour\nfive\nsix", "steps": [{"scrollBy": -60}]}"#
        )
        try dir.write(
            "F/leaving-card.json",
            #"{"kind": "post", "width": 390, "height": 400, "scale": 1, "fps": 20, "title": "Title", "body": "A body of a few words.", "author": "Desk", "steps": [{"expand": true}]}"#
        )
        try dir.write(
            "F/banner-ax5.json",
            #"{"kind": "chat", "scale": 1, "textSize": "AX5", "online": false, "input": "draft", "messages": [{"role": "assistant", "text": "Hi"}]}"#
        )
        try dir.write(
            "F/clean-transcript.json",
            #"{"kind": "transcript", "width": 390, "height": 200, "scale": 1, "text": "Hello there", "steps": [{"append": " and more"}]}"#
        )
        try dir.write(
            "F/clean-chat.json",
            #"{"kind": "chat", "width": 390, "height": 500, "scale": 1, "input": "a draft", "messages": [{"role": "assistant", "text": "Hello, how can I help?"}]}"#
        )
    }

    func testLintFindsEachBrokenRuleAndNothingInCleanFixtures() throws {
        let dir = try TempDir()
        try Self.writeFixtures(dir)
        // One line per rule and fixture, with its counts, quoting the worst finding.
        let grouped = try CLI.run(["lint", "--no-progress", "F"], in: dir.url)
        XCTAssertEqual(grouped.status, 1, grouped.output)
        XCTAssertTrue(
            grouped.stdout.contains(
                "LINT hidden-caret caret-hidden: 1 finding in 01-scroll frame 0: caret reaches 52 pt below field"),
            grouped.stdout)
        // The built-in design accepts its own: the placeholder (1), the author below the growing
        // card (frames 1-3) and its grey once expanded (1), 5 in all, none of them printed.
        XCTAssertTrue(
            grouped.stdout.contains(
                "lint: 6 fixtures, 15 frames: 2 findings (5 accepted by the built-in design) in 2 fixtures"),
            grouped.stdout)
        XCTAssertFalse(grouped.stdout.contains("LINT faint"), grouped.stdout)
        XCTAssertFalse(grouped.stdout.contains("LINT leaving-card"), grouped.stdout)
        // Every finding by state and frames with --verbose.
        let all = try CLI.run(["lint", "--no-progress", "--verbose", "F"], in: dir.url)
        XCTAssertEqual(all.status, 1, all.output)
        XCTAssertTrue(
            all.stdout.contains("LINT hidden-caret 01-scroll frame 0: caret-hidden: caret reaches 52 pt below field"),
            all.stdout)
        XCTAssertFalse(all.stdout.contains("LINT leaving-card"), all.stdout)
        // The offline banner is 32 pt tall at every text size; at AX5 its label is cut.
        XCTAssertTrue(
            all.stdout.contains(
                "LINT banner-ax5 initial frame 0: clipped-text: a line of banner is cut by 10.3 pt at its clip"),
            all.stdout)
        XCTAssertFalse(all.stdout.contains("clean-"), "clean fixtures give no finding:\n\(all.stdout)")

        let clean = try CLI.run(["lint", "--no-progress", "F/clean-transcript.json", "F/clean-chat.json"], in: dir.url)
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.stdout.contains("lint: 2 fixtures, 3 frames: 0 findings in 0 fixtures"), clean.stdout)

        // An ignore with its reason takes the finding out; without a reason it is bad input.
        try dir.write(
            "F/hidden-caret.json",
            #"{"kind": "composer", "width": 390, "height": 500, "scale": 1, "maxLines": 3, "text": "one\ntwo\nthree\nfour\nfive\nsix", "steps": [{"scrollBy": -60}], "lint": {"ignore": [{"rule": "caret-hidden", "element": "caret", "reason": "the user drags the text away from the caret on purpose"}]}}"#
        )
        let ignored = try CLI.run(["lint", "--no-progress", "F/hidden-caret.json"], in: dir.url)
        XCTAssertEqual(ignored.status, 0, ignored.output)
        XCTAssertTrue(ignored.stdout.contains("0 findings (1 ignored)"), ignored.stdout)
        try dir.write(
            "F/faint.json",
            #"{"kind": "composer", "placeholder": "x", "lint": {"ignore": [{"rule": "contrast", "element": "placeholder"}]}}"#
        )
        let noReason = try CLI.run(["lint", "--no-progress", "F/faint.json"], in: dir.url)
        XCTAssertEqual(noReason.status, 2, noReason.output)
        XCTAssertTrue(noReason.stderr.contains("$.lint.ignore[0]: missing required field \"reason\""), noReason.stderr)
    }

    /// Generated posts that outgrow their canvas find the card below it in many frames of several
    /// states: the terminal gives one line per rule and fixture with its counts, which add up to
    /// the summary's, and `--verbose` each range.
    func testLintGroupsFindingsByRuleAndFixtureWithCounts() throws {
        let dir = try TempDir()
        let generated = try CLI.run(
            ["generate", "--kind", "post", "--count", "10", "--seed", "1", "--out", "G"], in: dir.url)
        XCTAssertEqual(generated.status, 0, generated.output)
        let grouped = try CLI.run(["lint", "--no-progress", "G"], in: dir.url)
        let verbose = try CLI.run(["lint", "--no-progress", "--verbose", "G"], in: dir.url)
        XCTAssertEqual(grouped.status, 1, grouped.output)
        XCTAssertEqual(verbose.status, 1, verbose.output)
        func lines(_ r: CLI.Result) -> [String] { r.stdout.split(separator: "\n").map(String.init) }
        let groupLines = lines(grouped).filter { $0.hasPrefix("LINT ") }
        let rangeLines = lines(verbose).filter { $0.hasPrefix("LINT ") }
        // `LINT post/post-000000 02-expand frames 0-2: outside-container: ...`: one per (fixture, rule) pair.
        let pairs = Set(
            rangeLines.map { line -> String in
                let words = line.split(separator: " ")
                let rule = line.components(separatedBy: ": ")[1]
                return "\(words[1]) \(rule)"
            })
        XCTAssertEqual(groupLines.count, pairs.count, grouped.stdout)
        XCTAssertGreaterThan(rangeLines.count, groupLines.count, "the posts have findings in several states each")
        for pair in pairs { XCTAssertTrue(groupLines.contains { $0.hasPrefix("LINT \(pair): ") }, pair) }
        // The counts add up: each range is one finding per frame it covers.
        func findings(_ line: String) -> Int {
            Int(line.components(separatedBy: ": ")[1].split(separator: " ")[0])!
        }
        func covered(_ line: String) -> Int {
            let frames = line.split(separator: ":")[0].split(separator: " ").last!.split(separator: "-").map {
                Int($0)!
            }
            return frames.count == 1 ? 1 : frames[1] - frames[0] + 1
        }
        let total = groupLines.map(findings).reduce(0, +)
        XCTAssertEqual(total, rangeLines.map(covered).reduce(0, +))
        XCTAssertTrue(grouped.stdout.contains("lint: 10 fixtures, "), grouped.stdout)
        XCTAssertTrue(grouped.stdout.contains(": \(total) findings ("), grouped.stdout)
        XCTAssertTrue(grouped.stdout.contains("Each finding by state and frame: layoutsnap lint --verbose"))
        XCTAssertFalse(verbose.stdout.contains("layoutsnap lint --verbose"), verbose.stdout)
        XCTAssertEqual(lines(grouped).last, lines(verbose).last, "the same summary either way")
    }

    func testVerifyCarriesLintsIntoEveryOutputAndErrorModeFails() throws {
        let dir = try TempDir()
        try Self.writeFixtures(dir)
        // hidden-caret's finding, and a card that grows past its canvas in 01-expand (the report
        // marks those frames in the strip); faint's and leaving-card's are the built-in design's.
        try FileManager.default.removeItem(at: dir.path("F/banner-ax5.json"))
        try dir.write(
            "F/tall-card.json",
            #"{"kind": "post", "width": 390, "height": 120, "scale": 1, "fps": 20, "title": "Title", "body": "A body of a few words.", "author": "Desk", "steps": [{"expand": true}]}"#
        )
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci", "F"], in: dir.url).status, 0)

        // warn (the default): reported, the run passes.
        let warn = try CLI.run(["verify", "--no-progress", "F", "--report", "warn"], in: dir.url)
        XCTAssertEqual(warn.status, 0, warn.output)
        XCTAssertTrue(
            warn.stdout.contains(
                "LINT hidden-caret caret-hidden: 1 finding in 01-scroll frame 0: caret reaches 52 pt below field"),
            warn.stdout)
        let verbose = try CLI.run(["verify", "--no-progress", "--verbose", "F", "--report", "warn"], in: dir.url)
        XCTAssertTrue(
            verbose.stdout.contains(
                "LINT hidden-caret 01-scroll frame 0: caret-hidden: caret reaches 52 pt below field"),
            verbose.stdout)
        XCTAssertTrue(warn.stdout.contains("LINT tall-card outside-container: "), warn.stdout)
        XCTAssertTrue(warn.stdout.contains("lint findings (warnings)"), warn.stdout)
        let results = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("warn/results.json"))) as? [String: Any])
        let summary = try XCTUnwrap(results["summary"] as? [String: Any])
        XCTAssertEqual(summary["outcome"] as? String, "passed")
        let lintCount = try XCTUnwrap(summary["lints"] as? Int)
        XCTAssertGreaterThan(lintCount, 1)
        XCTAssertEqual(summary["failingLints"] as? Int, 0)
        let fixtures = try XCTUnwrap(results["fixtures"] as? [[String: Any]])
        let hidden = try XCTUnwrap(fixtures.first { $0["id"] as? String == "hidden-caret" })
        let states = try XCTUnwrap(hidden["states"] as? [[String: Any]])
        let scroll = try XCTUnwrap(states.first { $0["name"] as? String == "01-scroll" })
        let frame = try XCTUnwrap((scroll["frames"] as? [[String: Any]])?.first)
        let lint = try XCTUnwrap((frame["lints"] as? [[String: Any]])?.first)
        XCTAssertEqual(lint["rule"] as? String, "caret-hidden")
        XCTAssertEqual(lint["elements"] as? [String], ["caret", "field"])
        XCTAssertEqual((lint["rect"] as? [Double])?.count, 4)
        XCTAssertEqual(lint["severity"] as? String, "warning")
        XCTAssertEqual(hidden["canvas"] as? [Double], [390, 500])
        let faint = try XCTUnwrap(fixtures.first { $0["id"] as? String == "faint" })
        XCTAssertFalse(String(describing: faint).contains("lints"), "the design's own findings are not reported")
        let clean = try XCTUnwrap(fixtures.first { $0["id"] as? String == "clean-chat" })
        XCTAssertFalse(String(describing: clean).contains("lints"), "no lints key where nothing was found")

        // error: the same findings fail the run, in JUnit and in GitHub's annotations too.
        let error = try CLI.run(
            ["verify", "--no-progress", "F", "--lint", "error", "--report", "error", "--junit", "error/junit.xml"],
            in: dir.url, environment: ["GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": dir.url.path])
        XCTAssertEqual(error.status, 1, error.output)
        XCTAssertTrue(
            error.stdout.contains(
                "::error file=F/hidden-caret.json,line=1,title=layoutsnap lint%3A hidden-caret::01-scroll frame 0: caret-hidden: caret reaches 52 pt below field"
            ), error.stdout)
        let xml = try String(contentsOf: dir.path("error/junit.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains("type=\"lint\""), xml)
        XCTAssertTrue(xml.contains("lint caret-hidden frame 0: caret reaches 52 pt below field"), xml)
        let schema = TestPaths.packageRoot.appendingPathComponent("Tests/Schemas/junit-10.xsd").path
        if let xmllint = TestTools.find(["/usr/bin/xmllint"]) {
            let result = try TestProcess.run(
                xmllint, ["--noout", "--schema", schema, dir.path("error/junit.xml").path])
            XCTAssertEqual(
                result.status, 0, "the JUnit with lint failures validates against Jenkins's XSD: \(result.stderr)")
        }

        // off: none computed.
        let off = try CLI.run(["verify", "--no-progress", "F", "--lint", "off", "--report", "off"], in: dir.url)
        XCTAssertEqual(off.status, 0, off.output)
        XCTAssertFalse(off.stdout.contains("LINT"), off.stdout)
        XCTAssertFalse(try String(contentsOf: dir.path("off/results.json"), encoding: .utf8).contains("\"lints\" : ["))

        // The report marks linted frames in the strip and draws the rects over the frame.
        let chromium = try Browser.chromium()
        let page = try Browser.run(
            chromium, ["--dump-dom", dir.path("error/index.html").absoluteString], profile: dir.path("profile"))
        XCTAssertTrue(page.stdout.contains("class=\"lintbox\""), String(page.stdout.prefix(2000)))
        XCTAssertTrue(page.stdout.contains(" lint\" title=\"frame "), "a strip cell of a linted frame is marked")
        XCTAssertTrue(page.stdout.contains("<span class=\"verdict fail\">failed</span>"))
    }
}
