import XCTest
@testable import LayoutSnapBenchmarks

/// A line's time over another's, round by round: the median and quartiles of the rounds' own
/// ratios, not the ratio of two fastest runs.
final class PairedRatioTests: XCTestCase {
    func testTheRoundsOwnRatiosMedianAndQuartiles() throws {
        var f = CacheBenchmark.Figures()
        // Each round's ratio: 2, 1, 4, 3 (in round order); a fastest-of ratio would be 1/1 = 1.
        f.roundSeconds = ["on": [2, 1, 8, 3], "off": [1, 1, 2, 1]]
        let r = try XCTUnwrap(CacheBenchmark.pairedRatio(f, "on", over: "off"))
        XCTAssertEqual(r.median, 2.5, accuracy: 1e-12)
        XCTAssertEqual(r.lower, 1.75, accuracy: 1e-12)
        XCTAssertEqual(r.upper, 3.25, accuracy: 1e-12)
        // One round: its own ratio three times.
        f.roundSeconds = ["on": [3], "off": [2]]
        let one = try XCTUnwrap(CacheBenchmark.pairedRatio(f, "on", over: "off"))
        XCTAssertEqual([one.median, one.lower, one.upper], [1.5, 1.5, 1.5])
        // Rounds that do not pair up, or a line not timed: no figure.
        f.roundSeconds = ["on": [1, 2], "off": [1]]
        XCTAssertNil(CacheBenchmark.pairedRatio(f, "on", over: "off"))
        XCTAssertNil(CacheBenchmark.pairedRatio(f, "on", over: "missing"))
    }
}
