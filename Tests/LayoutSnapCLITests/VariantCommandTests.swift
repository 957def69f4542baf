import Foundation
import XCTest

/// Variants as a user runs them: each is a fixture of its own (`<id>@<name>`) with its own
/// goldens; `--variant` and `--filter` select them; adding one leaves the others' goldens alone,
/// removing one leaves orphans.
final class VariantCommandTests: XCTestCase {
    func transcript(_ sizes: [String]) -> String {
        #"{"kind": "transcript", "width": 200, "height": 160, "scale": 1, "text": "One\nTwo", "variants": {"textSize": [\#(sizes.map { "\"\($0)\"" }.joined(separator: ", "))]}}"#
    }

    func goldenBytes(_ dir: TempDir) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = dir.path("Goldens")
        for case let path as String in FileManager.default.enumerator(atPath: root.path)!
        where path.hasSuffix(".png") || path.hasSuffix("layout.json") {
            files[path] = try Data(contentsOf: root.appendingPathComponent(path))
        }
        return files
    }

    func testVariantsHaveTheirOwnGoldensAndAreSelectedByName() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/t/v.json", transcript(["xSmall", "AX3"]))
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        let before = try goldenBytes(dir)
        XCTAssertEqual(
            Set(before.keys),
            [
                "t/v/initial/000.png", "t/v/layout.json", "t/v@xSmall/initial/000.png", "t/v@xSmall/layout.json",
                "t/v@AX3/initial/000.png", "t/v@AX3/layout.json",
            ])
        // AX3 text is taller: its layout says so.
        let ax3 = try String(contentsOf: dir.path("Goldens/t/v@AX3/layout.json"), encoding: .utf8)
        XCTAssertTrue(ax3.contains("\"fixture\" : \"t/v@AX3\"") || ax3.contains("\"fixture\": \"t/v@AX3\""), ax3)
        XCTAssertNotEqual(before["t/v@AX3/initial/000.png"], before["t/v/initial/000.png"])

        let verify = try CLI.run(["verify", "--no-progress", "--check-orphans"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertTrue(verify.stdout.contains("3 passed"), verify.output)
        for (arguments, count) in [
            (["--variant", "AX3"], "1 passed"), (["--variant", "ax3"], "1 passed"),
            (["--variant", "xsmall"], "1 passed"), (["--filter", "t/*@*AX*"], "1 passed"),
            (["--filter", "t/v"], "1 passed"),
        ] {
            let r = try CLI.run(["verify", "--no-progress"] + arguments, in: dir.url)
            XCTAssertEqual(r.status, 0, "\(arguments): \(r.output)")
            XCTAssertTrue(r.stdout.contains(count), "\(arguments): \(r.output)")
        }
        let unknown = try CLI.run(["verify", "--no-progress", "--variant", "AX5"], in: dir.url)
        XCTAssertEqual(unknown.status, 2, unknown.output)
        XCTAssertTrue(
            unknown.output.contains("no fixture has a variant named \"AX5\"; the variants are: AX3, xSmall"),
            unknown.output)

        // layout and render take --variant too.
        let layout = try CLI.run(["layout", "Fixtures/t/v.json", "--variant", "AX3"], in: dir.url)
        XCTAssertEqual(layout.status, 0, layout.output)
        XCTAssertTrue(layout.stdout.contains("t/v@AX3"), layout.stdout)
        let missing = try CLI.run(["layout", "Fixtures/t/v.json", "--variant", "AX9"], in: dir.url)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("has no variant \"AX9\"; it has: AX3, xSmall"), missing.stderr)

        // A change in one variant fails that variant alone; recording it touches nothing else.
        try dir.write(
            "Fixtures/t/v.json",
            transcript(["xSmall", "AX3"]).replacingOccurrences(of: "One\\nTwo", with: "One\\nTwo!"))
        let changed = try CLI.run(["record", "--no-progress", "--allow-ci", "--variant", "AX3"], in: dir.url)
        XCTAssertEqual(changed.status, 0, changed.output)
        let after = try goldenBytes(dir)
        for (key, bytes) in before where !key.hasPrefix("t/v@AX3/") { XCTAssertEqual(after[key], bytes, key) }
        XCTAssertNotEqual(after["t/v@AX3/initial/000.png"], before["t/v@AX3/initial/000.png"])
    }

    func testAddingAVariantLeavesTheOthersAndRemovingOneLeavesOrphans() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/t/v.json", transcript(["AX1"]))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let before = try goldenBytes(dir)
        try dir.write("Fixtures/t/v.json", transcript(["AX1", "AX5"]))
        let add = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(add.status, 0, add.output)
        let after = try goldenBytes(dir)
        for (key, bytes) in before { XCTAssertEqual(after[key], bytes, "\(key) changed when a variant was added") }
        XCTAssertNotNil(after["t/v@AX5/initial/000.png"])

        try dir.write("Fixtures/t/v.json", transcript(["AX5"]))
        let orphans = try CLI.run(["verify", "--no-progress", "--check-orphans"], in: dir.url)
        XCTAssertEqual(orphans.status, 1, orphans.output)
        XCTAssertTrue(orphans.output.contains("Goldens/t/v@AX1/"), orphans.output)
    }

    /// A file whose variants cannot be read is never dropped by --variant (its error fails the
    /// run), and record --prune never deletes its variants' goldens.
    func testABrokenFileWithVariantsIsNeitherSkippedNorPruned() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/t/v.json", transcript(["AX1"]))
        try dir.write("Fixtures/t/w.json", transcript(["AX1"]).replacingOccurrences(of: "One", with: "Other"))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        try dir.write("Fixtures/t/v.json", transcript(["AX9"]))
        let verify = try CLI.run(["verify", "--no-progress", "--variant", "AX1"], in: dir.url)
        XCTAssertEqual(verify.status, 2, verify.output)
        XCTAssertTrue(verify.stderr.contains("$.variants.textSize[0]: unknown text size \"AX9\""), verify.stderr)
        // A filter naming the file, with --variant, selects the file's variant.
        let filtered = try CLI.run(["verify", "--no-progress", "--variant", "AX1", "--filter", "t/w"], in: dir.url)
        XCTAssertEqual(filtered.status, 0, filtered.output)
        XCTAssertTrue(filtered.stdout.contains("1 passed"), filtered.output)
        let prune = try CLI.run(["record", "--no-progress", "--allow-ci", "--prune"], in: dir.url)
        XCTAssertEqual(prune.status, 2, prune.output)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: dir.path("Goldens/t/v@AX1/initial/000.png").path),
            "the broken fixture's variant goldens are kept")
    }
}
