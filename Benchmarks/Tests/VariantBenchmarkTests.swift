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
