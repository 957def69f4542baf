import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The local folder's entries (`LocalResultStore`), as packs (`PackFormat`) in `packs/`: what a
/// run stores is written as one pack at its end, and before whenever `flushBytes` are waiting or
/// the first has waited `flushNanoseconds` (a run stopped early loses a second's renderings at
/// most). One file a run, not one an entry: on an ext4 without a journal (this project's CI
/// machine) each new file soon after others were deleted costs the kernel a scan of recently
/// freed inodes, and a cold run of the bundled suite made 88 files and folders, some 20 ms of
/// kernel time.
///
/// A run reads the packs of its generation (what every key of the run starts with: renderer,
/// environment, lints; another build's entries are never its hits, and age out) at its first
/// lookup, a later pack winning for a key filed twice. A pack that is not whole is refused with a
/// warning and its entries are misses; an entry that does not decode is refused by its own
/// check (`CachedResult.decode`). A hit moves its pack's time to now when it is an hour old or
/// more, so the least recently used go first, a pack at a time. A run that read `maxPacks` or
/// more writes what it read again as one pack at its end (newest first, within
/// `compactedBytes`), named just after the newest it read so that a pack another run writes
/// meanwhile still wins, and removes those it read; two runs doing so at once leave two copies,
/// both whole. An entry stored is found by the run's own lookups until it is written; after
/// `finish`, the next lookup reads the folder again.
final class EntryPacks: @unchecked Sendable {
    static let format = PackFormat(header: "layoutsnap entry pack 1\n", word: "entry")
    static let maxPacks = 8
    /// The most a pack is read: one entry may be up to `Limits.maxCacheEntryBytes`.
    static let maxBytes = Limits.maxCacheEntryBytes + (1 << 20)
    /// The most a compacted pack holds: some 25,000 entries of a few kilobytes.
    static let compactedBytes = 64 << 20
    static let flushBytes = 4 << 20
    static let flushNanoseconds = 1_000_000_000

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
        var compacted = false
    }

    init(folder: String, generation: String, report: @escaping @Sendable (String) -> Void) {
        self.folder = folder
        self.generation = generation
        self.report = report
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

    func put(_ key: String, _ bytes: [UInt8]) {
        let full: [(key: String, bytes: [UInt8])]? = state.withLock { s in
            let now = PackFormat.now()
            if s.waiting.isEmpty { s.waitingSince = now }
            s.waiting.append((key, bytes))
            s.waitingBytes += bytes.count
            s.entries?[key] = (bytes, -1)
            guard s.waitingBytes >= Self.flushBytes || now - s.waitingSince >= Self.flushNanoseconds else {
                return nil
            }
            return takeWaiting(&s)
        }
        if let full { write(full, time: PackFormat.now()) }
    }

    /// What waits to be written, no longer held: memory stays flat in a long run's entries.
    private func takeWaiting(_ s: inout State) -> [(key: String, bytes: [UInt8])] {
        defer {
            s.waiting = []
            s.waitingBytes = 0
        }
        for (key, _) in s.waiting where s.entries?[key]?.pack == -1 { s.entries?[key] = nil }
        return s.waiting
    }

    /// Writes what waits, and the compacted pack when the run read `maxPacks` or more; the next
    /// lookup reads the folder again.
    func finish() {
        let (waiting, compacted): ([(key: String, bytes: [UInt8])], (name: String, pack: [UInt8], read: [String])?) =
            state.withLock { s in
                var compacted: (name: String, pack: [UInt8], read: [String])?
                if !s.compacted, s.read.count >= Self.maxPacks, let entries = s.entries {
                    s.compacted = true
                    // Newest first, then by key: the same entries keep the same ones under the bound.
                    let ordered = entries.filter { $0.value.pack >= 0 }.sorted {
                        $0.value.pack != $1.value.pack ? $0.value.pack > $1.value.pack : $0.key < $1.key
                    }
                    var kept: [(key: String, bytes: [UInt8])] = []
                    var total = Self.format.encoded([]).count
                    for (key, entry) in ordered {
                        let size = Self.format.size(key: key, count: entry.bytes.count)
                        guard total + size <= Self.compactedBytes else { continue }
                        total += size
                        kept.append((key, entry.bytes))
                    }
                    let names = s.read.map(\.name)
                    let after = names.max().flatMap(PackFormat.timeInName) ?? PackFormat.now()
                    compacted = (
                        PackFormat.name(generation: generation, time: after + 1),
                        Self.format.encoded(kept.sorted { $0.key < $1.key }), names
                    )
                }
                let waiting = takeWaiting(&s)
                s.entries = nil
                s.read = []
                return (waiting, compacted)
            }
        if !waiting.isEmpty { write(waiting, time: PackFormat.now()) }
        if let compacted {
            do {
                try AtomicWriter.write(compacted.pack, to: folder + "/" + compacted.name, durable: false)
                for name in compacted.read { _ = unlink(folder + "/" + name) }
            } catch {
                report("cannot write to \(folder): \(error.description)")
            }
        }
    }

    /// One pack of `entries`, the last stored under each key.
    private func write(_ entries: [(key: String, bytes: [UInt8])], time: Int) {
        var last: [String: Int] = [:]
        for (n, entry) in entries.enumerated() { last[entry.key] = n }
        let pack = Self.format.encoded(entries.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element))
        do {
            try AtomicWriter.write(
                pack, to: folder + "/" + PackFormat.name(generation: generation, time: time), durable: false)
        } catch {
            report("cannot write to \(folder): \(error.description)")
        }
    }

    private func load(_ s: inout State) {
        var entries: [String: (bytes: [UInt8], pack: Int)] = [:]
        for name in PackFormat.names(in: folder, generation: generation) {
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
                // Compacted by another run meanwhile: its entries are in the pack that replaced it.
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
                continue
            }
            for (key, bytes) in pack { entries[key] = (bytes, s.read.count - 1) }
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
