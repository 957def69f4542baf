import Foundation

/// Writes that never leave a half-written file: a temporary file beside the target, fsync, rename
/// over the target, fsync the folder. A crash leaves either the old or the new file.
public enum AtomicFile {
    /// `durable: false` keeps the temporary file and the rename (no reader ever sees half a file)
    /// but skips both fsyncs: for files that can be made again exactly (generated fixtures), where
    /// surviving a power cut is not worth a disk flush per file.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(RunnerError) {
        try write(to: path, durable: durable) { emit in try bytes.withUnsafeBytes { try emit($0) } }
    }

    /// The same for a file made in pieces (results.json and JUnit of a large run): `produce`
    /// hands each piece to `emit`, which writes it to the temporary file, so the whole file is
    /// never in memory.
    public static func write(to path: String, durable: Bool = true,
                             produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws(RunnerError) {
        let parent = (path as NSString).deletingLastPathComponent
        let dir = parent.isEmpty ? "." : parent
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw RunnerError.write("cannot create \(dir): \(error.localizedDescription)")
        }
        let name = (path as NSString).lastPathComponent
        let temp = "\(dir)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RunnerError.write("cannot create \(temp): \(String(cString: strerror(errno)))") }
        struct WriteFailed: Error { var reason: String }
        var reason: String?
        do {
            try produce { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw WriteFailed(reason: String(cString: strerror(errno)))
                    }
                    offset += n
                }
            }
        } catch let failure as WriteFailed {
            reason = failure.reason
        } catch {
            reason = "\(error)"
        }
        if reason == nil && durable && fsync(fd) != 0 { reason = String(cString: strerror(errno)) }
        if close(fd) != 0 && reason == nil { reason = String(cString: strerror(errno)) }
        if let reason {
            unlink(temp)
            throw RunnerError.write("cannot write \(path): \(reason); the previous file is untouched")
        }
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw RunnerError.write("cannot replace \(path): \(reason)")
        }
        guard durable else { return }
        let dirFD = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
    }
}
