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

    struct Signature: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64
    }

    struct Line: Equatable {
        var hash: String
        var signature: Signature
    }

    /// The memo at `path` (none yet, or unreadable: an empty one).
    public convenience init(path: String) { self.init(path: path, settle: 2_000_000_000) }

    init(path: String, settle: Int64) {
        self.path = path
        self.settle = settle
        var known: [String: Line] = [:]
        if let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                if let (file, entry) = Self.parse(line) { known[file] = entry }
            }
        }
        self.known = known
    }

    /// The hash of the file at `file`: remembered, or `hash` of its bytes, remembered when the
    /// file has been still for two seconds.
    public func hash(_ file: String, _ hash: (String) throws(SystemError) -> String) throws(SystemError) -> String {
        guard let signature = Self.signature(file) else { return try hash(file) }
        if let line = known[file], line.signature == signature { return line.hash }
        let value = try hash(file)
        // Read again after hashing: a file that moved meanwhile is not remembered.
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        if Self.signature(file) == signature, now - max(signature.modified, signature.changed) > settle {
            learned.withLock { $0[file] = Line(hash: value, signature: signature) }
        }
        return value
    }

    /// Writes what was learned, when anything was (a memo that cannot be written is no error:
    /// the next run hashes again).
    public func save() {
        let learned = learned.withLock { $0 }
        guard learned.contains(where: { known[$0.key] != $0.value }) else { return }
        let all = known.merging(learned) { _, new in new }
        var text = ""
        for (file, line) in all.sorted(by: { $0.key < $1.key }) {
            let s = line.signature
            text +=
                "\(line.hash) \(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed) \(file.utf8.count):\(file)\n"
        }
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? AtomicWriter.write(Array(text.utf8), to: path, durable: false)
    }

    static func signature(_ file: String) -> Signature? {
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        return Signature(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    static func parse(_ line: Substring) -> (String, Line)? {
        let fields = line.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
        guard fields.count == 7, !fields[0].isEmpty, let device = UInt64(fields[1]), let inode = UInt64(fields[2]),
            let size = Int64(fields[3]), let modified = Int64(fields[4]), let changed = Int64(fields[5]),
            let colon = fields[6].firstIndex(of: ":"), let count = Int(fields[6][..<colon])
        else { return nil }
        let file = String(fields[6][fields[6].index(after: colon)...])
        guard file.utf8.count == count, !file.isEmpty else { return nil }
        return (
            file,
            Line(
                hash: String(fields[0]),
                signature: Signature(device: device, inode: inode, size: size, modified: modified, changed: changed))
        )
    }
}
