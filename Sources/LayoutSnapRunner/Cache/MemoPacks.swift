import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The remembered keys of the local folder (`ResultCache.rememberedKey`): each run that learnt
/// keys writes them at its end as one file, `memos/<generation>-<time>-<pid>-<random>`, and a run
/// reads every file of its generation once, at its first lookup:
///
///     layoutsnap memo pack 1
///     memo <64 hex digits> <bytes>
///     <the record, KeyMemo's text>
///     end
///
/// One file a run, not one a fixture: a cold run made a file per fixture here, and on an ext4
/// without a journal (this project's CI machine) each new file soon after others were deleted
/// costs the kernel a scan of recently freed inodes; a warm run read a file per fixture. The
/// generation is what every memo of a run is filed under besides its fixture (build, environment,
/// lints): another build's packs are never read, so they are not touched and age out with
/// eviction. Later files win for a memo filed twice (names sort by time). A pack that is not whole
/// is read as none: its fixtures are decoded and their keys worked out again, as without a memo.
/// A memo is a shortcut to a key and never a verdict, so a lost or stale one costs time only. A
/// run that reads `maxPacks` or more writes them again as one (newest first, within `maxBytes`),
/// named just after the newest it read so that a pack another run writes meanwhile still wins,
/// and removes those it read; two runs doing so at once leave two copies, both whole.
///
/// With a remote store, the generation's packs are also one shared entry there (`Shared`), so
/// that a machine that never ran the suite (a CI job's fresh folder) finds its keys without
/// decoding, as a warm local run does: read only when the local folder holds none of the
/// generation's packs, under the local packs (which win), and put back
/// whole, merged with what this run learnt, when the run learnt a memo it lacked. Two runs
/// putting it at once each put a whole pack; the last one's stands, and the other's new memos
/// are learnt again by a later run. A memo from the store is a shortcut as a local one is: the
/// files it names are read and hashed (never waited on: `SystemCall.readPrefix` opens without
/// blocking), a hit is checked against the goldens, and audits render a sample of hits.
final class MemoPacks: @unchecked Sendable {
    /// The local folder's `memos/`; nil without a local folder.
    let folder: String?
    /// 16 hex digits: the start of the hash of what the run's memos share.
    let generation: String
    /// The most a pack read may be, and the shared pack put back: 32 MB, some 300,000 fixtures'
    /// records (4 MB with a remote store: `Shared.maxBytes`).
    let maxBytes: Int
    /// The most a local pack this run writes may be (`localBytes`): within `maxBytes`, and
    /// within a tenth of the folder's bound. The rest of a larger run's records are left out,
    /// and worked out again by the next run.
    let writtenBytes: Int
    private let state = LockedValue(State())

    let shared: Shared?

    /// The remote store's pack of the generation: `key` names it there; `puts`: whether the store
    /// takes uploads (`--remote-cache-upload never`: the pack is read, never put back).
    struct Shared {
        let store: any ResultStore
        let key: ResultKey
        var puts = true

        /// The most the shared pack may be: some 20,000 fixtures' memos, fetched well within a
        /// lookup's timeout on a slow link (a pack that did not arrive in time would take the
        /// store down for the run).
        static let maxBytes = 4 << 20

        /// The most files one shared record may name: a fixture names a picture or a few.
        static let maxInputs = 64

        /// What the pack of `generation` (the whole hash of what the run's memos share) is
        /// filed under in the remote store: no fixture's key or memo hashes as it.
        static func key(generation: String) -> ResultKey {
            var hasher = SHA256()
            hasher.update("layoutsnap-shared-memo-pack 1 generation#\(generation.utf8.count):\(generation)")
            return ResultKey(hex: hasher.hex())
        }
    }

    private struct State {
        /// By memo hex: the record and the place of its pack among those read (learnt: after all;
        /// the shared pack: before all).
        var records: [String: (bytes: [UInt8], age: Int)]?
        /// The shared pack's records as read, nil until read; empty when it was not there.
        var sharedRecords: [String: [UInt8]]?
        var sharedFinished = false
        /// The files read, valid or not: a compaction replaces them all.
        var read: [String] = []
        /// How many of them were whole packs.
        var whole = 0
        var learned: [(memo: String, bytes: [UInt8])] = []
        var finished = false
    }

    static let header = "layoutsnap memo pack 1\n"
    static let maxPacks = 8

    /// The most a pack written into a local folder bound to `folderBytes` may be: a tenth of it,
    /// at most 32 MB (the default bound's 512 MB gives 32 MB). A pack as large as the folder's
    /// bound would have eviction take the entries, and then the pack itself, at every run. Only
    /// what is written: packs written under a larger bound are still read, and the shared pack
    /// is the team's, not this folder's.
    static func localBytes(folderBytes: Int) -> Int { min(32 << 20, folderBytes / 10) }

