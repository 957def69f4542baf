import Foundation
import LayoutSnapTestSupport
import XCTest

/// The one verdict, end to end through the built binary: every case of the issue that asked for
/// it, as a user would run it, and one run where the terminal, results.json, JUnit, the HTML
/// report and the exit code must agree.
final class OneVerdictTests: XCTestCase {
    /// A project folder with Fixtures/ and Goldens/ of its own (never the repository's goldens).
    func project(_ fixtures: [String: String]) throws -> TempDir {
        let dir = try TempDir()
        for (id, json) in fixtures { try dir.write("Fixtures/\(id).json", json) }
        let r = try CLI.run(["record", "--allow-ci", "--no-progress", "--jobs", "2"], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        return dir
    }

    func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    func testAnEmptySelectionIsExitTwo() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(at: dir.path("empty"), withIntermediateDirectories: true)
        let empty = try CLI.run([
            "verify", dir.path("empty").path, "--report", dir.path("r").path, "--junit", dir.path("j.xml").path,
        ])
        XCTAssertEqual(empty.status, 2, empty.output)
        XCTAssertTrue(
            empty.stderr.contains("error: no fixtures matched: there is no .json fixture under"), empty.stderr)
        XCTAssertTrue(empty.stdout.hasSuffix("0 passed, 0 failed, no fixtures matched\n"), empty.stdout)
        XCTAssertTrue(try String(contentsOf: dir.path("j.xml"), encoding: .utf8).contains("errors=\"1\""))
        // The report's title says what the summary line says.
        let page = try String(contentsOf: dir.path("r/index.html"), encoding: .utf8)
        XCTAssertTrue(
            page.contains("<title>layoutsnap verify ERROR: no fixtures matched</title>"), String(page.prefix(400)))
        let filtered = try CLI.run(["--filter", "posts", "--report", dir.path("r").path, "--no-progress"])
        XCTAssertEqual(filtered.status, 2, filtered.output)
        XCTAssertTrue(filtered.stderr.contains("no fixtures matched --filter 'posts'"), filtered.stderr)
        XCTAssertEqual(try CLI.run(["render", dir.path("empty").path, "--out", dir.path("o").path]).status, 2)
    }

