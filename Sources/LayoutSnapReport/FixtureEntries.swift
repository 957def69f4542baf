import Foundation

/// A run's fixtures, in order: held in memory, or spooled to disk as they finish (a verify of
/// 10,000 fixtures), so that memory stays flat in the number of fixtures. A spooled entry is
/// read back when it is asked for; entries that did not pass stay in memory as well, so the
/// terminal lines and the exit code never touch the disk. Either way it is one collection:
/// results.json, JUnit, the HTML report and the summary all read it the same way.
public struct FixtureEntries: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
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
        case let .memory(entries): entries.count
        case let .spooled(spool): spool.count
        }
    }

    public subscript(position: Int) -> FixtureEntry {
        get {
            switch storage {
            case let .memory(entries): entries[position]
            case let .spooled(spool): spool.entry(position)
            }
        }
        set {
            // Changed in place (tests, a merge): held in memory from then on.
            var entries = Array(self)
            entries[position] = newValue
            storage = .memory(entries)
        }
    }

    /// The fixtures whose outcome is not a pass, in order, without reading spooled passes back.
    public var notPassed: [FixtureEntry] {
        switch storage {
        case let .memory(entries): entries.filter { $0.outcome != .passed }
        case let .spooled(spool): spool.notPassed
        }
    }

    /// The fixtures worth a line: those that did not pass, those whose motion changed within their
    /// timing tolerance, and those with frames only similar (kept in memory by a spool).
    public var noteworthy: [FixtureEntry] {
        switch storage {
        case let .memory(entries): entries.filter { $0.outcome != .passed || $0.hasMotion || $0.hasSimilar || $0.hasLints }
        case let .spooled(spool): spool.noteworthy
        }
    }

    /// The counts the summary is made of, kept as a spool fills (no reading back).
    var tally: Summary.Tally {
        switch storage {
        case let .memory(entries):
            var tally = Summary.Tally()
            for entry in entries { tally.add(entry) }
            return tally
        case let .spooled(spool): return spool.tally
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
public final class FixtureSpool: @unchecked Sendable {
    private let lock = NSLock()
    private let fd: Int32
    private var end: Int64 = 0
    /// Where each index's JSON is: offset and length (length -1: not put yet).
    private var places: [(offset: Int64, length: Int)]
    private var kept: [Int: FixtureEntry] = [:]
    private(set) var tally = Summary.Tally()
    private var sealed = false

    /// A spool for `count` entries. Throws when no temporary file can be made.
    public init(count: Int) throws {
        var template = Array((NSTemporaryDirectory() + "/layoutsnap-results-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot make a temporary file: \(String(cString: strerror(errno)))"]) }
        // Unlinked at once: the file lives as long as the descriptor, even if the run is killed.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
        places = Array(repeating: (0, -1), count: count)
    }

    deinit { close(fd) }

    var count: Int { places.count }

    /// Puts the entry for `index`. A write that fails keeps the entry in memory instead: the run
    /// loses nothing, it only stops being flat.
    public func put(_ index: Int, _ entry: FixtureEntry) {
        let data = (try? Self.encoder.encode(entry)) ?? Data()
        lock.withLock {
            precondition(!sealed && places[index].length < 0, "FixtureSpool: index \(index) put twice or after sealing")
            tally.add(entry)
            if entry.outcome != .passed || entry.hasMotion || entry.hasSimilar || entry.hasLints || data.isEmpty || !write(data) {
                kept[index] = entry
                places[index] = (0, 0)
                return
            }
            places[index] = (end, data.count)
            end += Int64(data.count)
        }
    }

    private func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(end) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }

    func seal() {
        lock.withLock {
            precondition(places.allSatisfy { $0.length >= 0 }, "FixtureSpool: sealed with entries missing")
            sealed = true
        }
    }

    func entry(_ index: Int) -> FixtureEntry {
        let place = lock.withLock { () -> (offset: Int64, length: Int)? in kept[index] == nil ? places[index] : nil }
        guard let place else { return lock.withLock { kept[index]! } }
        var data = Data(count: place.length)
        let read = data.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(place.offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        // The file is ours alone and unlinked: reading back what was written cannot fail short
        // of the disk failing under the run.
        guard read, let entry = try? Self.decoder.decode(FixtureEntry.self, from: data) else {
            preconditionFailure("FixtureSpool: entry \(index) cannot be read back from the temporary file")
        }
        return entry
    }

    var notPassed: [FixtureEntry] {
        lock.withLock { kept.keys.sorted().map { kept[$0]! } }.filter { $0.outcome != .passed }
    }

    var noteworthy: [FixtureEntry] {
        lock.withLock { kept.keys.sorted().map { kept[$0]! } }.filter { $0.outcome != .passed || $0.hasMotion || $0.hasSimilar || $0.hasLints }
    }

    private static let encoder = ResultsJSON.makeEncoder(pretty: false)
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }()
}
