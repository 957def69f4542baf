import LayoutSnapCore
import LayoutSnapRender

/// `--shard I/N` over discovered fixtures (see `ShardPlan`). Each fixture is decoded and laid out
/// (text measured, no frame rendered) to count its frames exactly; one that cannot be laid out
/// renders no frame (it counts 0, and weighs 1 in the plan) and still lands in exactly one shard,
/// which reports its error.
public enum Sharding {
    public struct Selection: Sendable {
        public var refs: [FixtureRef]
        /// What the shard's fixtures cost (frames x pixels and texts, `Fixture.estimatedCost`): the
        /// batch runner hands the heaviest out first without decoding them to weigh them again.
        public var costs: [Double]
        /// Frames of this shard and of the whole set: the real counts of the layouts.
        public var frames: Int
        public var totalFrames: Int
        public var totalFixtures: Int
        /// FNV-1a of every fixture id and the shard it went to: shards of one run agree on it.
        public var plan: String
    }

    public static func select(
        _ refs: [FixtureRef], shard: Shard, overrides: FixtureOverrides, jobs: Int = BatchRunner.defaultJobs,
        timeout: Double = Watchdog.defaultSeconds
    ) -> Selection {
        let counts = frameCounts(refs, overrides: overrides, jobs: jobs, timeout: timeout)
        // A fixture that cannot be laid out (an error, or the watchdog) weighs its estimate,
        // which does not depend on timing, so every shard's machine plans alike.
        let weights = counts.map { $0.frames.map(Double.init) ?? $0.estimate }
        let frames = counts.map { $0.frames ?? 0 }
        let plan = ShardPlan.assign(ids: refs.map(\.id), frames: weights, shards: shard.count)
        let mine = refs.indices.filter { plan[$0] == shard.index - 1 }
        var hash = ShardPlan.stableHash("")
        for i in refs.indices { hash = hash &* 31 &+ ShardPlan.stableHash("\(refs[i].id)=\(plan[i])") }
        return Selection(
            refs: mine.map { refs[$0] }, costs: mine.map { counts[$0].cost },
            frames: mine.reduce(0) { $0 + frames[$1] },
            totalFrames: frames.reduce(0, +), totalFixtures: refs.count, plan: String(hash, radix: 16))
    }

    /// Each fixture's real frame count (nil for one that cannot be laid out), its estimate and cost,
    /// decoded and laid out on `jobs` threads, one text engine each; nothing decoded is kept.
    public static func frameCounts(
        _ refs: [FixtureRef], overrides: FixtureOverrides, jobs: Int,
        timeout: Double = Watchdog.defaultSeconds
    ) -> [(frames: Int?, estimate: Double, cost: Double)] {
        guard let fonts = try? FontSystem.shared() else { return refs.map { _ in (nil, 1, 0) } }
        let queue = WorkQueue<(frames: Int?, estimate: Double, cost: Double)>(
            count: refs.count, order: Array(refs.indices))
        WorkerThreads.run(threads: min(max(jobs, 1), max(refs.count, 1))) {
            let engine = try? TextEngine.take(fonts: fonts)
            // Given back for the batch that follows (`TextEngine.giveBack`).
            defer { if let engine { TextEngine.giveBack(engine) } }
            while let i = queue.take() {
                guard let engine, let fixture = try? overrides.decode(refs[i]).get() else {
                    queue.store(i, (nil, 1, 0))
                    continue
                }
                defer { engine.clearCache() }
                let watched = WatchedMeasurer(base: engine, watchdog: Watchdog(seconds: timeout))
                queue.store(
                    i,
                    (
                        (try? LayoutEngine.layout(fixture, measurer: watched).frameCount), fixture.estimatedFrames,
                        fixture.estimatedCost
                    ))
            }
        }
        return queue.results()
    }
}

extension FixtureOverrides {
    /// The fixture at `ref`, decoded, with the overrides applied.
    func decode(_ ref: FixtureRef, files: any InputFiles = LocalInputFiles()) -> Result<Fixture, FixtureError> {
        Result { () throws(FixtureError) in
            try apply(to: ref.load(files: files))
        }
    }
}
