import XCTest

/// `layoutsnap generate` end to end (docs/commands.md "generate"): the same seed writes the same tree, and what it
/// writes renders with zero errors.
final class GenerateTests: XCTestCase {
    /// Fixtures per kind in the property test: a few hundred, rendered in about 45 s by a debug build
    /// on two cores.
    static let perKind = 300

    /// The property test: a few hundred fixtures of each kind render with no error (exit 0), and a
    /// second run with the same seed (on one thread instead of all) writes byte-identical files.
    ///
    /// Rendered with `--scale 0.5 --fps 15`: a debug build spends most of a frame on pixels (PNG
    /// filtering and hashing are Swift loops), while this test is about layouts and drawing that
    /// never fail, which do not depend on the pixel count. At the fixtures' own scale and fps the
    /// same 1,200 fixtures take about 4 minutes (24,000 frames) instead of 45 s (21,000 frames);
    /// the release-build check of 1,000 fixtures a kind in docs/commands.md "generate" uses no overrides.
    func testGeneratedFixturesRenderWithoutErrorsAndSameSeedGivesSameBytes() throws {
        let dir = try TempDir()
        let count = 4 * Self.perKind
        let a = try CLI.run(
            ["generate", "--kind", "all", "--count", "\(count)", "--seed", "20240917", "--out", "a"], in: dir.url)
        XCTAssertEqual(a.status, 0, a.output)
        let n = Self.perKind
        XCTAssertEqual(
            a.stdout, "generated \(count) fixtures (\(n) transcript, \(n) composer, \(n) chat, \(n) post) in a\n")
        let b = try CLI.run(
            ["generate", "--kind", "all", "--count", "\(count)", "--seed", "20240917", "--out", "b", "--jobs", "1"],
            in: dir.url)
        XCTAssertEqual(b.status, 0, b.output)
        let files = try tree(dir.path("a"))
        XCTAssertEqual(files, try tree(dir.path("b")))
        XCTAssertEqual(files.count, count)
        XCTAssertEqual(files.first, "chat/chat-000000.json")
        for file in files {
            XCTAssertEqual(
                try Data(contentsOf: dir.path("a/" + file)), try Data(contentsOf: dir.path("b/" + file)), file)
        }

        let render = try CLI.run(
            ["render", "a", "--out", "frames", "--scale", "0.5", "--fps", "15", "--no-progress"], in: dir.url)
        XCTAssertEqual(render.status, 0, render.output)
        XCTAssertFalse(render.stderr.contains("error"), render.output)
        XCTAssertTrue(render.stdout.contains("frames rendered to frames"), render.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("frames/post/post-000000/layout.json").path))
    }

    /// A smaller count is a prefix of a larger one, `--kind all` holds the same files as one kind
    /// alone, and generating again into the folder removes the earlier batch's extra fixtures
    /// (and nothing else).
    func testPrefixesKindsAndRegeneration() throws {
        let dir = try TempDir()
        XCTAssertEqual(
            try CLI.run(["generate", "--kind", "all", "--count", "12", "--seed", "3", "--out", "big"], in: dir.url)
                .status, 0)
        XCTAssertEqual(
            try CLI.run(["generate", "--kind", "post", "--count", "2", "--seed", "3", "--out", "posts"], in: dir.url)
                .status, 0)
        XCTAssertEqual(try tree(dir.path("posts")), ["post/post-000000.json", "post/post-000001.json"])
        for file in try tree(dir.path("posts")) {
            XCTAssertEqual(
                try Data(contentsOf: dir.path("posts/" + file)), try Data(contentsOf: dir.path("big/" + file)), file)
        }
        let before = try tree(dir.path("big")).map { ($0, try Data(contentsOf: dir.path("big/" + $0))) }
        try dir.write("big/post/notes.json", "{}")
        try dir.write("big/post/post-7.json", "{}")
        let r = try CLI.run(["generate", "--kind", "all", "--count", "6", "--seed", "3", "--out", "big"], in: dir.url)
        XCTAssertEqual(r.stdout, "generated 6 fixtures (2 transcript, 2 composer, 1 chat, 1 post) in big\n")
        let after = try tree(dir.path("big"))
        XCTAssertEqual(
            after,
            [
                "chat/chat-000000.json", "composer/composer-000000.json", "composer/composer-000001.json",
                "post/notes.json", "post/post-000000.json", "post/post-7.json",
                "transcript/transcript-000000.json", "transcript/transcript-000001.json",
            ])
        for (file, data) in before where after.contains(file) {
            XCTAssertEqual(
                try Data(contentsOf: dir.path("big/" + file)), data, "\(file) is a prefix of the larger batch")
        }
    }

    func testBadArgumentsExitTwoWithAMessage() throws {
        let cases: [([String], String)] = [
            (
                ["--kind", "carousel", "--count", "1", "--seed", "1", "--out", "x"],
                "unknown kind \"carousel\"; expected one of: transcript, composer, chat, post, all"
            ),
            (
                ["--kind", "post", "--count", "0", "--seed", "1", "--out", "x"],
                "--count must be from 1 to 1000000, found 0"
            ),
            (
                ["--kind", "post", "--count", "1000001", "--seed", "1", "--out", "x"],
                "--count must be from 1 to 1000000, found 1000001"
            ),
            (["--kind", "post", "--count", "1", "--seed", "-1", "--out", "x"], "--seed"),
            (
                ["--kind", "post", "--count", "1", "--seed", "18446744073709551616", "--out", "x"],
                "--seed must be a whole number from 0 to 18446744073709551615"
            ),
            (["--kind", "post", "--count", "1", "--seed", "1"], "--out"),
        ]
        let dir = try TempDir()
        for (arguments, message) in cases {
            let r = try CLI.run(["generate"] + arguments, in: dir.url)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.output)")
            XCTAssertTrue(r.stderr.contains(message), "\(arguments): \(r.output)")
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: dir.path("x").path), "nothing is written on a bad argument")
    }

    /// Every file below `root`, sorted, relative to it.
    func tree(_ root: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: root.path)
            .filter { !$0.hasSuffix("/") && !isDirectory(root.appendingPathComponent($0)) }.sorted()
    }

    func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
