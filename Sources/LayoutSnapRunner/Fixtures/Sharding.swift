import LayoutSnapCore

/// `--shard I/N` over discovered fixtures (see `ShardPlan`). Each fixture is decoded to estimate
/// its frames; one that cannot be decoded weighs one frame and still lands in exactly one shard,
/// which reports its error.
public enum Sharding {
    public struct Selection: Sendable {
        public var refs: [FixtureRef]
        /// The shard's fixtures as decoded to weigh them (with the overrides applied), handed to
        /// the batch runner so nothing is decoded twice.
        public var decoded: [Result<Fixture, FixtureError>]
        /// Estimated frames of this shard and of the whole set.
        public var frames: Double
        public var totalFrames: Double
        public var totalFixtures: Int
    }

    public static func select(_ refs: [FixtureRef], shard: Shard, overrides: FixtureOverrides, jobs: Int = BatchRunner.defaultJobs) -> Selection {
        let decoded = overrides.decode(refs, jobs: jobs)
        let frames = decoded.map { (try? $0.get().estimatedFrames) ?? 1 }
        let plan = ShardPlan.assign(ids: refs.map(\.id), frames: frames, shards: shard.count)
        let mine = refs.indices.filter { plan[$0] == shard.index - 1 }
        return Selection(refs: mine.map { refs[$0] }, decoded: mine.map { decoded[$0] }, frames: mine.reduce(0) { $0 + max(frames[$1], 1) },
                         totalFrames: frames.reduce(0) { $0 + max($1, 1) }, totalFixtures: refs.count)
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
