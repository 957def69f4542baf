import Foundation

/// How Core learns about the files a fixture names. Core reads no files itself: the fixture's
/// JSON arrives as bytes, and anything else (a post's image, for its size) is asked of the
/// `InputFiles` the caller passes — the file system in the runner, bytes in memory in tests and
/// fuzzers.
public protocol InputFiles: Sendable {
    /// The file at `path` (absolute, or relative to the working directory): its size and its
    /// first `limit` bytes, all of them when it is smaller.
    func read(_ path: String, upTo limit: Int) throws(InputFileError) -> InputFileBytes
}

public struct InputFileBytes: Sendable, Equatable {
    /// The whole file's size in bytes.
    public var size: Int
    /// At most the `limit` asked for, from the file's start.
    public var prefix: [UInt8]

    public init(size: Int, prefix: [UInt8]) {
        self.size = size
        self.prefix = prefix
    }
}

public enum InputFileError: Error, Sendable, Equatable {
    case notFound
    /// Exists but cannot be read; the reason as the system words it ("Permission denied").
    case unreadable(String)
}

/// Where a fixture lives, as decoders see it: the folder its relative paths start from and the
/// files they reach.
public struct FixtureFolder: Sendable {
    public var path: String
    public var files: any InputFiles

    public init(path: String, files: any InputFiles) {
        self.path = path
        self.files = files
    }

    /// `relative` from this folder; an absolute path as it is.
    public func resolve(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : (path as NSString).appendingPathComponent(relative)
    }
}

/// Files given as bytes: for fixtures that name none, for tests, and for fuzzers.
public struct InMemoryInputFiles: InputFiles {
    public var files: [String: [UInt8]]

    public init(_ files: [String: [UInt8]] = [:]) { self.files = files }

    public func read(_ path: String, upTo limit: Int) throws(InputFileError) -> InputFileBytes {
        guard let bytes = files[path] else { throw .notFound }
        return InputFileBytes(size: bytes.count, prefix: Array(bytes.prefix(limit)))
    }
}

extension FixtureFolder {
    /// A folder that holds no files: enough for every fixture that names none.
    public static func empty(_ path: String = "/") -> FixtureFolder {
        FixtureFolder(path: path, files: InMemoryInputFiles())
    }
}
