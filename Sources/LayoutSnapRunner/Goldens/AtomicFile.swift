import Foundation
import LayoutSnapSystem

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
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        } catch {
            throw RunnerError.write("cannot create \(temp): \(error.reason)")
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
            throw RunnerError.write("cannot write \(path): \(reason); the previous file is untouched")
        }
        do throws(SystemError) {
            try Posix.rename(temp, path)
        } catch {
            try? Posix.unlink(temp)
            throw RunnerError.write("cannot replace \(path): \(error.reason)")
        }
        if durable { SystemCall.syncFolder(dir) }
    }
}
