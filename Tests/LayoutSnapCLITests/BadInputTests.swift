import XCTest

/// Bad fixtures get exit 2 and a message naming the file and the JSON path (or line and column);
/// every other fixture still runs.
final class BadInputTests: XCTestCase {
    func runBatch(_ files: [String: String]) throws -> CLI.Result {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/good.json", smallPost())
        for (name, text) in files { try dir.write("Fixtures/cards/\(name)", text) }
        XCTAssertEqual(
            try CLI.run(["record", "--no-progress", "--allow-ci", "Fixtures/cards/good.json"], in: dir.url).status, 0)
        return try CLI.run(["verify", "--no-progress"], in: dir.url)
    }

    /// Two files outside Fixtures/ named alike get the same id: refused before anything is
    /// written, since their goldens would share one folder.
    func testCollidingIdsAreRefusedBeforeWriting() throws {
        let dir = try TempDir()
        try dir.write("a/card.json", smallPost())
        try dir.write("b/card.json", smallPost(title: "Other"))
        for command in [["record", "--allow-ci"], ["render", "--out", "out"], ["verify"]] {
            let r = try CLI.run(command + ["--no-progress", "a/card.json", "b/card.json"], in: dir.url)
            XCTAssertEqual(r.status, 2, r.output)
            XCTAssertTrue(r.stderr.contains("a/card.json and b/card.json both have the id \"card\""), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Goldens").path), "nothing recorded")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out").path), "nothing rendered")
    }

    /// A folder whose name is not UTF-8 cannot be walked by a path: verify and record report it,
    /// exit 2, and the rest still run; `record --prune` then takes the run as not the whole set
    /// and deletes none of the goldens its fixtures were recorded under.
    func testAFolderNameThatIsNotUTF8IsAnErrorAndPrunesNothing() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/good.json", smallPost())
        try dir.write("Fixtures/more/b.json", smallPost(title: "B"))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let old = Array(dir.path("Fixtures/more").path.utf8CString)
        let new = old.dropLast().map { $0 } + [CChar(bitPattern: 0xFE), 0]
        XCTAssertEqual(rename(old, new), 0)
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 2, verify.output)
        XCTAssertTrue(
            verify.stderr.contains(
                "error: Fixtures/more\u{FFFD}: this folder's name is not UTF-8 (\u{FFFD} stands for each byte that is not): the fixtures in it were not run; rename it"
            ), verify.stderr)
        XCTAssertTrue(verify.stdout.contains("passed"), verify.output)
        // Selected by no filter or variant: what the folder hides may match either.
        for selection in [["--filter", "cards/*"], ["--variant", "dark"]] {
            let selected = try CLI.run(["verify", "--no-progress"] + selection, in: dir.url)
            XCTAssertEqual(selected.status, 2, selected.output)
            XCTAssertTrue(selected.stderr.contains("error: Fixtures/more\u{FFFD}: this folder's name"), selected.output)
        }
        let prune = try CLI.run(["record", "--no-progress", "--allow-ci", "--prune"], in: dir.url)
        XCTAssertEqual(prune.status, 2, prune.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("Goldens/more/b/initial/000.png").path))
    }

    /// docs/goldens.md: a different rendering environment is reported once, apart from the pixel results;
    /// --strict-env makes it a failure.
    func testEnvironmentDriftIsReportedOnceAndStrictEnvFails() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/good.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let manifest = dir.path("Goldens/manifest.json")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        let architecture = try XCTUnwrap(text.range(of: #""architecture": "[^"]+""#, options: .regularExpression))
        text.replaceSubrange(architecture, with: #""architecture": "sparc64""#)
        let pango = try XCTUnwrap(text.range(of: #""pango": "[^"]+""#, options: .regularExpression))
        text.replaceSubrange(pango, with: #""pango": "0.9.0""#)
        try Data(text.utf8).write(to: manifest)

        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 0, "pixels still pass: \(r.output)")
        XCTAssertEqual(r.stderr.components(separatedBy: "environment differs").count - 1, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("architecture sparc64 → "), r.stderr)
        XCTAssertTrue(r.stderr.contains("pango 0.9.0 → "), r.stderr)
        XCTAssertTrue(withoutCacheCount(r.stdout).contains("8 passed, 0 failed"), r.output)
        let results = try String(contentsOf: dir.path(".layoutsnap/report/results.json"), encoding: .utf8)
        XCTAssertTrue(results.contains("architecture sparc64 → "), "results.json lists the differences")

        let strict = try CLI.run(["verify", "--no-progress", "--strict-env"], in: dir.url)
        XCTAssertEqual(strict.status, 1, strict.output)
        XCTAssertTrue(strict.stderr.contains("error: environment differs"), strict.stderr)
    }

    /// The per-fixture watchdog: a fixture that lays out (3,000 edits) or renders (thousands of
    /// frames) for longer than --timeout is stopped with an error naming it; the others still run.
    func testWatchdogStopsASlowFixtureAndTheBatchGoesOn() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/good.json", smallPost())
        let edits = Array(repeating: #"{"type": "word "}"#, count: 3000).joined(separator: ", ")
        try dir.write("Fixtures/slow/edits.json", #"{"kind": "composer", "fps": 10, "steps": [\#(edits)]}"#)
        try dir.write(
            "Fixtures/slow/frames.json",
            smallPost(extra: #", "duration": 60"#).replacingOccurrences(of: #""fps": 20"#, with: #""fps": 120"#))
        let started = Date()
        let r = try CLI.run(["render", "--out", "out", "--no-progress", "--timeout", "1"], in: dir.url)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(
            r.stderr.contains(
                "Fixtures/slow/edits.json: stopped after 1 s (the --timeout limit) while laying out text"), r.stderr)
        XCTAssertTrue(
            r.stderr.contains(
                "Fixtures/slow/frames.json: stopped after 1 s (the --timeout limit) while rendering 01-expand frame "),
            r.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: dir.path("out/cards/good/01-expand/006.png").path),
            "the good fixture still rendered: \(r.output)")
        XCTAssertLessThan(seconds, 30, "both were stopped near their limit")
        // record stops the same way and keeps no part of the stopped fixtures.
        let record = try CLI.run(["record", "--no-progress", "--allow-ci", "--timeout", "1"], in: dir.url)
        XCTAssertEqual(record.status, 2, record.output)
        let goldens = try FileManager.default.subpathsOfDirectory(atPath: dir.path("Goldens").path)
        XCTAssertFalse(
            goldens.contains { $0.hasPrefix("slow/") && $0.hasSuffix(".png") || $0.hasSuffix(".pending") },
            "\(goldens.filter { $0.hasPrefix("slow") })")
        let manifest = try String(contentsOf: dir.path("Goldens/manifest.json"), encoding: .utf8)
        XCTAssertFalse(manifest.contains("slow/"))
        XCTAssertTrue(manifest.contains("cards/good/01-expand/006.png"))
        let bad = try CLI.run(["render", "--out", "out", "--timeout", "0"], in: dir.url)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--timeout must be a positive number of seconds"), bad.stderr)
    }

    func testUnknownFieldNamesPathAndSuggestion() throws {
        let r = try runBatch(["typo.json": smallPost(extra: ", \"titel\": \"x\"")])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("Fixtures/cards/typo.json:"), r.output)
        XCTAssertTrue(r.stderr.contains("$.titel: unknown field \"titel\"; did you mean \"title\"?"), r.output)
        XCTAssertTrue(
            withoutCacheCount(r.stdout).contains("8 passed, 0 failed"), "the good fixture still verified: \(r.output)")
    }

    func testWrongTypeNamesPathLineAndColumn() throws {
        let text = """
            {
              "kind": "post", "width": 200, "height": 160, "scale": 1,
              "steps": [{"expand": true}, {"collapse": true, "at": "soon"}]
            }
            """
        let r = try runBatch(["type.json": text])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("Fixtures/cards/type.json:3:"), r.output)
        XCTAssertTrue(r.stderr.contains("$.steps[1].at: expected a number, found a string"), r.output)
    }

    func testBrokenJSONNamesLineAndColumn() throws {
        let r = try runBatch(["broken.json": "{\n  \"kind\": \"post\",\n  \"title\": \"x\"\n  \"summary\": \"y\"\n}\n"])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("Fixtures/cards/broken.json:4:3: invalid JSON"), r.output)
        XCTAssertTrue(withoutCacheCount(r.stdout).contains("8 passed, 0 failed"), r.output)
    }

    func testLimitsAreErrorsNotCrashes() throws {
        let r = try runBatch([
            "huge.json": #"{"kind": "post", "width": 8192, "height": 8192, "scale": 8}"#,
            "font.json": #"{"kind": "post", "fps": 1000}"#,
            "frames.json": #"{"kind": "post", "fps": 240, "duration": 60, "steps": [{"expand": true}]}"#,
            "kind.json": #"{"kind": "carousel"}"#,
            "image.json": #"{"kind": "post", "image": {"path": "images/nope.png"}}"#,
        ])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("huge.json"), r.output)
        XCTAssertTrue(r.stderr.contains("more than the limit of 67108864 pixels"), r.output)
        XCTAssertTrue(r.stderr.contains("font.json:1:"), r.output)
        XCTAssertTrue(r.stderr.contains("$.fps: expected frames per second from 1 to 240, found 1000"), r.output)
        XCTAssertTrue(
            r.stderr.contains(
                "frames.json:1:55: $.steps: the steps produce 14402 frames, more than the limit of 10000"),
            r.output)
        XCTAssertTrue(r.stderr.contains("$.kind: unknown kind \"carousel\""), r.output)
        XCTAssertTrue(r.stderr.contains("$.image.path: image file not found: images/nope.png"), r.output)
        XCTAssertTrue(withoutCacheCount(r.stdout).contains("8 passed, 0 failed, 5 errors"), r.output)
    }

    /// A fixture, or an image it names, that is a named pipe no one writes to: an error at once
    /// naming the file, never a run waiting for a writer; the batch goes on.
    func testNamedPipesAreErrorsNotWaits() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/good.json", smallPost())
        try dir.write("Fixtures/cards/pictured.json", #"{"kind": "post", "image": {"path": "images/pipe.png"}}"#)
        try FileManager.default.createDirectory(
            at: dir.path("Fixtures/cards/images"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(dir.path("Fixtures/cards/pipe.json").path, 0o600), 0)
        XCTAssertEqual(mkfifo(dir.path("Fixtures/cards/images/pipe.png").path, 0o600), 0)
        let r = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url, timeout: 60)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("Fixtures/cards/pipe.json: cannot be read"), r.output)
        XCTAssertTrue(r.stderr.contains("pictured.json"), r.output)
        XCTAssertTrue(r.stdout.contains("recorded cards/good"), r.output)
    }

    func testUnknownArgumentsAreUsageErrors() throws {
        let r = try CLI.run(["verify", "--no-such-flag"])
        XCTAssertEqual(r.status, 2, "a bad argument is bad input: \(r.output)")
        let missing = try CLI.run(["verify", "no/such/path", "--no-progress"])
        XCTAssertEqual(missing.status, 2, missing.output)
        XCTAssertTrue(missing.stderr.contains("no/such/path: no such file or folder"), missing.output)
    }

    func testComposerMistakesNameTheirPath() throws {
        let r = try runBatch([
            "pattern.json": #"{"kind": "composer", "height": 600, "pattern": "([a-z"}"#,
            "select.json":
                #"{"kind": "composer", "height": 600, "text": "abc", "steps": [{"type": "d"}, {"select": [2, 9]}]}"#,
            "keyboard.json": #"{"kind": "composer", "height": 600, "steps": [{"keyboard": "up"}]}"#,
            "short.json": #"{"kind": "composer", "height": 300}"#,
            "selection.json": #"{"kind": "composer", "text": "ab", "selection": [1, 5]}"#,
        ])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("pattern.json:1:"), r.output)
        XCTAssertTrue(r.stderr.contains("$.pattern: \"([a-z\" is not a valid regular expression"), r.output)
        XCTAssertTrue(
            r.stderr.contains(
                "select.json:1:88: $.steps[1].select: the selection [2, 9] ends past the text, which has 4 characters at this step"
            ), r.output)
        XCTAssertTrue(r.stderr.contains("$.steps[0].keyboard: expected \"show\" or \"hide\", found \"up\""), r.output)
        XCTAssertTrue(r.stderr.contains("short.json:1:32: $.height: the canvas is 300 pt tall"), r.output)
        XCTAssertTrue(
            r.stderr.contains("$.selection: the selection ends at 5, past the end of the text (2 characters)"), r.output
        )
        XCTAssertTrue(withoutCacheCount(r.stdout).contains("8 passed, 0 failed, 5 errors"), r.output)
    }

    func testChatMistakesNameTheirPath() throws {
        let r = try runBatch([
            "role.json": #"{"kind": "chat", "messages": [{"id": "a", "role": "bot", "text": "x"}]}"#,
            "dup.json": #"{"kind": "chat", "messages": [{"id": "a", "role": "user"}, {"id": "a", "role": "user"}]}"#,
            "stream.json": #"{"kind": "chat", "steps": [{"stream": "x"}]}"#,
            "ratio.json": #"{"kind": "chat", "messages": [{"role": "user", "image": {"aspectRatio": 0}}]}"#,
        ])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(
            r.stderr.contains("$.messages[0].role: unknown value \"bot\"; expected one of: user, assistant"), r.output)
        XCTAssertTrue(r.stderr.contains("$.messages[1]: the id \"a\" is used by an earlier message"), r.output)
        XCTAssertTrue(
            r.stderr.contains("stream.json:1:39: $.steps[0].stream: there is no message to stream into"), r.output)
        XCTAssertTrue(r.stderr.contains("$.messages[0].image.aspectRatio: expected an aspect ratio"), r.output)
        XCTAssertTrue(withoutCacheCount(r.stdout).contains("8 passed, 0 failed, 4 errors"), r.output)
    }
}
