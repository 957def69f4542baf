import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The local folder's entries (`LocalResultStore`), as packs (`PackFormat`) in `packs/`: what a
/// run stores is written as one pack at its end, and before that whenever `flushBytes` wait or an
/// entry is stored `flushNanoseconds` (a second) or more after the first that waits (a run killed meanwhile
/// loses what waits). One file a run, not one an entry: on an ext4 without a journal (this
/// project's CI machine) each new file soon after others were deleted costs the kernel a scan of
/// recently freed inodes, and a cold run of the bundled suite made 88 files and folders, some
/// 20 ms of kernel time.
///
/// A run reads the packs of its generation (the digest of what every key of the run starts
/// with: renderer, environment, lints; another build's entries are never its hits, and age out)
/// at its first lookup, a later pack winning for a key filed twice. A pack that is not whole is
/// refused with a warning and its entries are misses; an entry that does not decode is refused by
/// its own check (`CachedResult.decode`). A hit moves its pack's time to now when it is an hour
/// old or more, so the least recently used go first, a pack at a time. A run that read `maxPacks`
/// or more, or a pack it refused, writes what it read again as one pack at its end (newest
/// first, within `compactedBytes`), named just after the newest it read so that a pack another
/// run writes meanwhile still wins, and removes those it read; two runs doing so at once leave
/// two copies, both whole. An entry stored is found by the run's own lookups until it is
/// written; after `finish`, the next lookup reads the folder again.
final class EntryPacks: @unchecked Sendable {
    static let format = PackFormat(header: "layoutsnap entry pack 1\n", word: "entry")
    static let maxPacks = 8
    /// The most a pack is read: what waits, and one entry of up to `Limits.maxCacheEntryBytes`.
    static let maxBytes = Limits.maxCacheEntryBytes + (8 << 20)

    /// The most a compacted pack holds: 64 MB (some 60,000 entries of a kilobyte), or less in a
    /// small folder, so that eviction (a file at a time, within 90% of the folder's bound) keeps
    /// a compacted pack and a run's own beside it.
    let compactedBytes: Int
    /// What waits before it is written: 4 MB, or less in a small folder.
    let flushBytes: Int
    /// How long after the first that waits an entry stored writes what waits.
    let flushNanoseconds: Int

    let folder: String
    /// 16 hex digits, no dash (`PackFormat.timeInName`).
    let generation: String
    private let report: @Sendable (String) -> Void
    private let state = LockedValue(State())

    private struct State {
        /// By key: the entry and the index in `read` of its pack (-1: stored by this run and not
        /// yet written); nil until the first lookup.
        var entries: [String: (bytes: [UInt8], pack: Int)]?
        var read: [(name: String, modified: Int, touched: Bool)] = []
        var waiting: [(key: String, bytes: [UInt8])] = []
        var waitingBytes = 0
        var waitingSince = 0
        /// Whether a pack read was refused: compacting replaces it.
        var refused = false
        var compacted = false
    }

    /// `folderBytes`: the local folder's bound (`LocalResultStore.maxBytes`).
    init(
        folder: String, generation: String, folderBytes: Int = LocalResultStore.defaultMaxBytes,
        flushNanoseconds: Int = LocalResultStore.defaultFlushNanoseconds, report: @escaping @Sendable (String) -> Void
    ) {
        self.folder = folder
        self.generation = generation
        self.report = report
        self.flushNanoseconds = flushNanoseconds
        compactedBytes = min(64 << 20, folderBytes / 10 * 9 / 2)
        flushBytes = min(4 << 20, folderBytes / 10)
    }

    func get(_ key: String) -> [UInt8]? {
        let (bytes, touch): ([UInt8]?, String?) = state.withLock { s in
            if s.entries == nil { load(&s) }
            guard let found = s.entries?[key] else { return (nil, nil) }
            guard found.pack >= 0, !s.read[found.pack].touched,
                Int(time(nil)) - s.read[found.pack].modified >= LocalResultStore.touchAfterSeconds
            else { return (found.bytes, nil) }
            s.read[found.pack].touched = true
            return (found.bytes, folder + "/" + s.read[found.pack].name)
        }
        if let touch { SystemCall.touch(touch) }
        return bytes
    }

    func has(_ key: String) -> Bool {
        state.withLock { s in
            if s.entries == nil { load(&s) }
            return s.entries?[key] != nil
        }
    }

    /// Files `bytes` under `key` for this run's lookups and the next pack. An entry larger than
    /// `Limits.maxCacheEntryBytes` is not kept (no run reads one).
    func put(_ key: String, _ bytes: [UInt8]) {
        guard bytes.count <= Limits.maxCacheEntryBytes else { return }
        let full: Batch? = state.withLock { s in
            let now = PackFormat.now()
            if s.waiting.isEmpty { s.waitingSince = now }
            s.waiting.append((key, bytes))
            s.waitingBytes += Self.format.size(key: key, count: bytes.count)
            s.entries?[key] = (bytes, -1)
            guard s.waitingBytes >= flushBytes || now - s.waitingSince >= flushNanoseconds else {
                return nil
            }
            return takeWaiting(&s)
        }
        if let full { write(full) }
    }

