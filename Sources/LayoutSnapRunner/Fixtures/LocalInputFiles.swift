import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The file system as Core's decoders see it: the fixtures and the files they name.
public struct LocalInputFiles: InputFiles {
    public init() {}

    public func read(_ path: String, upTo limit: Int) throws(InputFileError) -> InputFileBytes {
        do {
            let file = try SystemCall.readPrefix(path, upTo: limit)
            return InputFileBytes(size: file.size, prefix: file.bytes)
        } catch {
            throw error.code == ENOENT ? .notFound : .unreadable(error.reason)
        }
    }
}

/// The local files, each read remembered by its XXH3 (of its size and bytes), so that what a
/// result is stored under can be held to what was rendered: a fixture file or a file it names
/// saved between two reads of one run is `changed`, and its result is not stored.
public final class ReadFiles: InputFiles {
    private let seen = LockedValue([String: UInt64]())
    private let differed = LockedValue(false)

    public init() {}

    public func read(_ path: String, upTo limit: Int) throws(InputFileError) -> InputFileBytes {
        let file = try LocalInputFiles().read(path, upTo: limit)
        let hash = Self.hash(file)
        // By path and limit: a header read and a whole read of one file are different bytes.
        let read = "\(limit) \(path)"
        let known = seen.withLock { seen in
            defer { if seen[read] == nil { seen[read] = hash } }
            return seen[read]
        }
        if let known, known != hash { differed.withLock { $0 = true } }
        return file
    }

    /// Every file read, by its limit and path, as first read.
    public var hashes: [String: UInt64] { seen.withLock { $0 } }

    /// Whether a file read twice read otherwise, or reads otherwise than in `earlier`.
    public func changed(since earlier: [String: UInt64] = [:]) -> Bool {
        differed.withLock { $0 } || hashes.contains { path, hash in earlier[path].map { $0 != hash } ?? false }
    }

    /// Whether every file `earlier` lists reads as it did then, read again now: the renderer reads
    /// a post's image on its own, so a rendering is held to its inputs once it is made.
    public static func stillRead(_ earlier: [String: UInt64]) -> Bool {
        earlier.allSatisfy { read, hash in
            guard let space = read.firstIndex(of: " "), let limit = Int(read[..<space]),
                let file = try? LocalInputFiles().read(String(read[read.index(after: space)...]), upTo: limit)
            else { return false }
            return Self.hash(file) == hash
        }
    }

    private static func hash(_ file: InputFileBytes) -> UInt64 {
        file.prefix.withUnsafeBytes { PixelHash.ofBytes($0) } ^ UInt64(truncatingIfNeeded: file.size)
    }
}

extension FixtureFolder {
    /// `path` on the file system.
    public static func local(_ path: String) -> FixtureFolder { FixtureFolder(path: path, files: LocalInputFiles()) }
}
