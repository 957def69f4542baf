/// `--shard I/N`: this run takes the I-th of N parts of the fixture set (1-based, as Playwright
/// and Jest count them).
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public static let maxCount = 1000

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `2/4`, or why the text is not a shard.
    public static func parse(_ text: String) -> Result<Shard, ArgumentError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            return .failure(ArgumentError(message: "--shard takes I/N (for example 2/4), found \"\(text)\""))
        }
        guard (1...maxCount).contains(n), (1...n).contains(i) else {
            return .failure(
                ArgumentError(message: "--shard \(text): N must be from 1 to \(maxCount) and I from 1 to N"))
        }
        return .success(Shard(index: i, count: n))
    }

    public var description: String { "\(index)/\(count)" }
}

/// Splits fixtures into shards: every fixture in exactly one shard, shards balanced by frame
/// count, and the same answer on every machine.
///
/// Largest fixtures first, each to the shard with the fewest frames so far (longest-processing-
/// time scheduling: no shard ends more than one fixture's frames above the lightest). Order and
/// ties come from a stable hash of the id (FNV-1a, never Swift's per-process seeded `Hasher`), so
/// the plan depends only on the set of ids and their frame estimates, not on discovery order. All
/// shards of one CI run see the same fixtures (the same commit), so they agree on the plan.
public enum ShardPlan {
    /// The shard (0-based) of each fixture, in the order given.
    public static func assign(ids: [String], frames: [Double], shards: Int) -> [Int] {
        precondition(ids.count == frames.count && shards >= 1)
        let hashes = ids.map(stableHash)
        let order = ids.indices.sorted { a, b in
            if frames[a] != frames[b] { return frames[a] > frames[b] }
            if hashes[a] != hashes[b] { return hashes[a] < hashes[b] }
            return ids[a] < ids[b]
        }
        var load = [Double](repeating: 0, count: shards)
        var result = [Int](repeating: 0, count: ids.count)
        for i in order {
            // Among equally loaded shards, start looking at the one the hash picks, so fixtures of
            // equal size (and errors, which weigh nothing) spread by their ids.
            let start = Int(hashes[i] % UInt64(shards))
            var best = start
            for step in 1..<max(shards, 1) where load[(start + step) % shards] < load[best] {
                best = (start + step) % shards
            }
            result[i] = best
            load[best] += max(frames[i], 1)
        }
        return result
    }

    /// FNV-1a 64 over the id's UTF-8 bytes.
    public static func stableHash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