    /// Entries to write as one pack, under a name chosen when they were taken: of two batches, the
    /// later taken sorts later, whichever is written first.
    private struct Batch {
        var entries: [(key: String, bytes: [UInt8])]
        var name: String
    }

    /// What waits to be written, no longer held: memory stays flat in a long run's entries.
    private func takeWaiting(_ s: inout State) -> Batch {
        defer {
            s.waiting = []
            s.waitingBytes = 0
        }
        for (key, _) in s.waiting where s.entries?[key]?.pack == -1 { s.entries?[key] = nil }
        return Batch(entries: s.waiting, name: PackFormat.name(generation: generation, time: PackFormat.now()))
    }

    /// Writes what waits, and the compacted pack when the run read `maxPacks` or more or refused
    /// one; the next lookup reads the folder again.
    func finish() {
        let (waiting, compacted): (Batch, (name: String, pack: [UInt8]?, read: [String])?) =
            state.withLock { s in
                var compacted: (name: String, pack: [UInt8]?, read: [String])?
                if !s.compacted, s.read.count >= Self.maxPacks || s.refused, let entries = s.entries {
                    s.compacted = true
                    // Newest first, then by key: the same entries keep the same ones under the bound.
                    let read = s.read
                    let ordered = entries.filter { $0.value.pack >= 0 }.sorted {
                        let (a, b) = (read[$0.value.pack].name, read[$1.value.pack].name)
                        return a != b ? a > b : $0.key < $1.key
                    }
                    var kept: [(key: String, bytes: [UInt8])] = []
                    var total = Self.format.encoded([]).count
                    for (key, entry) in ordered {
                        let size = Self.format.size(key: key, count: entry.bytes.count)
                        guard total + size <= compactedBytes else { continue }
                        total += size
                        kept.append((key, entry.bytes))
                    }
                    let names = s.read.map(\.name)
                    compacted = (
                        PackFormat.name(after: names, generation: generation),
                        kept.isEmpty ? nil : Self.format.encoded(kept.sorted { $0.key < $1.key }), names
                    )
                }
                let waiting = takeWaiting(&s)
                s.entries = nil
                s.read = []
                s.refused = false
                return (waiting, compacted)
            }
        if !waiting.entries.isEmpty { write(waiting) }
        if let compacted {
            do {
                // Nothing to keep (the one pack read was refused, or every entry is larger than
                // a compacted pack may be): the packs read only go, and what they held renders.
                if let pack = compacted.pack {
                    try AtomicWriter.write(pack, to: folder + "/" + compacted.name, durable: false)
                }
                for name in compacted.read { _ = unlink(folder + "/" + name) }
            } catch {
                report("cannot write to \(folder): \(error.description)")
            }
        }
    }

    /// One pack of the batch's entries, the last stored under each key.
    private func write(_ batch: Batch) {
        var last: [String: Int] = [:]
        for (n, entry) in batch.entries.enumerated() { last[entry.key] = n }
        let pack = Self.format.encoded(
            batch.entries.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element))
        do {
            try AtomicWriter.write(pack, to: folder + "/" + batch.name, durable: false)
        } catch {
            report("cannot write to \(folder): \(error.description)")
        }
    }

    private func load(_ s: inout State) {
        var entries: [String: (bytes: [UInt8], pack: Int)] = [:]
        var names = PackFormat.names(in: folder, generation: generation)
        var seen = Set(names)
        var listedAgain = false
        while !names.isEmpty {
            let name = names.removeFirst()
            let path = folder + "/" + name
            var modified = 0
            let size: Int
            let bytes: [UInt8]
            do {
                (size, bytes) = try SystemCall.readPrefix(path, upTo: Self.maxBytes) {
                    modified = $0
                    return false
                }
            } catch  where error.code == ENOENT {
                // Compacted by another run meanwhile: its entries are in the pack that replaced
                // it, which the listing before may not have held (listed once more, not again:
                // a lookup is not held up).
                if !listedAgain {
                    listedAgain = true
                    let new = PackFormat.names(in: folder, generation: generation).filter { !seen.contains($0) }
                    seen.formUnion(new)
                    names = (names + new).sorted()
                }
                continue
            } catch {
                report("cannot read \(path): \(error.reason)")
                continue
            }
            s.read.append((name, modified, false))
            guard size == bytes.count, let pack = Self.format.parse(bytes) else {
                let why =
                    size > bytes.count
                    ? "larger than \(Self.maxBytes) bytes" : "not whole (cut short, or edited out of its frame)"
                report("cache pack \(name) refused: \(why); its entries are misses")
                s.refused = true
                continue
            }
            // The pack named later wins, whichever was read first (a pack listed again after
            // another run's compaction may sort before one read already).
            for (key, bytes) in pack {
                if let earlier = entries[key], s.read[earlier.pack].name > name { continue }
                entries[key] = (bytes, s.read.count - 1)
            }
        }
        for (key, bytes) in s.waiting { entries[key] = (bytes, -1) }
        s.entries = entries
    }

    /// How many entries the pack at `path` holds (0 when it is not whole).
    static func count(_ path: String) -> Int {
        guard let (size, bytes) = try? SystemCall.readPrefix(path, upTo: maxBytes), size == bytes.count else {
            return 0
        }
        return format.parse(bytes)?.count ?? 0
    }
}