    /// Failing, similar, missing and unreadable frames, orphans and environment drift in one run.
    func testEveryOutputAgreesWithTheExitCode() throws {
        let dir = try project([
            "a": smallPost(title: "Differs"),
            "b": smallPost(title: "Similar", extra: #", "tolerance": {"maxDiffPixels": 500}"#),
            "c": smallPost(title: "Missing"),
            "d": smallPost(title: "Unreadable"),
        ])
        try nudgeRed(dir.path("Goldens/a/01-expand/002.png"), pixels: 300, levels: 60)
        try nudgeRed(dir.path("Goldens/b/initial/000.png"), pixels: 40, levels: 60)
        try FileManager.default.removeItem(at: dir.path("Goldens/c/01-expand/004.png"))
        let unreadable = dir.path("Goldens/d/initial/000.png")
        try Data(try Data(contentsOf: unreadable).prefix(60)).write(to: unreadable)
        try dir.write("Goldens/old/initial/000.png", "orphan")
        var manifest = try String(contentsOf: dir.path("Goldens/manifest.json"), encoding: .utf8)
        manifest = manifest.replacingOccurrences(of: "\"pango\" : \"", with: "\"pango\" : \"0.")
        manifest = manifest.replacingOccurrences(of: "\"pango\": \"", with: "\"pango\": \"0.")
        try manifest.write(to: dir.path("Goldens/manifest.json"), atomically: true, encoding: .utf8)

        let r = try CLI.run(
            ["verify", "--check-orphans", "--strict-env", "--no-progress", "--junit", "junit.xml"], in: dir.url)
        XCTAssertEqual(r.status, 2, "unreadable goldens are bad input: the highest code wins\n" + r.output)
        let line = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        // The lints are warnings (verify's default): counted, never the exit code.
        XCTAssertEqual(
            line,
            "28 passed, 1 failed, 1 similar, 1 missing, 1 error, 12 lint findings (warnings), 1 orphan, environment differs",
            r.output)
        XCTAssertTrue(r.stdout.contains("ORPHAN Goldens/old/: no fixture old"), r.stdout)
        XCTAssertTrue(
            r.stderr.contains("error: environment differs from the one that recorded the goldens: pango 0."), r.stderr)

        let results = try json(dir.path(".layoutsnap/report/results.json"))
        let summary = results["summary"] as! [String: Any]
        XCTAssertEqual(summary["passed"] as? Int, 28)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["similar"] as? Int, 1)
        XCTAssertEqual(summary["missing"] as? Int, 1)
        XCTAssertEqual(summary["errors"] as? Int, 1)
        XCTAssertEqual(summary["orphans"] as? Int, 1)
        XCTAssertEqual(summary["exitCode"] as? Int, 2)
        XCTAssertEqual(summary["outcome"] as? String, "error")
        let kinds = (results["findings"] as! [[String: Any]]).map { "\($0["kind"]!) \($0["severity"]!)" }.sorted()
        XCTAssertEqual(kinds, ["environment failure", "orphan failure"])
        XCTAssertEqual(results["goldens"] as? String, "Goldens")
        XCTAssertEqual(results["fixturesRoot"] as? String, "Fixtures")

        let xml = try String(contentsOf: dir.path("junit.xml"), encoding: .utf8)
        XCTAssertTrue(
            xml.contains("<testsuites name=\"layoutsnap verify\" tests=\"10\" failures=\"4\" errors=\"1\""), xml)
        if let xmllint = TestTools.find(["/usr/bin/xmllint"]) {
            let result = try TestProcess.run(xmllint, ["--noout", dir.path("junit.xml").path])
            XCTAssertEqual(result.status, 0, "xmllint rejects the JUnit file: \(result.stderr)")
        }

        // The report's header, as a browser shows it.
        let chromium = try Browser.chromium()
        let page = try Browser.run(
            chromium, ["--dump-dom", dir.path(".layoutsnap/report/index.html").absoluteString],
            profile: dir.path("profile"))
        XCTAssertTrue(
            page.stdout.contains("<span class=\"verdict fail\">error</span>"), String(page.stdout.prefix(3000)))
        for (stat, n, label) in [
            ("failed", 1, "failed"), ("missing", 1, "missing"), ("errors", 1, "error"), ("orphans", 1, "orphan"),
            ("similar", 1, "similar"), ("passed", 28, "passed"),
        ] {
            XCTAssertTrue(
                page.stdout.contains("<li class=\"stat \(stat) nz\"><b>\(n)</b>\(label)</li>"), "\(stat) \(n)")
        }
        XCTAssertTrue(page.stdout.contains("class=\"findings\""), "the findings are in the header")
        XCTAssertTrue(
            page.stdout.contains(
                "<title>layoutsnap verify ERROR: 1 failed, 1 missing, 1 error, 1 orphan, environment differs</title>"),
            String(page.stdout.prefix(600)))
    }

