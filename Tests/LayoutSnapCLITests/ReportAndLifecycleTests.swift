import XCTest

/// Issue 5's golden life cycle and reports, through the real command.
final class ReportAndLifecycleTests: XCTestCase {
    /// A recorded small fixture in a temporary project.
    func project() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        return dir
    }

    func change(_ dir: TempDir) throws {
        try dir.write(
            "Fixtures/cards/small.json",
            smallPost().replacingOccurrences(of: "Body text", with: "Body text that wraps onto a second line"))
    }

    func testFailingVerifyWritesReportJUnitAndLayoutChanges() throws {
        let dir = try project()
        try change(dir)
        let r = try CLI.run(
            ["verify", "--no-progress", "--junit", "junit.xml", "--json", "out/results.json"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stdout.contains("Report: .layoutsnap/report/index.html"), r.output)
        XCTAssertTrue(
            r.stdout.hasPrefix("1 cause explains 6 of 6 failing frames: author y +44.00, body height +44.00\n"),
            "the terminal names what moved: \(r.output)")
        let verbose = try CLI.run(["verify", "--no-progress", "--verbose"], in: dir.url)
        XCTAssertTrue(
            verbose.stdout.split(separator: "\n").contains {
                $0.hasPrefix("  layout: ") && $0.contains("body.height +")
            }, "--verbose names each state's layout changes: \(verbose.output)")
        for file in [
            ".layoutsnap/report/index.html", ".layoutsnap/report/results.json", "junit.xml", "out/results.json",
            ".layoutsnap/report/actual/cards/small/01-expand/006.png",
            ".layoutsnap/report/diff/cards/small/01-expand/006.png",
            ".layoutsnap/report/expected/cards/small/01-expand/000.png",
            ".layoutsnap/report/actual/cards/small/layout.json",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path(file).path), file)
        }
        let results = try String(contentsOf: dir.path(".layoutsnap/report/results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("\"status\" : \"failed\""), results)
        XCTAssertTrue(results.contains("body.height +"), "layout changes name the element: \(results)")
        let junit = try String(contentsOf: dir.path("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("<failure"), junit)
        XCTAssertTrue(junit.contains("<testcase classname=\"cards/small\" name=\"01-expand\" time=\""), junit)
        XCTAssertTrue(junit.contains("frame 6"), junit)
        // Attachments resolve from the JUnit file's folder.
        let attachments = junit.components(separatedBy: "[[ATTACHMENT|").dropFirst().map {
            String($0.prefix { $0 != "]" })
        }
        XCTAssertFalse(attachments.isEmpty, junit)
        for path in attachments { XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path(path).path), path) }
        // Real times: the state took some time to render.
        XCTAssertFalse(junit.contains("name=\"01-expand\" time=\"0.000\""), junit)
        // The report must work without network.
        let html = try String(contentsOf: dir.path(".layoutsnap/report/index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("https://") || html.contains("http://"))

        // The report's golden is the golden's file, linked (same disk), not a copy; accepting
        // gives the golden a new file and leaves the report's as it was.
        func inode(_ path: String) throws -> UInt64 {
            try XCTUnwrap(
                FileManager.default.attributesOfItem(atPath: dir.path(path).path)[.systemFileNumber] as? UInt64)
        }
        let reportCopy = ".layoutsnap/report/expected/cards/small/01-expand/006.png"
        let golden = "Goldens/cards/small/01-expand/006.png"
        XCTAssertEqual(try inode(reportCopy), try inode(golden))
        let before = try Data(contentsOf: dir.path(reportCopy))
        let accept = try CLI.run(["accept", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accept.status, 0, accept.output)
        XCTAssertNotEqual(try inode(reportCopy), try inode(golden))
        XCTAssertEqual(try Data(contentsOf: dir.path(reportCopy)), before, "the report still shows the old golden")
        XCTAssertNotEqual(try Data(contentsOf: dir.path(golden)), before, "the golden is the accepted frame")
    }

    /// A passing run after a failing one leaves none of its images: the earlier folders are
    /// renamed aside and removed while the run goes on, and the run waits for that before it
    /// ends. What a killed run left aside goes too; a folder of the user's own stays. The folder a
    /// killed run left holds 20,000 files, more than the run takes to remove in the background:
    /// a run that did not wait for its clearing would end with it still there.
    func testAPassingRunClearsTheEarlierReport() throws {
        let dir = try project()
        let original = try String(contentsOf: dir.path("Fixtures/cards/small.json"), encoding: .utf8)
        try change(dir)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 1)
        let report = dir.path(".layoutsnap/report").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: report + "/actual/cards/small/01-expand/006.png"))
        let aside = report + "/.layoutsnap-clearing-1-expected"
        for folder in 0..<100 {
            try FileManager.default.createDirectory(atPath: aside + "/\(folder)", withIntermediateDirectories: true)
            for file in 0..<200 {
                let fd = open(aside + "/\(folder)/\(file).png", O_WRONLY | O_CREAT, 0o644)
                XCTAssertGreaterThanOrEqual(fd, 0)
                close(fd)
            }
        }
        try FileManager.default.createDirectory(atPath: report + "/mine", withIntermediateDirectories: true)
        try dir.write("Fixtures/cards/small.json", original)
        let passing = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(passing.status, 0, passing.output)
        // (expected/ is this run's: the card's lint findings show its frames.)
        let left = try FileManager.default.contentsOfDirectory(atPath: report).sorted()
        XCTAssertEqual(left.filter { $0 != "expected" }, ["index.html", "mine", "results.json"], "\(left)")
    }

    /// A run that shows the same frames as the run before keeps the earlier report's links to the
    /// goldens (the same files in the same folders, made again by none), drops what it no
    /// longer shows, and links a golden written since anew.
    func testARunKeepsTheGoldensItShowsAgainAndDropsTheRest() throws {
        let dir = try project()
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
        func inode(_ path: String) throws -> UInt64 {
            try XCTUnwrap(
                FileManager.default.attributesOfItem(atPath: dir.path(path).path)[.systemFileNumber] as? UInt64)
        }
        let report = ".layoutsnap/report/"
        let shown = "expected/cards/small/01-expand/000.png"
        let golden = "Goldens/cards/small/01-expand/000.png"
        // (The card's lint findings show its frames.)
        XCTAssertEqual(try inode(report + shown), try inode(golden))
        let folder = try inode(report + "expected/cards/small/01-expand")
        // Linking or unlinking a name of the file changes its status time.
        func changed(_ path: String) -> Int {
            var info = stat()
            XCTAssertEqual(lstat(dir.path(path).path, &info), 0, path)
            return info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec
        }
        let linked = changed(golden)
        // What an earlier report showed and this one will not: another fixture's golden, a file
        // of the card's state that is no frame of it, an empty folder.
        for stale in ["expected/cards/gone/01-expand/000.png", "expected/cards/small/01-expand/999.png"] {
            try dir.write(report + stale, "stale")
        }
        try FileManager.default.createDirectory(
            atPath: dir.path(report + "expected/empty/folder").path, withIntermediateDirectories: true)

        let again = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertEqual(try inode(report + shown), try inode(golden))
        XCTAssertEqual(try inode(report + "expected/cards/small/01-expand"), folder, "the folder was kept")
        XCTAssertEqual(changed(golden), linked, "the link was kept, not made again")
        for gone in [
            "expected/cards/gone", "expected/cards/small/01-expand/999.png", "expected/empty",
        ] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path(report + gone).path), gone)
        }
        // Every golden the results name is there.
        let results = try String(contentsOf: dir.path(report + "results.json"), encoding: .utf8)
        let named = results.components(separatedBy: "\"expected\" : \"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        XCTAssertFalse(named.isEmpty, results)
        for path in named { XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path(report + path).path), path) }

        // A golden written again since (a new file under its name): linked anew.
        let bytes = try Data(contentsOf: dir.path(golden))
        try FileManager.default.removeItem(at: dir.path(golden))
        try bytes.write(to: dir.path(golden))
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
        XCTAssertEqual(try inode(report + shown), try inode(golden))

        // A symbolic link in the kept folder is removed before the run: a golden's link is never
        // put, nor a file replaced, where it leads. Nor when expected/ itself is one.
        try dir.write("victim/000.png", "mine")
        try FileManager.default.removeItem(at: dir.path(report + "expected/cards/small/01-expand"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path(report + "expected/cards/small/01-expand").path,
            withDestinationPath: dir.path("victim").path)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
        XCTAssertEqual(try String(contentsOf: dir.path("victim/000.png"), encoding: .utf8), "mine")
        XCTAssertEqual(try inode(report + shown), try inode(golden))
        try FileManager.default.removeItem(at: dir.path(report + "expected"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path(report + "expected").path, withDestinationPath: dir.path("victim").path)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("victim").path), ["000.png"])
        XCTAssertEqual(try String(contentsOf: dir.path("victim/000.png"), encoding: .utf8), "mine")
        XCTAssertEqual(try inode(report + shown), try inode(golden))

        // A folder of the user's own (no results.json of layoutsnap's) keeps what its expected/
        // held: only what layoutsnap writes there is replaced.
        try dir.write("mine/expected/notes.txt", "mine")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--report", "mine"], in: dir.url).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("mine/expected/notes.txt").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("mine/" + shown).path))
    }

    func testAcceptPromotesActualFramesWithoutRendering() throws {
        let dir = try project()
        try change(dir)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 1)
        let refused = try CLI.run(["accept"], in: dir.url, environment: ["CI": "1"])
        XCTAssertEqual(refused.status, 2, refused.output)
        let accepted = try CLI.run(["accept", "cards/small", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accepted.status, 0, accepted.output)
        XCTAssertTrue(accepted.stdout.contains("frames accepted"), accepted.output)
        XCTAssertTrue(accepted.stdout.contains("1 layout.json updated"), accepted.output)
        let again = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
        let unknown = try CLI.run(["accept", "cards/nope", "--allow-ci"], in: dir.url)
        XCTAssertEqual(unknown.status, 2, unknown.output)
    }

    func testOrphansAreFoundAndPruned() throws {
        let dir = try project()
        // A state that no longer exists, and a fixture that no longer exists.
        try dir.write(
            "Fixtures/cards/small.json",
            smallPost().replacingOccurrences(of: #""steps": [{"expand": true}]"#, with: #""steps": []"#))
        try FileManager.default.createDirectory(
            at: dir.path("Goldens/cards/gone/initial"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: dir.path("Goldens/cards/small/initial/000.png"), to: dir.path("Goldens/cards/gone/initial/000.png"))
        let check = try CLI.run(["verify", "--no-progress", "--check-orphans"], in: dir.url)
        XCTAssertEqual(check.status, 1, check.output)
        // One line per removed state or fixture, not one per frame.
        XCTAssertTrue(
            check.stdout.contains("ORPHAN Goldens/cards/small/01-expand/ (7 files): state 01-expand no longer exists"),
            check.output)
        XCTAssertTrue(check.stdout.contains("ORPHAN Goldens/cards/gone/: no fixture cards/gone"), check.output)

        let refused = try CLI.run(
            ["record", "--prune", "--allow-ci", "--filter", "cards/*", "--no-progress"], in: dir.url)
        XCTAssertEqual(refused.status, 2, refused.output)
        let pruned = try CLI.run(["record", "--prune", "--allow-ci", "--no-progress"], in: dir.url)
        XCTAssertEqual(pruned.status, 0, pruned.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Goldens/cards/small/01-expand").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Goldens/cards/gone").path))
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--check-orphans"], in: dir.url).status, 0)
    }

    func testToleranceMakesASmallChangeSimilar() throws {
        let dir = try project()
        try dir.write(
            "Fixtures/cards/small.json",
            smallPost(title: "Small card.", extra: #", "tolerance": {"maxDiffPixels": 100000}"#))
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.stdout.contains("similar"), r.output)
    }
}

/// `layoutsnap diff A.png B.png`: counts, exit codes, the diff image.
final class DiffCommandTests: XCTestCase {
    func testIdenticalDifferentAndBadInput() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/a.json", smallPost())
        try dir.write("Fixtures/b.json", smallPost(title: "Other card"))
        try dir.write(
            "Fixtures/c.json", smallPost().replacingOccurrences(of: #""height": 160"#, with: #""height": 170"#))
        XCTAssertEqual(try CLI.run(["render", "--out", "out", "--no-progress"], in: dir.url).status, 0)
        let a = "out/a/initial/000.png"
        let b = "out/b/initial/000.png"

        let same = try CLI.run(["diff", a, a], in: dir.url)
        XCTAssertEqual(same.status, 0, same.output)
        XCTAssertTrue(same.stdout.hasPrefix("0 pixels differ (identical)"), same.output)

        let different = try CLI.run(["diff", a, b, "--out", "d.png"], in: dir.url)
        XCTAssertEqual(different.status, 1, different.output)
        XCTAssertTrue(different.stdout.contains("pixels differ"), different.output)
        XCTAssertTrue(different.stdout.contains("region x "), different.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("d.png").path))
        let allowed = try CLI.run(["diff", a, b, "--max-diff-ratio", "1"], in: dir.url)
        XCTAssertEqual(allowed.status, 0, allowed.output)

        try dir.write("not.png", "hello")
        let bad = try CLI.run(["diff", a, "not.png"], in: dir.url)
        XCTAssertEqual(bad.status, 2, bad.output)
        XCTAssertTrue(bad.stderr.contains("not.png: not a PNG file"), bad.output)

        let c = "out/c/initial/000.png"
        let sizes = try CLI.run(["diff", a, c], in: dir.url)
        XCTAssertEqual(sizes.status, 1, sizes.output)
        XCTAssertTrue(sizes.stdout.contains("size differs"), sizes.output)
    }
}