    /// `folderBytes`: the local folder's bound (`LocalResultStore.maxBytes`), nil for none.
    init(
        folder: String?, generation: String, shared: Shared? = nil, maxBytes: Int = 32 << 20, folderBytes: Int? = nil
    ) {
        self.folder = folder
        self.generation = generation
        self.shared = shared
        // The shared pack travels as one entry, fetched in one lookup's time.
        self.maxBytes = shared == nil ? maxBytes : min(maxBytes, Shared.maxBytes)
        writtenBytes = min(self.maxBytes, folderBytes.map(Self.localBytes) ?? .max)
    }

    /// Has the remote store ask for the shared pack now (`RemoteResultStore.prefetch`) when the
    /// run will need it: no local folder, or none of the generation's packs in it (a CI job's).
    /// It then comes while the run finds its fixtures, instead of a round trip after.
    func askAheadForShared() {
        guard let shared, shared.store is RemoteResultStore else { return }
        if let folder {
            let entries = (try? SystemCall.folderEntries(folder).get()) ?? []
            guard !entries.contains(where: { !$0.isFolder && $0.name.hasPrefix(generation + "-") }) else { return }
        }
        (shared.store as? RemoteResultStore)?.prefetch([shared.key])
    }

    /// The record filed under `memo`, from the local packs (read at the first call), the shared
    /// one (read at the first memo they lack, when they are none: a folder that holds a pack of
    /// the generation does not ask), or this run. A memo such a folder lacks is of a fixture
    /// changed since, or one that does not decode: it is worked out by decoding, which costs
    /// less than the whole shared pack fetched for it, at every run for a fixture that never
    /// decodes. (`finishShared` still reads the pack at the end of a run that learnt a memo, to
    /// put it back merged.)
    func record(_ memo: ResultKey) -> [UInt8]? {
        state.withLock { s in
            if s.records == nil { load(&s) }
            if let found = s.records?[memo.hex] { return found.bytes }
            guard shared != nil, s.sharedRecords == nil, s.whole == 0 else { return nil }
            loadShared(&s)
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
    /// warnings: memos lost cost the next run time, nothing else. A run that stops before its
    /// end writes none.
    func finish() -> String? {
        let (pack, packName, replaced): ([UInt8]?, String, [String]) = state.withLock { s in
            guard !s.finished, folder != nil else { return (nil, "", []) }
            s.finished = true
            if s.read.count >= Self.maxPacks, let records = s.records {
                // Newest first, then by memo: the same records keep the same ones under the bound.
                let ordered = records.sorted {
                    $0.value.age != $1.value.age ? $0.value.age > $1.value.age : $0.key < $1.key
                }
                return (
                    bounded(ordered.map { ($0.key, $0.value.bytes) }, within: writtenBytes),
                    PackFormat.name(after: s.read, generation: generation),
                    s.read
                )
            }
            // The shared pack's memos the local packs lacked are kept with them, as a local
            // folder in front keeps the remote's hits: the next run finds them without asking.
            let fromShared = (s.records ?? [:]).filter { $0.value.age == -1 }.keys.sorted()
            guard !s.learned.isEmpty || !fromShared.isEmpty else { return (nil, "", []) }
            // The last learnt for each memo, in the order first learnt; then the shared ones.
            var last: [String: [UInt8]] = [:]
            var order: [String] = []
            for (memo, bytes) in s.learned {
                if last.updateValue(bytes, forKey: memo) == nil { order.append(memo) }
            }
            for memo in fromShared where last[memo] == nil {
                last[memo] = s.records![memo]!.bytes
                order.append(memo)
            }
            return (bounded(order.map { ($0, last[$0]!) }, within: writtenBytes), name(time: PackFormat.now()), [])
        }
        guard let pack, let folder else { return nil }
        do {
            try AtomicWriter.write(pack, to: folder + "/" + packName, durable: false)
        } catch {
            return "cannot write to \(folder): \(error.description)"
        }
        for old in replaced { _ = unlink(folder + "/" + old) }
        return nil
    }

    /// Puts the shared pack back, merged with what this run learnt, when the run learnt a memo
    /// it lacked or held otherwise; once, before the remote store's uploads are drained. The
    /// pack is read again first, so that what other runs put meanwhile (CI's parallel jobs) is
    /// kept; two runs that put it at the same moment still leave one's new memos out.
    func finishShared() {
        guard let shared, shared.puts else { return }
        let pack: [UInt8]? = state.withLock { s in
            guard !s.sharedFinished, !s.learned.isEmpty else { return nil }
            s.sharedFinished = true
            if s.records == nil { load(&s) }
            // Read anew, not the answer asked ahead at the start.
            (shared.store as? RemoteResultStore)?.dropAhead(shared.key)
            loadShared(&s)
            let before = s.sharedRecords ?? [:]
            var merged = before
            // The last learnt for each memo, in the order first learnt: kept first under the bound.
            var order: [String] = []
            var learnt: Set<String> = []
            for (memo, bytes) in s.learned {
                merged[memo] = bytes
                if learnt.insert(memo).inserted { order.append(memo) }
            }
            guard order.contains(where: { before[$0] != merged[$0] }) else { return nil }
            let priority =
                order.map { ($0, merged[$0]!) }
                + before.keys.filter { !learnt.contains($0) }.sorted().map { ($0, merged[$0]!) }
            return bounded(priority, within: maxBytes)
        }
        if let pack { shared.store.put(shared.key, pack) }
    }

    /// The records in `priority` order that fit in `maxBytes`, as a pack sorted by memo.
    private func bounded(_ priority: [(memo: String, bytes: [UInt8])], within maxBytes: Int) -> [UInt8] {
        var kept: [(memo: String, bytes: [UInt8])] = []
        var total = Self.encoded([]).count
        for record in priority {
            let size = Self.format.size(key: record.memo, count: record.bytes.count)
            guard total + size <= maxBytes else { continue }
            total += size
            kept.append(record)
        }
        return Self.encoded(kept.sorted { $0.memo < $1.memo })
    }

    private func name(time: Int) -> String { PackFormat.name(generation: generation, time: time) }

    private func load(_ s: inout State) {
        var records: [String: (bytes: [UInt8], age: Int)] = [:]
        guard let folder else {
            for (memo, bytes) in s.learned { records[memo] = (bytes, Int.max) }
            s.records = records
            return
        }
        let names = PackFormat.names(in: folder, generation: generation)
        let now = Int(time(nil))
        for (age, name) in names.enumerated() {
            // Touched as an entry is: least recently used is evicted first.
            guard
                let (size, bytes) = try? SystemCall.readPrefix(
                    folder + "/" + name, upTo: maxBytes,
                    touch: {
                        now - $0 >= LocalResultStore.touchAfterSeconds
                    })
            else { continue }
            s.read.append(name)
            guard size == bytes.count, let pack = Self.parse(bytes) else { continue }
            s.whole += 1
            for (memo, record) in pack { records[memo] = (record, age) }
        }
        for (memo, bytes) in s.learned { records[memo] = (bytes, Int.max) }
        s.records = records
    }

    /// The shared pack's records, each under the local packs' and this run's for its memo. A
    /// pack that is not whole (or another kind of entry) is none; the store has warned of one
    /// that did not hash to its name, or of a store that did not answer. A record is taken
    /// only as a run of layoutsnap writes one (`usable`).
    private func loadShared(_ s: inout State) {
        guard let shared else { return }
        let pack = shared.store.get(shared.key).flatMap { $0.count <= maxBytes ? Self.parse($0) : nil } ?? []
        var read: [String: [UInt8]] = [:]
        for (memo, record) in pack where Self.usable(record) {
            read[memo] = record
            if s.records?[memo] == nil { s.records?[memo] = (record, -1) }
        }
        s.sharedRecords = read
    }

    /// Whether a record from the server is one a run of layoutsnap writes: whole, within a
    /// memo's size, naming a few files, each by a path below the working folder. The files a
    /// record names are opened and hashed, so a server's record may not send the run to any
    /// other file on the machine (a device, another user's file); a fixture whose memo names a
    /// file elsewhere is decoded instead, which costs time only.
    static func usable(_ record: [UInt8]) -> Bool {
        guard record.count <= LocalResultStore.maxMemoBytes, let memo = KeyMemo.parse(record),
            memo.inputs.count <= Shared.maxInputs
        else { return false }
        return memo.inputs.allSatisfy { input in
            !input.path.isEmpty && !input.path.hasPrefix("/")
                && !input.path.split(separator: "/", omittingEmptySubsequences: false).contains {
                    $0 == ".." || $0.isEmpty
                }
        }
    }

    static let format = PackFormat(header: header, word: "memo")

    static func encoded(_ records: [(memo: String, bytes: [UInt8])]) -> [UInt8] {
        format.encoded(records.map { ($0.memo, $0.bytes) })
    }

    /// The records of a whole pack, in file order; nil for anything else (torn, another format).
    static func parse(_ bytes: [UInt8]) -> [(memo: String, bytes: [UInt8])]? {
        format.parse(bytes)?.map { ($0.key, $0.bytes) }
    }
}