    /// Orphans with the default folders and with explicit ones; the summary, JUnit and the badge
    /// say so, not only the exit code.
    func testOrphansAreCountedEverywhere() throws {
        let dir = try project(["a": smallPost()])
        try dir.write("Goldens/gone/initial/000.png", "orphan")
        let r = try CLI.run(
            ["verify", "--check-orphans", "--no-progress", "--lint", "off", "--junit", "j.xml"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(withoutCacheCount(r.stdout).hasSuffix("8 passed, 0 failed, 1 orphan\n"), r.stdout)
        XCTAssertTrue(try String(contentsOf: dir.path("j.xml"), encoding: .utf8).contains("failures=\"1\""))
        XCTAssertTrue(
            try String(contentsOf: dir.path(".layoutsnap/report/index.html"), encoding: .utf8).contains(
                "<title>layoutsnap verify FAILED: 1 orphan</title>"))

        let explicit = try CLI.run([
            "verify", dir.path("Fixtures").path, "--goldens", dir.path("Goldens").path, "--check-orphans",
            "--report", dir.path("r2").path, "--no-progress",
        ])
        XCTAssertEqual(explicit.status, 1, explicit.output)
        XCTAssertTrue(
            explicit.stdout.contains("ORPHAN \(dir.path("Goldens").path)/gone/: no fixture gone"), explicit.stdout)
    }

    func testMergeFailsWhenAShardIsMissing() throws {
        let dir = try TempDir()
        for i in [1, 3] {
            let r = try CLI.run([
                "verify", "--shard", "\(i)/3", "--report", dir.path("r\(i)").path, "--no-progress", "--filter",
                "posts/*",
            ])
            XCTAssertEqual(r.status, 0, r.output)
        }
        let merged = try CLI.run([
            "merge-reports", dir.path("r1").path, dir.path("r3").path, "--out", dir.path("m").path,
        ])
        XCTAssertEqual(merged.status, 1, merged.output)
        XCTAssertTrue(merged.stderr.contains("error: shard 2/3 missing"), merged.stderr)
        XCTAssertTrue(merged.stdout.hasSuffix(", 1 shard missing\n"), merged.stdout)
        let allowed = try CLI.run([
            "merge-reports", dir.path("r1").path, dir.path("r3").path, "--out", dir.path("m").path,
            "--allow-missing-shards",
        ])
        XCTAssertEqual(allowed.status, 0, allowed.output)
        XCTAssertTrue(allowed.stderr.contains("warning: shard 2/3 missing"), allowed.stderr)
    }

    /// A merge that stops with an error (an input that is no report) takes the earlier merged
    /// results away, as verify does; one whose output is also an input leaves that input whole.
    func testAMergeStoppedEarlyLeavesNoEarlierResults() throws {
        let dir = try TempDir()
        func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: dir.path(file).path) }
        let shard = try CLI.run([
            "verify", "--report", dir.path("r1").path, "--no-progress", "--filter", "posts/*",
        ])
        XCTAssertEqual(shard.status, 0, shard.output)
        let out = ["--out", dir.path("m").path, "--junit", dir.path("j.xml").path]
        let merged = try CLI.run(["merge-reports", dir.path("r1").path] + out)
        XCTAssertEqual(merged.status, 0, merged.output)
        let files = ["m/results.json", "m/index.html", "j.xml"]
        for file in files { XCTAssertTrue(exists(file), file) }

        let stopped = try CLI.run(["merge-reports", dir.path("r1").path, dir.path("nothing").path] + out)
        XCTAssertEqual(stopped.status, 2, stopped.output)
        for file in files { XCTAssertFalse(exists(file), "\(file) left by the merge before") }

        let into = try CLI.run(["merge-reports", dir.path("r1").path, "--out", dir.path("r1").path])
        XCTAssertEqual(into.status, 2, into.output)
        XCTAssertTrue(into.stderr.contains("the output folder cannot also be an input"), into.stderr)
        XCTAssertTrue(exists("r1/results.json"), "an input is never taken away")
    }

