import Foundation

/// Hashes of large files remembered by what `stat` says of them, as git's index and make do: a
/// file whose device, inode, size, modification time and change time are all as they were when
/// it was hashed is taken to have the same bytes. The change time cannot be set by a program
/// (writing or renaming over the file moves it), and a file changed within two seconds of being
/// hashed is not remembered, so a write in the same clock tick is never missed.
///
/// One text file, a line a file: `<hash> <dev> <ino> <size> <mtime ns> <ctime ns> <bytes>:<path>`.
/// A line that does not read is ignored; the file is written whole, atomically, when it changed.
public final class FileHashMemo: Sendable {
    public let path: String
    /// How long a file must have been still to be remembered (nanoseconds).
    let settle: Int64
    private let known: [String: Line]
    private let learned = LockedValue([String: Line]())

    /// What `stat` says of a file that changes when its bytes do.
    public struct Signature: Hashable, Sendable {
        public var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64
    }

    struct Line: Equatable {
        var hash: String
        var signature: Signature
    }

    let base: String?

    /// Whether a symbolic link is remembered as the file it points to; without, only regular
    /// files are remembered (a link is hashed each time, by the caller's own rules for links).
    let followsLinks: Bool

    /// The memo at `path` (none yet, or unreadable: an empty one). `maxBytes` bounds what is
    /// read of it: a larger memo is ignored and written anew.
    public convenience init(
        path: String, followsLinks: Bool = true, maxBytes: Int = 1 << 20, relativeTo base: String? = nil
    ) {
        self.init(path: path, settle: 2_000_000_000, followsLinks: followsLinks, maxBytes: maxBytes, relativeTo: base)
    }

    /// `base`: a relative path is remembered as below this folder (a memo outside the project,
    /// the user's, holds whole paths); nil: as it is given.
    init(
        path: String, settle: Int64, followsLinks: Bool = true, maxBytes: Int = 1 << 20, relativeTo base: String? = nil
    ) {
        self.path = path
        self.settle = settle
        self.followsLinks = followsLinks
        self.base = base
        var known: [String: Line] = [:]
        if let read = try? SystemCall.readPrefix(path, upTo: maxBytes), read.size < maxBytes {
            known = read.bytes.withUnsafeBytes { Self.parse($0) }
        }
        self.known = known
    }

    /// The hash of the file at `file`: remembered, or `hash` of its bytes, remembered when the
    /// file has been still for two seconds.
    public func hash(_ file: String, _ hash: (String) throws(SystemError) -> String) throws(SystemError) -> String {
        guard let signature = Self.signature(file, followsLinks: followsLinks) else { return try hash(file) }
        let name = base.map { Self.whole(file, under: $0) } ?? file
        if let line = known[name], line.signature == signature { return line.hash }
        let value = try hash(file)
        // Read again after hashing: a file that moved meanwhile is not remembered.
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        if Self.signature(file, followsLinks: followsLinks) == signature,
            now - max(signature.modified, signature.changed) > settle
        {
            learned.withLock { $0[name] = Line(hash: value, signature: signature) }
        }
        return value
    }

    /// The remembered hash of the file at `file` while it is as it was when hashed; nil when
    /// it is not remembered or changed since (`hash` reads it then).
    public func remembered(_ file: String) -> String? {
        guard let signature = Self.signature(file, followsLinks: followsLinks) else { return nil }
        let name = base.map { Self.whole(file, under: $0) } ?? file
        guard let line = known[name], line.signature == signature else { return nil }
        return line.hash
    }

    /// `file` as remembered under `base`: a relative path below it, an absolute one as it is.
    static func whole(_ file: String, under base: String) -> String {
        file.hasPrefix("/") ? file : (base.hasSuffix("/") ? base : base + "/") + file
    }

    /// Writes what was learned, when anything was (a memo that cannot be written is no error:
    /// the next run hashes again). A remembered file that is gone is left out: goldens come and
    /// go, and the memo would otherwise only grow.
    /// Returns whether it wrote the memo.
    @discardableResult
    public func save() -> Bool {
        let learned = learned.withLock { $0 }
        guard learned.contains(where: { known[$0.key] != $0.value }) else { return false }
        let kept = known.filter { learned[$0.key] != nil || Self.signature($0.key, followsLinks: followsLinks) != nil }
        let all = kept.merging(learned) { _, new in new }
        var text = ""
        for (file, line) in all.sorted(by: { $0.key < $1.key }) {
            let s = line.signature
            text +=
                "\(line.hash) \(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed) \(file.utf8.count):\(file)\n"
        }
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return (try? AtomicWriter.write(Array(text.utf8), to: path, durable: false)) != nil
    }

    /// The file's signature; nil when it cannot be read (or, not following links, is no regular
    /// file).
    public static func signature(_ file: String, followsLinks: Bool = true) -> Signature? {
        guard let info = SystemCall.status(file, followsLinks: followsLinks),
            followsLinks || info.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return Signature(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// Every line of `bytes` that reads whole; one that does not is skipped to its newline.
    /// Read byte by byte: a memo of the goldens has a line for each, read at every warm run.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [String: Line] {
        var known: [String: Line] = [:]
        // Room for a line a newline at once: growing step by step was two fifths of the reading.
        if let base = bytes.baseAddress {
            var lines = 0
            var at = 0
            while at < bytes.count, let hit = memchr(base + at, 0x0A, bytes.count - at) {
                lines += 1
                at = base.distance(to: UnsafeRawPointer(hit)) + 1
            }
            known.reserveCapacity(lines)
        }
        var at = 0
        let end = bytes.count
        /// The bytes up to `stop` (not empty, no space or newline), and past it.
        func word(until stop: UInt8) -> Range<Int>? {
            let start = at
            while at < end, bytes[at] != stop, bytes[at] != 0x20, bytes[at] != 0x0A { at += 1 }
            guard at < end, bytes[at] == stop, at > start else { return nil }
            at += 1
            return start..<at - 1
        }
        func number(until stop: UInt8) -> UInt64? {
            guard let digits = word(until: stop), digits.count <= 19 else { return nil }
            var value: UInt64 = 0
            for i in digits {
                guard (0x30...0x39).contains(bytes[i]) else { return nil }
                value = value * 10 + UInt64(bytes[i] - 0x30)
            }
            return value
        }
        /// A time: nanoseconds since 1970, before it for a file dated so.
        func time(until stop: UInt8) -> Int64? {
            let negative = at < end && bytes[at] == UInt8(ascii: "-")
            if negative { at += 1 }
            guard let value = number(until: stop), value <= UInt64(Int64.max) else { return nil }
            return negative ? -Int64(value) : Int64(value)
        }
        func line() -> (String, Line)? {
            guard let hash = word(until: 0x20), let device = number(until: 0x20), let inode = number(until: 0x20),
                let size = number(until: 0x20), let modified = time(until: 0x20), let changed = time(until: 0x20),
                let count = number(until: 0x3A), count > 0, UInt64(end - at) > count
            else { return nil }
            let file = at..<at + Int(count)
            at += Int(count)
            guard bytes[at] == 0x0A, size <= UInt64(Int64.max) else { return nil }
            at += 1
            return (
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[file]), as: UTF8.self),
                Line(
                    hash: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[hash]), as: UTF8.self),
                    signature: Signature(
                        device: device, inode: inode, size: Int64(size), modified: modified, changed: changed))
            )
        }
        while at < end {
            if let (file, entry) = line() {
                known[file] = entry
            } else {
                while at < end, bytes[at] != 0x0A { at += 1 }
                at += 1
            }
        }
        return known
    }
}
