import LayoutSnapCore
import LayoutSnapRender

/// `--shard I/N` over discovered fixtures (see `ShardPlan`). Each fixture is decoded and laid out
/// (text measured, no frame rendered) to count its frames exactly; one that cannot be laid out
/// renders no frame (it counts 0, and weighs 1 in the plan) and still lands in exactly one shard,
/// which reports its error.
public enum Sharding {
    public struct Selection: Sendable {
        public var refs: [FixtureRef]
        /// The shard's fixtures as decoded to weigh them (with the overrides applied), handed to
        /// the batch runner so nothing is decoded twice.
        public var decoded: [Result<Fixture, FixtureError>]
        /// Frames of this shard and of the whole set: the real counts of the layouts.
        public var frames: Int
        public var totalFrames: Int
        public var totalFixtures: Int
        /// FNV-1a of every fixture id and the shard it went to: shards of one run agree on it.
        public var plan: String
    }

    public static func select(_ refs: [FixtureRef], shard: Shard, overrides: FixtureOverrides, jobs: Int = BatchRunner.defaultJobs,
                              timeout: Double = Watchdog.defaultSeconds) -> Selection {
        let decoded = overrides.decode(refs, jobs: jobs)
        let counts = frameCounts(decoded, jobs: jobs, timeout: timeout)
        // A fixture that cannot be laid out (an error, or the watchdog) weighs its estimate,
        // which does not depend on timing, so every shard's machine plans alike.
        let weights = counts.indices.map { i in counts[i].map(Double.init) ?? ((try? decoded[i].get().estimatedFrames) ?? 1) }
        let frames = counts.map { $0 ?? 0 }
        let plan = ShardPlan.assign(ids: refs.map(\.id), frames: weights, shards: shard.count)
        let mine = refs.indices.filter { plan[$0] == shard.index - 1 }
        var hash = ShardPlan.stableHash("")
        for i in refs.indices { hash = hash &* 31 &+ ShardPlan.stableHash("\(refs[i].id)=\(plan[i])") }
        return Selection(refs: mine.map { refs[$0] }, decoded: mine.map { decoded[$0] }, frames: mine.reduce(0) { $0 + frames[$1] },
                         totalFrames: frames.reduce(0, +), totalFixtures: refs.count, plan: String(hash, radix: 16))
    }

    /// Each fixture's real frame count (nil for one that cannot be laid out), laid out on `jobs`
    /// threads, one text engine each.
    public static func frameCounts(_ decoded: [Result<Fixture, FixtureError>], jobs: Int, timeout: Double = Watchdog.defaultSeconds) -> [Int?] {
        guard let fonts = try? FontSystem.shared() else { return decoded.map { _ in nil } }
        let queue = WorkQueue<Int?>(count: decoded.count, order: Array(decoded.indices))
        WorkerThreads.run(threads: min(max(jobs, 1), max(decoded.count, 1))) {
            let engine = try? TextEngine(fonts: fonts)
            while let i = queue.take() {
                guard let engine, let fixture = try? decoded[i].get() else { queue.store(i, nil); continue }
                defer { engine.clearCache() }
                let watched = WatchedMeasurer(base: engine, watchdog: Watchdog(seconds: timeout))
                queue.store(i, try? LayoutEngine.layout(fixture, measurer: watched).frameCount)
            }
        }
        return queue.results()
    }
}

extension FixtureOverrides {
    /// The fixtures, decoded on `jobs` threads, in order.
    func decode(_ refs: [FixtureRef], jobs: Int) -> [Result<Fixture, FixtureError>] {
        WorkerThreads.map(count: refs.count, jobs: jobs) { decode(refs[$0]) }
    }

    /// The fixture at `ref`, decoded, with the overrides applied.
    func decode(_ ref: FixtureRef) -> Result<Fixture, FixtureError> {
        Result { () throws(FixtureError) in
            try apply(to: FixtureDecoder.load(path: ref.path, id: ref.id, displayPath: ref.displayPath))
        }
    }
}