    /// 50 pixels nudged by 2 levels: `verify` and `diff` give the same verdict and the same words,
    /// exact by default, similar with a tolerance.
    func testDiffAndVerifyShareOneComparison() throws {
        let dir = try project(["a": smallPost()])
        let golden = dir.path("Goldens/a/initial/000.png")
        let original = dir.path("original.png")
        try FileManager.default.copyItem(at: golden, to: original)
        try nudgeRed(golden, pixels: 50, levels: 2)

        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)
        let words = "0 pixels differ (0.00%), largest channel difference 2, 50 changed below the threshold"
        XCTAssertTrue(verify.stdout.contains("FAIL a initial: frame 0 differs (\(words))"), verify.stdout)
        let diff = try CLI.run(["diff", golden.path, original.path])
        XCTAssertEqual(diff.status, 1, diff.output)
        XCTAssertTrue(diff.stdout.hasPrefix(words + "\n"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("different (exact comparison"), diff.stdout)

        let tolerant = try CLI.run(["diff", golden.path, original.path, "--threshold", "0.1"])
        XCTAssertEqual(tolerant.status, 0, tolerant.output)
        XCTAssertTrue(tolerant.stdout.hasSuffix(words + "\nsimilar\n"), tolerant.stdout)
        try dir.write("Fixtures/a.json", smallPost(extra: #", "tolerance": {"threshold": 0.1}"#))
        let similar = try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url)
        XCTAssertEqual(similar.status, 0, similar.output)
        XCTAssertTrue(withoutCacheCount(similar.stdout).hasSuffix("7 passed, 0 failed, 1 similar\n"), similar.stdout)
    }

    /// Byte-identical files are identical before any decoding; `--json` prints the verdict and
    /// results.json's metrics object.
    func testDiffRecognisesIdenticalBytesAndPrintsJSON() throws {
        let dir = try TempDir()
        let golden = TestPaths.packageRoot.appendingPathComponent("Goldens/posts/no-image/01-expand/003.png").path
        // A valid header over data that does not decode: identical bytes are identical all the same.
        var broken = [UInt8](try Data(contentsOf: URL(fileURLWithPath: golden)).prefix(60))
        broken += [UInt8](repeating: 0, count: 10)
        try Data(broken).write(to: dir.path("a.png"))
        try Data(broken).write(to: dir.path("b.png"))
        let same = try CLI.run(["diff", dir.path("a.png").path, dir.path("b.png").path, "--json"])
        XCTAssertEqual(same.status, 0, same.output)
        XCTAssertEqual(same.stdout, "{\"metrics\":null,\"verdict\":\"identical\"}\n")
        let other = TestPaths.packageRoot.appendingPathComponent("Goldens/posts/no-image/01-expand/004.png").path
        let differ = try CLI.run(["diff", golden, other, "--json"])
        XCTAssertEqual(differ.status, 1, differ.output)
        let object = try JSONSerialization.jsonObject(with: Data(differ.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["verdict"] as? String, "different")
        let metrics = object["metrics"] as! [String: Any]
        XCTAssertEqual(
            Set(metrics.keys), ["differentPixels", "ratio", "maxChannelDifference", "regions", "width", "height"])
        XCTAssertEqual(metrics["width"] as? Int, 390)
    }

    /// The advice names the report and goldens it used, and accept takes the goldens from
    /// results.json.
    func testAdviceAndAcceptFollowTheRunsFolders() throws {
        let dir = try TempDir()
        try dir.write("F/a.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "F", "--goldens", "G", "--allow-ci"], in: dir.url).status, 0)
        try dir.write("F/a.json", smallPost(title: "Changed"))
        let verify = try CLI.run(["verify", "F", "--goldens", "G", "--report", "R", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1)
        XCTAssertTrue(
            verify.stdout.contains(
                "accept it: layoutsnap accept a --from R/results.json --goldens G (or record again: layoutsnap record --goldens G)"
            ), verify.stdout)
        let accept = try CLI.run(["accept", "--from", "R/results.json", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accept.status, 0, accept.output)
        XCTAssertTrue(accept.stdout.contains("accepted into G/"), accept.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Goldens").path), "nothing went to ./Goldens")
        XCTAssertEqual(
            try CLI.run(["verify", "F", "--goldens", "G", "--report", "R", "--no-progress"], in: dir.url).status, 0)
    }

    func testUnusableOutputPathsAreOneErrorBeforeAnyWork() throws {
        let dir = try project(["a": smallPost()])
        let inside = try CLI.run(["verify", "--report", "Goldens/rep"], in: dir.url)
        XCTAssertEqual(inside.status, 2, inside.output)
        XCTAssertTrue(inside.stderr.contains("inside the goldens folder"), inside.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Goldens/rep").path))
        XCTAssertEqual(try CLI.run(["verify", "--report", "Goldens"], in: dir.url).status, 2)
        XCTAssertEqual(try CLI.run(["verify", "--report", "."], in: dir.url).status, 2)

        try dir.write("file", "x")
        for arguments in [
            ["render", "--out", "file"],
            ["generate", "--kind", "post", "--count", "2", "--seed", "1", "--out", "file"],
            ["verify", "--report", "file"], ["verify", "--junit", "Fixtures"],
            ["preview", "Fixtures/a.json", "--out", "file/x"],
        ] {
            let r = try CLI.run(arguments, in: dir.url)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.output)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one error: \(r.stderr)")
            XCTAssertTrue(
                r.stderr.contains("a file is there, and a folder is needed")
                    || r.stderr.contains("a folder is there, and a file is needed"), r.stderr)
        }
    }

    /// A verify stopped before its results (here a PATH that does not exist) leaves no earlier
    /// run's results.json, report page, JUnit, JSON copy or summary to say otherwise than its
    /// exit code 2; files of the same names that layoutsnap did not write stay.
    func testARunStoppedEarlyLeavesNoEarlierResults() throws {
        let dir = try project(["a": smallPost()])
        let outputs = [
            "--no-progress", "--report", "r", "--junit", "j.xml", "--json", "copy.json", "--summary", "s.md",
        ]
        let files = ["r/results.json", "r/index.html", "j.xml", "copy.json", "s.md"]
        func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: dir.path(file).path) }
        let passed = try CLI.run(["verify"] + outputs, in: dir.url)
        XCTAssertEqual(passed.status, 0, passed.output)
        for file in files { XCTAssertTrue(exists(file), file) }

        let stopped = try CLI.run(["verify", "Fixtures/typo.json"] + outputs, in: dir.url)
        XCTAssertEqual(stopped.status, 2, stopped.output)
        XCTAssertTrue(stopped.stderr.contains("Fixtures/typo.json: no such file or folder"), stopped.stderr)
        for file in files { XCTAssertFalse(exists(file), "\(file) left by the run before") }

        try dir.write("r/results.json", #"{"tool": "mine"}"#)
        try dir.write("j.xml", #"<?xml version="1.0"?><testsuites name="mine"/>"#)
        try dir.write("copy.json", "{}")
        try dir.write("s.md", "## notes")
        XCTAssertEqual(try CLI.run(["verify", "Fixtures/typo.json"] + outputs, in: dir.url).status, 2)
        for file in files where file != "r/index.html" { XCTAssertTrue(exists(file), "\(file) is the user's") }

        // Stopped after the earlier report was cleared for this run (a remote cache URL is read
        // when the cache opens): the `expected/` kept for the run goes too.
        for file in files { try? FileManager.default.removeItem(at: dir.path(file)) }
        try dir.write("Fixtures/a.json", smallPost(title: "Changed title"))
        let failed = try CLI.run(["verify"] + outputs, in: dir.url)
        XCTAssertEqual(failed.status, 1, failed.output)
        XCTAssertTrue(exists("r/expected"), "a failing state's goldens are in the report")
        let late = try CLI.run(["verify", "--no-cache", "--remote-cache", "ftp://nowhere"] + outputs, in: dir.url)
        XCTAssertEqual(late.status, 2, late.output)
        XCTAssertTrue(late.stderr.contains("--remote-cache ftp://nowhere"), late.stderr)
        for file in files + ["r/expected", "r/actual", "r/diff"] { XCTAssertFalse(exists(file), file) }
    }

    /// Two records on one folder: the second stops at once naming the first; the first completes.
    func testConcurrentRecordsAreSerialisedByTheLock() throws {
        let dir = try project(["a": smallPost(), "b": smallPost(title: "B")])
        try dir.write("Fixtures/a.json", smallPost(title: "A changed"))
        try dir.write("Fixtures/b.json", smallPost(title: "B changed"))
        // A pause before each swap keeps the first record inside its transaction a while.
        let first = try TestProcess.start(
            CLI.binary, ["record", "--allow-ci", "--no-progress"], in: dir.url,
            environment: ["LAYOUTSNAP_FAULT_SWAP_DELAY_MS": "300"])
        let lock = dir.path("Goldens/.layoutsnap.lock")
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: lock.path) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let second = try CLI.run(["record", "--allow-ci", "--no-progress"], in: dir.url)
        let firstResult = first.wait()
        XCTAssertEqual(second.status, 2, second.output)
        XCTAssertTrue(second.stderr.contains("is locked by process \(first.processIdentifier)"), second.stderr)
        XCTAssertEqual(firstResult.status, 0, firstResult.output)
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock.path))
    }

    func testShardFiguresAreRealFrames() throws {
        var total = 0
        for i in 1...3 {
            let r = try CLI.run([
                "verify", "--shard", "\(i)/3", "--report", try TempDir().url.path, "--no-progress", "--no-cache",
            ])
            XCTAssertEqual(r.status, 0, r.output)
            let note = r.output.split(separator: "\n").first { $0.hasPrefix("shard \(i)/3:") }.map(String.init) ?? ""
            XCTAssertTrue(note.hasSuffix(" of 732 frames"), note)
            let frames = Int(note.split(separator: " ").dropLast(3).last ?? "") ?? -1
            XCTAssertTrue(
                r.stdout.hasSuffix("\(frames) passed, 0 failed\n"),
                "the plan's figure is the frames verified: \(note) / \(r.stdout)")
            total += frames
        }
        XCTAssertEqual(total, 732)
    }

    func testOverridesNeverTouchTheCanonicalGoldens() throws {
        let dir = try project(["a": smallPost()])
        let before = try Data(contentsOf: dir.path("Goldens/a/initial/000.png"))
        for flag in [["--device", "iphone-se"], ["--scale", "2"], ["--fps", "30"]] {
            let r = try CLI.run(["record", "--allow-ci"] + flag, in: dir.url)
            XCTAssertEqual(r.status, 2, r.output)
            XCTAssertTrue(r.stderr.contains("\(flag[0]) render frames unlike the fixtures' own"), r.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: dir.path("Goldens/a/initial/000.png")), before)
        let elsewhere = try CLI.run(["record", "--allow-ci", "--scale", "2", "--goldens", "G2"], in: dir.url)
        XCTAssertEqual(elsewhere.status, 0, elsewhere.output)
    }
}
