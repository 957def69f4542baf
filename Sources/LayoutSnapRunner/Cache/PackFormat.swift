import Foundation
import LayoutSnapSystem

/// The file both kinds of pack are (`MemoPacks`, `EntryPacks`): a header line, each record as a
/// line naming it by a SHA-256 and its length in bytes, the record and a newline, then `end`:
///
///     layoutsnap entry pack 1
///     entry <64 hex digits> <bytes>
///     <the record>
///     end
///
/// A pack is written whole (`AtomicWriter`) under `<generation>-<time>-<pid>-<random>`, so names
/// sort by time and a later pack wins for a record filed twice; one that does not parse whole
/// (torn, edited out of its frame, another format) is read as none.
struct PackFormat: Sendable {
    /// The first line, with its newline.
    let header: String
    /// The word each record's line starts with.
    let word: String

    func encoded(_ records: [(key: String, bytes: [UInt8])]) -> [UInt8] {
        var out = Array(header.utf8)
        out.reserveCapacity(records.reduce(out.count + 4) { $0 + size(key: $1.key, count: $1.bytes.count) })
        for (key, bytes) in records {
            out += Array("\(word) \(key) \(bytes.count)\n".utf8)
            out += bytes
            out.append(0x0A)
        }
        return out + Array("end\n".utf8)
    }

    /// What one record adds to a pack.
    func size(key: String, count: Int) -> Int {
        "\(word) \(key) \(count)\n".utf8.count + count + 1
    }

    /// The records of a whole pack, in file order; nil for anything else.
    func parse(_ bytes: [UInt8]) -> [(key: String, bytes: [UInt8])]? {
        var reader = RecordReader(bytes: bytes)
        guard reader.take(header) else { return nil }
        var records: [(key: String, bytes: [UInt8])] = []
        while !reader.take("end\n") {
            guard reader.take(word + " "), let key = reader.hex(), reader.take(" "), let count = reader.count(),
                reader.take("\n"), let record = reader.line(count)
            else { return nil }
            records.append((key, record))
        }
        guard reader.atEnd else { return nil }
        return records
    }

    /// Nanoseconds since 1970, as a pack's name gives them.
    static func now() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    static func name(generation: String, time: Int) -> String {
        "\(generation)-" + String(format: "%020ld-%d-%08x", time, getpid(), UInt32.random(in: 0...UInt32.max))
    }

    /// A name for a pack that replaces the packs `read` (a compaction): just after the newest of
    /// them, so that a pack another run writes meanwhile still wins. A name whose time is the
    /// largest there is (a stray file's) gives that time again rather than overflowing.
    static func name(after read: [String], generation: String) -> String {
        let newest = read.max().flatMap(timeInName) ?? now()
        return name(generation: generation, time: newest < Int.max ? newest + 1 : newest)
    }

    /// The time in a pack's name.
    static func timeInName(_ name: String) -> Int? {
        let fields = name.split(separator: "-")
        return fields.count >= 2 ? Int(fields[1]) : nil
    }

    /// The names of the packs of `generation` in `folder`, oldest first: AtomicWriter's
    /// temporary files start with a dot, and another generation's packs are left to age out. A
    /// folder that is not there yet holds none.
    static func names(in folder: String, generation: String) -> [String] {
        ((try? SystemCall.folderEntries(folder).get()) ?? [])
            .filter { !$0.isFolder && $0.isUTF8 && $0.name.hasPrefix(generation + "-") }.map(\.name).sorted()
    }
}
