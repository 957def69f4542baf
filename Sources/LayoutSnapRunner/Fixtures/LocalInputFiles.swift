import LayoutSnapCore
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

extension FixtureFolder {
    /// `path` on the file system.
    public static func local(_ path: String) -> FixtureFolder { FixtureFolder(path: path, files: LocalInputFiles()) }
}
