import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The exclusive lock of a goldens folder, held for the whole of a `record`, `accept` or
/// `prune` (as git holds index.lock): a second writer on the same folder stops at once, naming
/// the holder, instead of deleting the first one's pending files. `verify` and `render` take no
/// lock.
///
/// It is an `flock` on `<goldens>/.layoutsnap.lock`, which holds the holder's pid. The kernel
/// drops the lock when its process dies, however it dies, so a lock left by a dead process is
/// simply taken over (the stale pid in the file is overwritten). The file is removed on release;
/// a process that locked a file which was removed meanwhile locks again, so two processes never
/// hold locks on two different files at once.
public final class GoldensLock {
    public static let fileName = ".layoutsnap.lock"

    private let fd: Int32
    public let path: String
    /// The locked file's identity, so release removes this file and no other.
    private let device: UInt64, inode: UInt64

    /// Takes the lock, creating the goldens folder if needed. Throws (exit 2) when another
    /// process holds it.
    public static func acquire(goldens: String) throws(RunnerError) -> GoldensLock {
        do {
            try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        } catch {
            throw RunnerError.goldens(
                Diagnostic(
                    .error, .golden, file: goldens, message: "cannot create the folder: \(error.localizedDescription)"))
        }
        let path = GoldenStore(goldens).path(fileName)
        for _ in 0..<100 {
            // Never through a link: a hostile goldens folder must not make the lock write elsewhere.
            let fd: Int32
            do throws(SystemError) {
                fd = try Posix.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            } catch {
                let reason = error.code == ELOOP ? "it is a symbolic link; remove it" : error.reason
                throw RunnerError.goldens(
                    Diagnostic(.error, .golden, file: path, message: "cannot create the lock: \(reason)"))
            }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                try? SystemCall.close(fd)
                throw RunnerError.goldens(
                    Diagnostic(.error, .golden, file: path, message: "cannot lock: it is not a file; remove it"))
            }
            do throws(SystemError) {
                try Posix.flock(fd, LOCK_EX | LOCK_NB)
            } catch {
                let holder = Self.holder(fd: fd)
                try? SystemCall.close(fd)
                guard error.code == EWOULDBLOCK else {
                    throw RunnerError.goldens(
                        Diagnostic(.error, .golden, file: path, message: "cannot lock: \(error.reason)"))
                }
                let who = holder.map { "process \($0)" } ?? "another process"
                throw RunnerError.goldens(
                    Diagnostic(
                        .error, .golden, file: goldens,
                        message:
                            "is locked by \(who) (\(path)): another record, accept or prune is writing these goldens; wait for it to finish, then run again"
                    ))
            }
            // The holder before us may have removed the file after we opened it: then our lock is
            // on a file nobody else will see. Lock the file that is there now instead.
            var opened = stat()
            var current = stat()
            guard fstat(fd, &opened) == 0, stat(path, &current) == 0,
                opened.st_ino == current.st_ino, opened.st_dev == current.st_dev
            else {
                try? SystemCall.close(fd)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            return GoldensLock(fd: fd, path: path, device: UInt64(opened.st_dev), inode: UInt64(opened.st_ino))
        }
        throw RunnerError.goldens(
            Diagnostic(.error, .golden, file: path, message: "cannot lock: it keeps being replaced"))
    }

    private init(fd: Int32, path: String, device: UInt64, inode: UInt64) {
        self.fd = fd
        self.path = path
        self.device = device
        self.inode = inode
    }

    /// The pid written in a lock file, if it holds one.
    static func holder(fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        // Removed while still held, so a process waiting on the old file notices (see acquire);
        // only if it is still our file (someone may have removed it and another run locked anew).
        var current = stat()
        if lstat(path, &current) == 0, UInt64(current.st_dev) == device, UInt64(current.st_ino) == inode {
            try? Posix.unlink(path)
        }
        try? Posix.flock(fd, LOCK_UN)
        try? SystemCall.close(fd)
    }
}
