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

/// `.layoutsnap/cache` (or `--cache DIR`): the entries in packs, `packs/<generation>-…`, a file
/// a run (`EntryPacks`), each written to a temporary file and renamed into place, so runs racing
/// each leave whole packs and a reader never sees half of one. No fsync: a pack lost to a power
/// cut is a miss, and one torn is refused. Least recently used first out: a hit touches its
/// pack's modification time (when older than an hour), and `evict` removes the oldest files
/// until the folder is within its bound. (Builds before packs wrote a file an entry,
/// `entries/<first hex digit>/<key>`; no later build's key finds them, and they age out.)
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

    /// `flushNanoseconds`: see `EntryPacks` (tests pass more than they can take).
    public init(
        folder: String, maxBytes: Int = LocalResultStore.defaultMaxBytes,
        flushNanoseconds: Int = LocalResultStore.defaultFlushNanoseconds
    ) {
        self.folder = folder
        self.maxBytes = maxBytes
        self.flushNanoseconds = flushNanoseconds
    }

    private let flushNanoseconds: Int
    /// A second: what waits is written when an entry comes this long after the first that waits.
    public static let defaultFlushNanoseconds = 1_000_000_000

    /// The packs of the generation the run's cache names (`use(generation:)`), else of a
    /// generation of its own (a store used alone, in tests).
    private let packs = LockedValue<EntryPacks?>(nil)

    var packsFolder: String { folder + "/packs" }

    /// Which packs this run reads and writes: the first 16 hex digits of what every key of the
    /// run starts with. Before the first lookup or store.
    func use(generation: String) {
        let replaced: EntryPacks? = packs.withLock { current in
            guard current?.generation != generation else { return nil }
            defer { current = makePacks(generation) }
            return current
        }
        // What it holds is written under its own generation.
        replaced?.finish()
    }

    private func makePacks(_ generation: String) -> EntryPacks {
        EntryPacks(
            folder: packsFolder, generation: generation, folderBytes: maxBytes, flushNanoseconds: flushNanoseconds
        ) { [weak self] in
            self?.report($0)
        }
    }

    private var entryPacks: EntryPacks {
        packs.withLock { current in
            if let current { return current }
            let made = makePacks(String(repeating: "0", count: 16))
            current = made
            return made
        }
    }

    /// The remembered keys (`MemoPacks`), one file per run in `memos/`.
    var memosFolder: String { folder + "/memos" }

    /// Whether an entry is there for `key` (read or not).
    func has(_ key: ResultKey) -> Bool {
        entryPacks.has(key.hex)
    }

    public func get(_ key: ResultKey) -> [UInt8]? {
        entryPacks.get(key.hex)
    }

    public func put(_ key: ResultKey, _ bytes: [UInt8]) {
        entryPacks.put(key.hex, bytes)
        written.withLock { $0 += 1 }
    }

    public var problems: [String] { reported.withLock { $0 } }

    private func report(_ problem: String) {
        reported.withLock { if $0.count < 1 { $0.append(problem) } }
    }

    /// Entries written by this process.
    public var entriesWritten: Int { written.withLock { $0 } }

    /// Writes the entries this run stored (`EntryPacks.finish`) and the keys it learnt
    /// (`MemoPacks.finish`), at its end; a failure is a warning.
    func finish(_ memos: MemoPacks?) {
        packs.withLock { $0 }?.finish()
        if let problem = memos?.finish() { report(problem) }
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
        // The entry packs (and earlier builds' entry files in `entries/`), and the remembered keys
        // beside them: the memo packs, and the defaults' records (and earlier builds' key
        // records) in `keys/`.
        // (A killed run's temporary file counts too, as in the shards, and ages out with them.)
        for packs in [packsFolder, memosFolder] {
            for pack in (try? fm.contentsOfDirectory(atPath: packs)) ?? [] {
                let path = packs + "/" + pack
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                out.append((path, Int(info.st_size), Self.modified(info)))
            }
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
            s.entries += entryCount(entry.path)
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

    /// How many entries the file at `path` of `entries()` holds.
    private func entryCount(_ path: String) -> Int {
        if path.hasPrefix(packsFolder + "/") { return path.hasPrefix(packsFolder + "/.") ? 0 : EntryPacks.count(path) }
        return path.hasPrefix(folder + "/entries/") ? 1 : 0
    }

    /// Removes every entry (and leftovers of killed writers); the count removed.
    @discardableResult
    public func clear() -> Int {
        let removed = entries().reduce(0) { $0 + entryCount($1.path) }
        try? FileManager.default.removeItem(atPath: packsFolder)
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
