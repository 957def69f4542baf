#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way layoutsnap replaces a file (goldens, the manifest, reports): a temporary file
/// beside the target, fsync, rename over the target, fsync the folder. A reader sees the old or
/// the new file, never half of one; after a crash, the old or the new file is there.
public enum AtomicWriter {
    /// Why a file could not be replaced, as a message says it; the previous file is untouched.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `durable: false` keeps the temporary file and the rename (no reader ever sees half a file)
    /// but skips both fsyncs: for files that can be made again exactly (generated fixtures), where
    /// surviving a power cut is not worth a disk flush per file.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(Failure) {
        try write(to: path, durable: durable) { emit in try bytes.withUnsafeBytes { try emit($0) } }
    }

    /// The same for a file made in pieces (results.json, JUnit, the HTML report of a large run):
    /// `produce` hands each piece to `emit`, which writes it to the temporary file, so the whole
    /// file is never in memory. An error `produce` throws leaves the previous file in place.
    public static func write(
        to path: String, durable: Bool = true,
        produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temp = "\(dir)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        var opened: Int32?
        // The folder is made only when it is missing: most writes go to one that is there, and a
        // mkdir per file is a system call per file.
        do throws(SystemError) {
            opened = try Posix.open(temp, flags, 0o644)
        } catch  where error.code == ENOENT {
            do throws(SystemError) { try makeFolders(dir) } catch {
                throw Failure(description: "cannot create \(dir): \(error.reason)")
            }
        } catch {
            throw Failure(description: "cannot create \(temp): \(error.reason)")
        }
        let fd: Int32
        do throws(SystemError) {
            if let opened { fd = opened } else { fd = try Posix.open(temp, flags, 0o644) }
        } catch {
            throw Failure(description: "cannot create \(temp): \(error.reason)")
        }
        var reason: String?
        do {
            try produce { buffer in try SystemCall.writeAll(fd, buffer) }
            if durable { try Posix.fsync(fd) }
        } catch let failure as SystemError {
            reason = failure.reason
        } catch {
            reason = "\(error)"
        }
        do throws(SystemError) { try SystemCall.close(fd) } catch { reason = reason ?? error.reason }
        if let reason {
            try? Posix.unlink(temp)
            throw Failure(description: "cannot write \(path): \(reason); the previous file is untouched")
        }
        do throws(SystemError) {
            try Posix.rename(temp, path)
        } catch {
            try? Posix.unlink(temp)
            throw Failure(description: "cannot replace \(path): \(error.reason)")
        }
        if durable { SystemCall.syncFolder(dir) }
    }

    /// Whether `name` is one of this writer's temporary files (`.<name>.<pid>.<n>.tmp`), which a
    /// killed writer leaves behind.
    public static func isTemporaryFile(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".tmp") }

    /// `mkdir -p`: the folder and any parents it lacks; one that is there already is fine.
    private static func makeFolders(_ dir: String) throws(SystemError) {
        var info = stat()
        if stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        if let slash = dir.lastIndex(of: "/"), slash != dir.startIndex { try makeFolders(String(dir[..<slash])) }
        // Another writer may make it meanwhile: EEXIST is only a failure if it is not a folder.
        do throws(SystemError) { try Posix.mkdir(dir, 0o755) } catch  where error.code == EEXIST {
            guard stat(dir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { throw error }
        }
    }
}
