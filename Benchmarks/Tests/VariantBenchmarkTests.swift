import XCTest
@testable import LayoutSnapBenchmarks
import LayoutSnapRunner
import LayoutSnapTestSupport

/// The bench's variants figure runs on the bundled fixtures: their variants and the standalone
/// copies render the same frames, verified unchanged.
final class VariantBenchmarkTests: XCTestCase {
    func testVariantsAndTheirStandaloneCopiesVerifyTheSameFrames() throws {
        let root = TestPaths.packageRoot
        let refs = try FixtureDiscovery.discover(
            paths: [root.appendingPathComponent("Fixtures").path],
            defaultRoot: root.appendingPathComponent("Fixtures").path)
        let f = try XCTUnwrap(VariantBenchmark(refs: refs, repeats: 1).run())
        XCTAssertEqual(f.frames, 26, "the bundled variants have 26 frames")
        XCTAssertGreaterThan(f.variantSeconds, 0)
        XCTAssertGreaterThan(f.standaloneSeconds, 0)
    }
}

/// The start bench's figures: nearest-rank quartiles, and the golden it diffs with itself.
final class StartBenchmarkTests: XCTestCase {
    func testQuartilesByNearestRank() {
        let eight = StartBenchmark.Times(seconds: [8, 1, 7, 2, 6, 3, 5, 4])
        XCTAssertEqual([eight.fastest, eight.firstQuartile, eight.median], [1, 2, 4])
        let three = StartBenchmark.Times(seconds: [3, 1, 2])
        XCTAssertEqual([three.fastest, three.firstQuartile, three.median], [1, 1, 2])
        let one = StartBenchmark.Times(seconds: [5])
        XCTAssertEqual([one.fastest, one.firstQuartile, one.median], [5, 5, 5])
        XCTAssertTrue(StartBenchmark.Times().median.isNaN)
    }

    func testTheLargestGoldenIsDiffed() throws {
        let dir = try makeTemporaryFolder("start-goldens")
        defer { removeTemporaryFolder(dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try Data(count: 10).write(to: dir.appendingPathComponent("a/small.png"))
        try Data(count: 30).write(to: dir.appendingPathComponent("a/b/large.png"))
        try Data(count: 90).write(to: dir.appendingPathComponent("a/b/larger.json"))
        XCTAssertEqual(StartBenchmark.largestGolden(in: dir.path), dir.path + "/a/b/large.png")
        XCTAssertNil(StartBenchmark.largestGolden(in: dir.appendingPathComponent("none").path))
    }
}
