import Foundation
import LayoutSnapCore
import LayoutSnapSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Where cache entries live: a local folder, a remote cache server, or both. Every method is
/// called from worker threads at once. A store never throws at its caller: what goes wrong is a
/// `CacheProblem` the store reports once, and the entry is a miss.
public protocol ResultStore: Sendable {
    /// The entry's bytes, nil on a miss (or any failure, reported through `problems`).
    func get(_ key: ResultKey) -> [UInt8]?
    func put(_ key: ResultKey, _ bytes: [UInt8])
    /// What went wrong so far, each kind once ("the remote cache did not answer").
    var problems: [String] { get }
    /// After the run: what is still being written is finished (within a bound).
    func finish()
}

extension ResultStore {
    public func finish() {}
}

/// `.layoutsnap/cache` (or `--cache DIR`): one file per entry, `entries/<first hex
/// digit>/<key>` (sixteen folders: making a folder costs an empty cache more than the entry
/// written into it, and ext4 indexes a folder of many thousand files), written to a temporary file and renamed into place, so writers racing on one
/// key each leave a whole entry and a reader never sees half of one. No fsync: an entry lost to a
/// power cut is a miss, and one torn is refused by its own check. Least recently used first out:
/// a hit touches the entry's modification time (when older than an hour), and `evict` removes the
/// oldest until the folder is within its bound.
public final class LocalResultStore: ResultStore {
    public let folder: String
    public let maxBytes: Int
    private let reported = LockedValue<[String]>([])
    private let written = LockedValue(0)

    /// How old an entry's time must be for a hit to move it to now: eviction's order is by the
    /// hour, and a run of hits within the hour touches nothing.
    static let touchAfterSeconds = 3600

    /// Half a gigabyte: some 150,000 entries of a few kilobytes.
    public static let defaultMaxBytes = 512 << 20
    public static let defaultFolder = ".layoutsnap/cache"

    public init(folder: String, maxBytes: Int = LocalResultStore.defaultMaxBytes) {
        self.folder = folder
        self.maxBytes = maxBytes
    }

    /// The remembered keys (`MemoPacks`), one file per run in `memos/`.
    var memosFolder: String { folder + "/memos" }

    func path(_ key: ResultKey) -> String {
        "\(folder)/entries/\(key.hex.prefix(1))/\(key.hex)"
    }

    /// Whether an entry is there for `key` (read or not).
    func has(_ key: ResultKey) -> Bool {
        SystemCall.status(path(key), followsLinks: false) != nil
    }

    public func get(_ key: ResultKey) -> [UInt8]? {
        let path = path(key)
        do {
            // Touched for least-recently-used eviction, unless used within the hour (a warm run
            // then writes nothing to the folder); a read-only cache still reads.
            let now = Int(time(nil))
            let (_, bytes) = try SystemCall.readPrefix(path, upTo: Limits.maxCacheEntryBytes) {
                now - $0 >= Self.touchAfterSeconds
            }
            return bytes
        } catch  where error.code == ENOENT {
            return nil
        } catch {
            report("cannot read \(path): \(error.reason)")
            return nil
        }
    }

    public func put(_ key: ResultKey, _ bytes: [UInt8]) {
        do {
            try AtomicWriter.write(bytes, to: path(key), durable: false)
            written.withLock { $0 += 1 }
        } catch {
            report("cannot write to \(folder): \(error.description)")
        }
    }

    public var problems: [String] { reported.withLock { $0 } }

    private func report(_ problem: String) {
        reported.withLock { if $0.count < 1 { $0.append(problem) } }
    }

    /// Entries written by this process.
    public var entriesWritten: Int { written.withLock { $0 } }

    /// Writes the keys this run learnt (`MemoPacks.finish`), at its end; a failure is a warning.
    func finish(_ memos: MemoPacks) {
        if let problem = memos.finish() { report(problem) }
    }

    func memoPath(_ memo: ResultKey) -> String {
        "\(folder)/keys/\(memo.hex.prefix(1))/\(memo.hex)"
    }

    /// The record remembered for `memo` in a file of its own (the project defaults' hash,
    /// `ResultCache.digest(of:source:folder:)`), nil when there is none; the record's own parse
    /// refuses a torn one.
    func rememberedRecord(_ memo: ResultKey) -> [UInt8]? {
        guard let (size, bytes) = try? SystemCall.readPrefix(memoPath(memo), upTo: Self.maxMemoBytes),
            size == bytes.count
        else { return nil }
        return bytes
    }

