import Foundation
import LayoutSnapSystem

/// A run's fixtures, in order: held in memory, or spooled to disk as they finish (a verify of
/// 10,000 fixtures), so that memory stays flat in the number of fixtures. A spooled entry is
/// read back when it is asked for; entries that did not pass stay in memory as well, so the
/// terminal lines and the exit code never touch the disk. Either way it is one collection:
/// results.json, JUnit, the HTML report and the summary all read it the same way.
public struct FixtureEntries: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Sendable, Equatable
{
    private enum Storage: Sendable {
        case memory([FixtureEntry])
        case spooled(FixtureSpool)
    }

    private var storage: Storage

    public init(_ entries: [FixtureEntry]) { storage = .memory(entries) }
    public init(arrayLiteral elements: FixtureEntry...) { storage = .memory(elements) }
    /// The entries of a finished spool (every index put).
    public init(_ spool: FixtureSpool) {
        spool.seal()
        storage = .spooled(spool)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .memory(let entries): entries.count
        case .spooled(let spool): spool.count
        }
    }

    public subscript(position: Int) -> FixtureEntry {
        get {
            switch storage {
            case .memory(let entries): entries[position]
            case .spooled(let spool): spool.entry(position)
            }
        }
        set {
            // Changed in place (tests, a merge): held in memory from then on.
            var entries = Array(self)
            entries[position] = newValue
            storage = .memory(entries)
        }
    }

    /// The entry at `position` as the spool wrote it, compact JSON from `ResultsJSON`'s encoder;
    /// nil when it is not spooled (held in memory, or not a pass).
    public func compactJSON(at position: Int) -> Data? {
        guard case .spooled(let spool) = storage else { return nil }
        return spool.bytes(position)
    }

    /// The fixtures whose outcome is not a pass, in order, without reading spooled passes back.
    public var notPassed: [FixtureEntry] {
        switch storage {
        case .memory(let entries): entries.filter { $0.outcome != .passed }
        case .spooled(let spool): spool.notPassed
        }
    }

    /// The fixtures worth a line: those that did not pass, those whose motion changed within their
    /// timing tolerance, and those with frames only similar (kept in memory by a spool).
    public var noteworthy: [FixtureEntry] {
        switch storage {
        case .memory(let entries):
            entries.filter(\.isNoteworthy)
        case .spooled(let spool): spool.noteworthy
        }
    }

    /// The counts the summary is made of, kept as a spool fills (no reading back).
    var tally: Summary.Tally {
        switch storage {
        case .memory(let entries):
            var tally = Summary.Tally()
            for entry in entries { tally.add(entry) }
            return tally
        case .spooled(let spool): return spool.tally
        }
    }

    public static func == (a: FixtureEntries, b: FixtureEntries) -> Bool { a.elementsEqual(b) }
}

extension FixtureEntries: Codable {
    public init(from decoder: any Decoder) throws { storage = .memory(try [FixtureEntry](from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try Array(self).encode(to: encoder) }
}

/// Fixture entries written to an unlinked temporary file as each fixture finishes (from any
/// thread, in any order), read back by index. The file goes when the spool does.
public final class FixtureSpool: Sendable {
    private struct State {
        var end: Int64 = 0
        /// Where each index's JSON is: offset and length (length -1: not put yet; -2: being
        /// written).
        var places: [(offset: Int64, length: Int)]
        var kept: [Int: FixtureEntry] = [:]
        var tally = Summary.Tally()
        var sealed = false
    }

    private let fd: Int32
    private let state: LockedValue<State>

    /// A spool for `count` entries. Throws when no temporary file can be made.
    public init(count: Int) throws {
        var template = Array((NSTemporaryDirectory() + "/layoutsnap-results-XXXXXX").utf8CString)
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.mkstemp(&template)
        } catch {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "cannot make a temporary file: \(error.reason)"])
        }
        // Unlinked at once: the file lives as long as the descriptor, even if the run is killed.
        try? Posix.unlink(String(cString: template))
        self.fd = fd
        state = LockedValue(State(places: Array(repeating: (0, -1), count: count)))
    }

    deinit { try? SystemCall.close(fd) }

    var count: Int { state.withLock { $0.places.count } }
    var tally: Summary.Tally { state.withLock { $0.tally } }

    /// Puts the entry for `index`. A write that fails keeps the entry in memory instead: the run
    /// loses nothing, it only stops being flat.
    public func put(_ index: Int, _ entry: FixtureEntry) {
        let kept = entry.isNoteworthy
        let data = kept ? Data() : PassEntryJSON.bytes(entry) ?? (try? Self.encoder.encode(entry)) ?? Data()
        // The place is taken under the lock and written outside it: the other workers do not
        // wait for this one's write (a failed write leaves a hole no place points into).
        let place: Int64? = state.withLock { s in
            precondition(
                !s.sealed && s.places[index].length == -1, "FixtureSpool: index \(index) put twice or after sealing")
            s.places[index].length = -2
            s.tally.add(entry)
            guard !kept, !data.isEmpty else { return nil }
            defer { s.end += Int64(data.count) }
            return s.end
        }
        let written = place.map { write(data, at: $0) } ?? false
        state.withLock { s in
            if let place, written {
                s.places[index] = (place, data.count)
            } else {
                s.kept[index] = entry
                s.places[index] = (0, 0)
            }
        }
    }

    private func write(_ data: Data, at offset: Int64) -> Bool {
        (try? data.withUnsafeBytes { buffer in try SystemCall.writeAll(fd, buffer, at: offset) }) != nil
    }

    func seal() {
        state.withLock { s in
            precondition(s.places.allSatisfy { $0.length >= 0 }, "FixtureSpool: sealed with entries missing")
            s.sealed = true
        }
    }

    func entry(_ index: Int) -> FixtureEntry {
        if let kept = state.withLock({ $0.kept[index] }) { return kept }
        guard let data = bytes(index), let entry = try? Self.decoder.decode(FixtureEntry.self, from: data) else {
            preconditionFailure("FixtureSpool: entry \(index) cannot be read back from the temporary file")
        }
        return entry
    }

    /// The JSON spooled for `index`; nil when the entry is kept in memory instead.
    func bytes(_ index: Int) -> Data? {
        let found = state.withLock { s -> (kept: Bool, place: (offset: Int64, length: Int)) in
            (s.kept[index] != nil, s.places[index])
        }
        if found.kept { return nil }
        let place = found.place
        var data = Data(count: place.length)
        let read =
            (try? data.withUnsafeMutableBytes { buffer in
                try SystemCall.readAll(fd, into: buffer, at: place.offset)
            }) != nil
        // The file is ours alone and unlinked: reading back what was written cannot fail short
        // of the disk failing under the run.
        guard read else {
            preconditionFailure("FixtureSpool: entry \(index) cannot be read back from the temporary file")
        }
        return data
    }

    var notPassed: [FixtureEntry] {
        keptEntries.filter { $0.outcome != .passed }
    }

    var noteworthy: [FixtureEntry] {
        keptEntries.filter(\.isNoteworthy)
    }

    /// The entries kept in memory, by index.
    private var keptEntries: [FixtureEntry] {
        state.withLock { s in s.kept.keys.sorted().map { s.kept[$0]! } }
    }

    private static let encoder = ResultsJSON.makeEncoder(pretty: false)
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }()
}
