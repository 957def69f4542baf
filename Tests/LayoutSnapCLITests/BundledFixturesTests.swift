import LayoutSnapTestSupport
import XCTest

/// The project's own regression test: the bundled fixtures against the committed goldens.
final class BundledFixturesTests: XCTestCase {
    func testNoArgumentsVerifiesTheBundledFixtures() throws {
        // Rendered, not from the result cache: this is the suite's own regression test.
        let r = try CLI.run(["--no-progress", "--no-cache"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.stdout.contains(" passed, 0 failed"), r.output)
        // "706 passed" ends in "0 passed" too: read the count itself.
        let passed =
            r.stdout.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: " passed, ") else { return nil }
                return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
            }.last ?? 0
        XCTAssertGreaterThan(passed, 0, "some frames must have been verified: \(r.output)")
        XCTAssertFalse(r.stderr.contains("environment differs"), r.output)
    }

    /// A bundled fixture copied and changed (as a rule change would change its pixels) fails with
    /// the fixture, state and frames named, and exit code 1.
    func testAChangedFixtureFailsNamingStatesAndFrames() throws {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/no-image.json", to: "Fixtures/posts/no-image.json")
        try dir.copyBundled("Goldens/posts/no-image", to: "Goldens/posts/no-image")
        try dir.copyBundled("Goldens/manifest.json", to: "Goldens/manifest.json")
        let unchanged = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(unchanged.status, 0, unchanged.output)

        let fixture = dir.path("Fixtures/posts/no-image.json")
        var text = try String(contentsOf: fixture, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "One cache key, two wrong assumptions.", with: "One cache key, three wrong assumptions.")
        try Data(text.utf8).write(to: fixture)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stdout.contains("FAIL posts/no-image initial: frame 0 differs ("), r.output)
        XCTAssertTrue(r.stdout.contains("FAIL posts/no-image 01-expand: frames 0-"), r.output)
        XCTAssertTrue(r.stdout.contains("layoutsnap record"), "says what to do next: \(r.output)")
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: dir.path(".layoutsnap/report/actual/posts/no-image/initial/000.png").path))
        // Verify never writes goldens.
        let golden = try Data(contentsOf: dir.path("Goldens/posts/no-image/initial/000.png"))
        let original = try Data(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Goldens/posts/no-image/initial/000.png"))
        XCTAssertEqual(golden, original)
    }
}