    /// The most a remembered record may be: a key and the hashes of the files one fixture names.
    static let maxMemoBytes = 1 << 20

    func remember(_ record: [UInt8], for memo: ResultKey) {
        guard record.count <= Self.maxMemoBytes else { return }
        do {
            try AtomicWriter.write(record, to: memoPath(memo), durable: false)
        } catch {
            report("cannot write to \(folder): \(error.description)")
        }
    }

    public struct Stats: Sendable, Equatable {
        public var entries = 0
        public var bytes = 0
        public var oldest: Date?
        public var newest: Date?
    }

    /// Every entry with its size and last use, oldest first.
    func entries() -> [(path: String, size: Int, used: Date)] {
        let fm = FileManager.default
        var out: [(String, Int, Date)] = []
        // The entries, and the remembered keys beside them: the memo packs, and the defaults'
        // records (and earlier builds' key records) in `keys/`.
        // (A killed run's temporary file counts too, as in the shards, and ages out with them.)
        for pack in (try? fm.contentsOfDirectory(atPath: folder + "/memos")) ?? [] {
            let path = folder + "/memos/" + pack
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            out.append((path, Int(info.st_size), Self.modified(info)))
        }
        for root in [folder + "/entries", folder + "/keys"] {
            for shard in (try? fm.contentsOfDirectory(atPath: root)) ?? [] {
                let dir = root + "/" + shard
                for name in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] {
                    let path = dir + "/" + name
                    var info = stat()
                    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    out.append((path, Int(info.st_size), Self.modified(info)))
                }
            }
        }
        return out.sorted { $0.2 != $1.2 ? $0.2 < $1.2 : $0.0 < $1.0 }
    }

    private static func modified(_ info: stat) -> Date {
        Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    public func stats() -> Stats {
        var s = Stats()
        for entry in entries() {
            if entry.path.hasPrefix(folder + "/entries/") { s.entries += 1 }
            s.bytes += entry.size
            s.oldest = min(s.oldest ?? entry.used, entry.used)
            s.newest = max(s.newest ?? entry.used, entry.used)
        }
        return s
    }

    /// Removes the least recently used entries until the folder holds at most 90% of
    /// `maxBytes` (so the next run does not evict again at once); the count removed.
    @discardableResult
    public func evict() -> Int {
        let all = entries()
        var total = all.reduce(0) { $0 + $1.size }
        guard total > maxBytes else { return 0 }
        var removed = 0
        for entry in all where total > maxBytes / 10 * 9 {
            if unlink(entry.path) == 0 || errno == ENOENT {
                total -= entry.size
                removed += 1
            }
        }
        return removed
    }

    /// Removes every entry (and leftovers of killed writers); the count removed.
    @discardableResult
    public func clear() -> Int {
        let removed = entries().filter { $0.path.hasPrefix(folder + "/entries/") }.count
        try? FileManager.default.removeItem(atPath: folder + "/entries")
        try? FileManager.default.removeItem(atPath: folder + "/keys")
        try? FileManager.default.removeItem(atPath: folder + "/memos")
        try? FileManager.default.removeItem(atPath: folder + "/fonts")
        try? FileManager.default.removeItem(atPath: folder + "/goldens")
        try? FileManager.default.removeItem(atPath: folder + "/libraries")
        return removed
    }
}

/// The local folder in front of a remote store: a local hit never asks the network; a remote
/// hit is kept locally; what is stored goes to both (remotely only when uploads are allowed).
public struct TieredResultStore: ResultStore {
    public var local: LocalResultStore?
    public var remote: RemoteResultStore?

    public init(local: LocalResultStore?, remote: RemoteResultStore?) {
        self.local = local
        self.remote = remote
    }

    public func get(_ key: ResultKey) -> [UInt8]? {
        if let bytes = local?.get(key) { return bytes }
        guard let bytes = remote?.get(key) else { return nil }
        local?.put(key, bytes)
        return bytes
    }

    public func put(_ key: ResultKey, _ bytes: [UInt8]) {
        local?.put(key, bytes)
        remote?.put(key, bytes)
    }

    public var problems: [String] { (local?.problems ?? []) + (remote?.problems ?? []) }

    public func finish() { remote?.finish() }
}
