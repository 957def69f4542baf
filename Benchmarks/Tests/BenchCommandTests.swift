import Foundation
import LayoutSnapTestSupport
import XCTest

/// The benchmark is a command, not a timed test: this only checks that `layoutsnap-bench` runs
/// beside the `layoutsnap` it measures and reports every figure docs/performance.md quotes.
final class BenchCommandTests: XCTestCase {
    static let post = """
        {
          "kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": 160,
          "title": "Small card", "summary": "A summary", "body": "Body text", "author": "Ann",
          "fps": 20, "steps": [{"expand": true}], "variants": {"textSize": ["AX3"]}
        }
        """

    func run(_ program: String, _ arguments: [String], in directory: URL) throws -> TestProcess.Output {
        try TestProcess.run(TestPaths.builtProduct(program), arguments, in: directory, timeout: 900)
    }

    func folder() throws -> URL {
        let url = try makeTemporaryFolder("bench")
        addTeardownBlock { removeTemporaryFolder(url) }
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("Fixtures/cards"), withIntermediateDirectories: true)
        try Data(Self.post.utf8).write(to: url.appendingPathComponent("Fixtures/cards/small.json"))
        return url
    }

    func testBenchPrintsEveryFigure() throws {
        let dir = try folder()
        // With a variant, so the variants figure runs too.
        XCTAssertEqual(try run("layoutsnap", ["record", "--no-progress", "--allow-ci"], in: dir).status, 0)
        let r = try run(
            "layoutsnap-bench",
            [
                "--repeats", "1", "--generate", "40", "--verify-generated", "8", "--memory-fixtures", "20",
                "--cause-frames", "200",
            ], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        for label in [
            "render only", "verify, unchanged", "record, all new", "PNG encode", "verify, 2 jobs", "Pango layouts",
            "peak memory",
            "chat,   10 messages", "chat, 5000 messages", "chat, 5000 vs 10", "variants, verify   8 frames as variants",
            "motion diff        199-frame state", "causes             200 failing frames of 1179 x 2556 px",
            "generate           40 fixtures", "generated, verify  8 fixtures", "exit 0; peak memory",
            "memory, verify     2 generated fixtures", "memory, verify     20 generated fixtures",
            "memory, flat       20 vs 2 fixtures",
        ] {
            XCTAssertTrue(r.stdout.contains(label), "\(label) missing: \(r.output)")
        }
        XCTAssertTrue(r.stdout.contains("16 frames passed"), r.stdout)
    }

    /// `layoutsnap-bench page`: the report page of many failing frames loaded in Chromium (the
    /// figure is printed, never asserted).
    func testPageFigure() throws {
        guard TestTools.chromium() != nil else {
            if TestTools.required { XCTFail(TestTools.chromiumMissing) }
            throw XCTSkip(TestTools.chromiumMissing)
        }
        let dir = try makeTemporaryFolder("bench-page")
        defer { removeTemporaryFolder(dir) }
        let r = try run(
            "layoutsnap-bench",
            ["page", "--frames", "300", "--repeats", "1", "--chromium", TestTools.chromium()!.path], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.stdout.contains("report page        300 failing frames, 3 causes"), r.output)
        XCTAssertTrue(r.stdout.contains("interactive at "), r.output)
    }

    /// `layoutsnap-bench cache`: every bundled-suite line for this build and a baseline, and
    /// the runs keep to caches of the bench's own: the user's `XDG_CACHE_HOME` is left as it was
    /// (its memos would hold whatever else the machine verified, and the baseline would share them).
    func testCacheFiguresKeepToTheirOwnCaches() throws {
        let dir = try folder()
        XCTAssertEqual(try run("layoutsnap", ["record", "--no-progress", "--allow-ci"], in: dir).status, 0)
        let home = dir.appendingPathComponent("user-cache")
        let layoutsnap = TestPaths.builtProduct("layoutsnap").path
        // The server's folders on tmpfs, which the bench removes when it stops its server.
        func serverFolders() -> Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []).filter {
                    $0.hasPrefix("layoutsnap-bench-nginx-")
                })
        }
        let foldersBefore = serverFolders()
        let r = try TestProcess.run(
            TestPaths.builtProduct("layoutsnap-bench"),
            ["cache", "--repeats", "2", "--generated", "0", "--baseline", layoutsnap], in: dir,
            environment: ["XDG_CACHE_HOME": home.path], timeout: 900)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.stdout.contains("the bundled suite, 16 frames, fastest of 2 rounds"), r.output)
        for name in ["cold, 1 job", "cold, 2 jobs", "cold, cache on", "warm, local", "audited hit"] {
            XCTAssertEqual(
                r.stdout.split(separator: "\n").filter { $0.hasPrefix(name + " ") }.count, 2,
                "\(name): this build's and the baseline's: \(r.output)")
        }
        XCTAssertTrue(r.stdout.contains("16 of 16 frames from cache"), r.output)
        // CPU medians as peak-of read them from wait4: a run takes some.
        let cacheOn = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("cold, cache on ") })
        let cpu = try XCTUnwrap(cacheOn.range(of: #"CPU [0-9.]+ s against [0-9.]+ s"#, options: .regularExpression))
        XCTAssertFalse(cacheOn[cpu].contains("CPU 0.000 s") || cacheOn[cpu].hasSuffix(" 0.000 s"), r.output)
        // The rounds' own ratios beside the fastest's, on the lines with a target.
        for (prefix, pattern) in [
            ("cold, 2 jobs ", #"; rounds' own [0-9.]+x \([0-9.]+ to [0-9.]+x\)"#),
            ("cold, cache on ", #"; rounds' own [0-9.]+x \([0-9.]+ to [0-9.]+x\)"#),
            ("warm, local ", #"; rounds' own [0-9.]+% \([0-9.]+ to [0-9.]+%\)"#),
        ] {
            let line = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) })
            XCTAssertNotNil(line.range(of: pattern, options: .regularExpression), "\(prefix): \(r.output)")
        }
        if r.stdout.contains("warm, remote") {
            let remote = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("cold, remote ") })
            let nginx = try XCTUnwrap(remote.range(of: #"nginx's own [0-9.]+ ms"#, options: .regularExpression))
            let ms = Double(remote[nginx].dropFirst("nginx's own ".count).dropLast(" ms".count))
            XCTAssertGreaterThan(try XCTUnwrap(ms), 0, "a cold round's uploads cost the server something: \(r.output)")
            let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
            if mounts.contains(" /dev/shm tmpfs ") && access("/dev/shm", W_OK) == 0 {
                XCTAssertTrue(remote.contains("its files on tmpfs"), r.output)
            }
            for name in ["warm, 4 checkouts", "warm, 10 ms away", "cold, 10 ms away"] {
                XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasPrefix(name + " ") }.count, 2, r.output)
            }
            XCTAssertFalse(r.stdout.contains("goldens memos, not"), "a memo per checkout: \(r.output)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path), "the user's cache was written")
        XCTAssertTrue(serverFolders().isSubset(of: foldersBefore), "the server's folder was left on tmpfs")
    }

    /// `layoutsnap-bench start`: every command's three figures, for this build and a baseline in
    /// the same rounds; the warm verify's summary says every frame came from the cache.
    func testStartFigures() throws {
        let dir = try folder()
        XCTAssertEqual(try run("layoutsnap", ["record", "--no-progress", "--allow-ci"], in: dir).status, 0)
        let layoutsnap = TestPaths.builtProduct("layoutsnap").path
        let r = try run("layoutsnap-bench", ["start", "--rounds", "3", "--baseline", layoutsnap], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            lines.first?.hasPrefix("layoutsnap-bench start: whole processes, 3 interleaved rounds") ?? false, r.output)
        XCTAssertFalse(r.stdout.contains("nan"), r.output)
        for name in ["--version", "diff, identical", "verify, warm"] {
            let figures = lines.filter { $0.hasPrefix(name + " ") }
            XCTAssertEqual(figures.count, 2, "\(name): this build's and the baseline's: \(r.output)")
            XCTAssertTrue(figures.last?.contains("the baseline's fastest") ?? false, r.output)
            for line in figures {
                // fastest / first quartile / median, in that order.
                let ms = line.dropFirst(18).split(separator: "/").prefix(3).compactMap {
                    Double($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
                }
                XCTAssertEqual(ms.count, 3, line)
                XCTAssertEqual(ms, ms.sorted(), line)
            }
        }
        XCTAssertTrue(r.stdout.contains("16 passed (16 from cache), 0 failed"), r.output)
        XCTAssertTrue(r.stdout.contains("Goldens/cards/small"), r.output)

        // A baseline whose verify never uses its cache (a wrapper that swaps --cache for --no-cache): its warm
        // rounds render, so they are named and left out of its times, and the bench fails.
        let cold = dir.appendingPathComponent("cold-baseline")
        try Data(
            """
            #!/bin/sh
            if [ "$1" = verify ]; then
              for a do
                shift
                if [ -n "$skip" ]; then skip=; continue; fi
                if [ "$a" = --cache ]; then skip=1; continue; fi
                set -- "$@" "$a"
              done
              exec "\(layoutsnap)" "$@" --no-cache
            fi
            exec "\(layoutsnap)" "$@"
            """.utf8
        ).write(to: cold)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cold.path)
        let renders = try run("layoutsnap-bench", ["start", "--rounds", "2", "--baseline", cold.path], in: dir)
        XCTAssertEqual(renders.status, 1, renders.output)
        XCTAssertTrue(
            renders.stdout.contains("unexpected: baseline verify, warm: not every frame from the cache: 16 passed, 0"),
            renders.output)
        XCTAssertEqual(renders.stdout.components(separatedBy: "not every frame from the cache").count - 1, 2)
        // Its other commands still have their figures; its warm line has none to give.
        XCTAssertEqual(renders.stdout.split(separator: "\n").filter { $0.hasPrefix("verify, warm ") }.count, 1)
        XCTAssertEqual(renders.stdout.split(separator: "\n").filter { $0.hasPrefix("--version ") }.count, 2)

        let empty = try makeTemporaryFolder("bench-start-empty")
        defer { removeTemporaryFolder(empty) }
        let none = try run("layoutsnap-bench", ["start", "--rounds", "1"], in: empty)
        XCTAssertEqual(none.status, 2, none.output)
        XCTAssertTrue(none.stderr.contains("no PNG under Goldens: record the goldens first"), none.stderr)
    }

    func testBenchNeedsGoldens() throws {
        let dir = try folder()
        let r = try run("layoutsnap-bench", ["--repeats", "1"], in: dir)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("record the goldens first"), r.stderr)
    }

    func testBenchNamesAMissingLayoutsnap() throws {
        let dir = try folder()
        let r = try run("layoutsnap-bench", ["--layoutsnap", "/nonexistent/layoutsnap"], in: dir)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("no layoutsnap binary at /nonexistent/layoutsnap"), r.stderr)
    }

    /// `layoutsnap-bench diff`: the side-by-side lines alone, a baseline binary timed in the same
    /// rounds, and the pairs kept where asked (to profile one of them by hand).
    func testDiffSideBySideAlone() throws {
        let dir = try folder()
        let layoutsnap = TestPaths.builtProduct("layoutsnap").path
        let r = try run(
            "layoutsnap-bench",
            ["diff", "--repeats", "1", "--baseline", layoutsnap, "--keep", dir.appendingPathComponent("pairs").path],
            in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        for pair in ["1 MP identica", "1 MP changed", "8 MP identica", "8 MP changed"] {
            let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("diff \(pair)") }
            XCTAssertNotNil(line, "\(pair) missing: \(r.output)")
            XCTAssertTrue(line?.contains("baseline") ?? false, "\(pair): no baseline figure: \(r.output)")
        }
        XCTAssertTrue(r.stdout.contains("0 px differ") && r.stdout.contains("1660 px differ"), r.stdout)
        // A debug build loads the Swift runtime as shared libraries (ldd says whether this one
        // does; CI runs the tests on the package's static build): the figures say so.
        let ldd = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/ldd"), [layoutsnap], in: dir, timeout: 60)
        XCTAssertEqual(
            r.stdout.contains("note: \(layoutsnap) loads the Swift runtime as shared libraries"),
            ldd.stdout.contains("libswiftCore.so"), r.stdout + ldd.output)
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pairs").path)
            .sorted()
        XCTAssertEqual(
            kept, ["1024-a-copy.png", "1024-a.png", "1024-b.png", "3840-a-copy.png", "3840-a.png", "3840-b.png"])
        let missing = try run("layoutsnap-bench", ["diff", "--baseline", "/nonexistent/layoutsnap"], in: dir)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("--baseline: no executable at /nonexistent/layoutsnap"), missing.stderr)
    }
}
