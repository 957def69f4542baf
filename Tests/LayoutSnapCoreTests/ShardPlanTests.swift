import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore

/// `--shard I/N`: every fixture in exactly one shard, the same plan whatever the discovery order,
/// and shards balanced by frames (longest-processing-time: no shard more than one fixture above
/// the lightest).
final class ShardPlanTests: XCTestCase {
    func testEveryFixtureInOneShardBalancedAndOrderIndependent() {
        var rng = SplitMix64(seed: 7)
        for trial in 0..<200 {
            let count = Int.random(in: 0...300, using: &rng)
            let shards = Int.random(in: 1...16, using: &rng)
            let ids = (0..<count).map { "kind\($0 % 4)/fixture-\($0)-\(trial)" }
            let frames = ids.map { _ in Double(Int.random(in: 0...200, using: &rng)) }
            let plan = ShardPlan.assign(ids: ids, frames: frames, shards: shards)
            XCTAssertEqual(plan.count, count)
            XCTAssertTrue(plan.allSatisfy { (0..<shards).contains($0) })

            var load = [Double](repeating: 0, count: shards)
            for (i, s) in plan.enumerated() { load[s] += max(frames[i], 1) }
            let heaviest = frames.map { max($0, 1) }.max() ?? 0
            XCTAssertLessThanOrEqual((load.max() ?? 0) - (load.min() ?? 0), heaviest + 1e-9, "trial \(trial): \(load)")

            // Discovery order does not matter: the same ids in another order get the same shards.
            let order = Array(ids.indices).shuffled(using: &rng)
            let shuffled = ShardPlan.assign(
                ids: order.map { ids[$0] }, frames: order.map { frames[$0] }, shards: shards)
            for (k, i) in order.enumerated() { XCTAssertEqual(shuffled[k], plan[i]) }
        }
    }

    func testStableHashIsFNV1a() {
        // Published FNV-1a 64 test vectors: not Swift's per-process seeded Hasher.
        XCTAssertEqual(ShardPlan.stableHash(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(ShardPlan.stableHash("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(ShardPlan.stableHash("foobar"), 0x8594_4171_f739_67e8)
    }

    func testEqualFixturesSpreadEvenly() {
        let ids = (0..<40).map { "posts/card-\($0)" }
        let plan = ShardPlan.assign(ids: ids, frames: Array(repeating: 19, count: 40), shards: 4)
        XCTAssertEqual((0..<4).map { s in plan.filter { $0 == s }.count }, [10, 10, 10, 10])
    }

    func testParsing() {
        XCTAssertEqual(try Shard.parse("2/4").get(), Shard(index: 2, count: 4))
        XCTAssertEqual(try Shard.parse("1/1").get(), Shard(index: 1, count: 1))
        for bad in ["0/4", "5/4", "2", "2/", "/4", "a/b", "2/4/1", "1/1001", "-1/4"] {
            XCTAssertThrowsError(try Shard.parse(bad).get(), bad)
        }
    }
}
