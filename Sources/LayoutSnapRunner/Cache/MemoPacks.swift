import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The remembered keys of the local folder (`ResultCache.rememberedKey`): each run that learnt
/// keys writes them at its end as one file, `memos/<time>-<pid>-<random>`, and a run reads every
/// such file once, at its first lookup:
///
///     layoutsnap memo pack 1
///     memo <64 hex digits> <bytes>
///     <the record, KeyMemo's text>
///     end
///
/// One file a run, not one a fixture: a cold run made a file per fixture here, and on an ext4
/// without a journal (this project's CI machine) each new file soon after others were deleted
/// costs the kernel a scan of recently freed inodes; a warm run read a file per fixture. Later
/// files win for a memo filed twice (names sort by time). A pack that is not whole is read as
/// none: its fixtures are decoded and their keys worked out again, as without a memo. A memo is a
/// shortcut to a key and never a verdict, so a lost or stale one costs time only. A run that
/// reads `maxPacks` or more writes them again as one (newest first, within `maxBytes`) and
/// removes those it read; two runs doing so at once leave two copies, both whole.
final class MemoPacks: @unchecked Sendable {
    let folder: String
    private let state = LockedValue(State())

    private struct State {
        /// By memo hex: the record and the place of its pack among those read (learnt: after all).
        var records: [String: (bytes: [UInt8], age: Int)]?
        /// The files read, valid or not: a compaction replaces them all.
        var read: [String] = []
        var learned: [(memo: String, bytes: [UInt8])] = []
        var finished = false
    }

    static let header = "layoutsnap memo pack 1\n"
    static let maxPacks = 8
    /// The most one pack may be, and a compaction writes: some 300,000 fixtures' records.
    static let maxBytes = 32 << 20

    init(folder: String) {
        self.folder = folder
    }

    /// The record filed under `memo`, from the packs (read at the first call) or this run.
    func record(_ memo: ResultKey) -> [UInt8]? {
        state.withLock { s in
            if s.records == nil { load(&s) }
            return s.records?[memo.hex]?.bytes
        }
    }

    /// Files `record` under `memo` for this run's lookups, and for the pack `finish` writes.
    func remember(_ record: [UInt8], for memo: ResultKey) {
        guard record.count <= LocalResultStore.maxMemoBytes else { return }
        state.withLock { s in
            s.learned.append((memo.hex, record))
            s.records?[memo.hex] = (record, Int.max)
        }
    }

    /// Writes what this run learnt as one pack (and, after `maxPacks` or more were read, every
    /// record with it, removing the packs read); once. A failure is returned for the run's
    /// warnings: memos lost cost the next run time, nothing else.
    func finish() -> String? {
        let (pack, replaced): ([UInt8]?, [String]) = state.withLock { s in
            guard !s.finished else { return (nil, []) }
            s.finished = true
            let compacting = s.read.count >= Self.maxPacks
            if compacting, let records = s.records {
                // Newest first within the bound; the file's order by memo, whatever the run's.
                var kept: [(memo: String, bytes: [UInt8])] = []
                var total = 0
                for (memo, record) in records.sorted(by: { $0.value.age > $1.value.age }) {
                    total += record.bytes.count + 90
                    if total > Self.maxBytes { break }
                    kept.append((memo, record.bytes))
                }
                return (Self.encoded(kept.sorted { $0.memo < $1.memo }), s.read)
            }
            guard !s.learned.isEmpty else { return (nil, []) }
            var last: [String: [UInt8]] = [:]
            for (memo, bytes) in s.learned { last[memo] = bytes }
            return (Self.encoded(last.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }), [])
        }
        guard let pack else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let name = String(
            format: "%012ld%09ld-%d-%08x", now.tv_sec, now.tv_nsec, getpid(), UInt32.random(in: 0...UInt32.max))
        do {
            try AtomicWriter.write(pack, to: folder + "/" + name, durable: false)
        } catch {
            return "cannot write to \(folder): \(error.description)"
        }
        for old in replaced { _ = unlink(folder + "/" + old) }
        return nil
    }

    private func load(_ s: inout State) {
        var records: [String: (bytes: [UInt8], age: Int)] = [:]
        // A folder that is not there yet holds no packs; AtomicWriter's temporary files start
        // with a dot.
        let names = ((try? SystemCall.folderEntries(folder).get()) ?? [])
            .filter { !$0.isFolder && $0.isUTF8 && !$0.name.hasPrefix(".") }.map(\.name).sorted()
        let now = Int(time(nil))
        for (age, name) in names.enumerated() {
            // Touched as an entry is: least recently used is evicted first.
            guard
                let (size, bytes) = try? SystemCall.readPrefix(
                    folder + "/" + name, upTo: Self.maxBytes,
                    touch: {
                        now - $0 >= LocalResultStore.touchAfterSeconds
                    })
            else { continue }
            s.read.append(name)
            guard size == bytes.count, let pack = Self.parse(bytes) else { continue }
            for (memo, record) in pack { records[memo] = (record, age) }
        }
        for (memo, bytes) in s.learned { records[memo] = (bytes, Int.max) }
        s.records = records
    }

    static func encoded(_ records: [(memo: String, bytes: [UInt8])]) -> [UInt8] {
        var out = Array(header.utf8)
        for (memo, bytes) in records {
            out += Array("memo \(memo) \(bytes.count)\n".utf8)
            out += bytes
            out.append(0x0A)
        }
        return out + Array("end\n".utf8)
    }

    /// The records of a whole pack, in file order; nil for anything else (torn, another format).
    static func parse(_ bytes: [UInt8]) -> [(memo: String, bytes: [UInt8])]? {
        var reader = RecordReader(bytes: bytes)
        guard reader.take(header) else { return nil }
        var records: [(memo: String, bytes: [UInt8])] = []
        while !reader.take("end\n") {
            guard reader.take("memo "), let memo = reader.hex(), reader.take(" "), let count = reader.count(),
                reader.take("\n"), let record = reader.line(count)
            else { return nil }
            records.append((memo, record))
        }
        guard reader.atEnd else { return nil }
        return records
    }
}
