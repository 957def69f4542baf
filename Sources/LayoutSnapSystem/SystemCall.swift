#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: which call, and errno as it was right after it (read before
/// anything else could change it).
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call, as a message names it (`open`, `rename`, `flock`).
    public var call: String
    public var code: Int32

    public init(call: String, code: Int32) { self.call = call; self.code = code }

    /// strerror's text ("No such file or directory"): what messages print after a colon.
    public var reason: String { String(cString: strerror(code)) }
    public var description: String { "\(call): \(reason)" }
}

/// The one place errno becomes a Swift error. Every call that reports failure through errno goes
/// through `check` (or a helper built on it): the result is tested and errno read at once, and
/// EINTR is retried, so no caller reads errno after another call has overwritten it.
///
///     let fd = try SystemCall.check("open") { open(path, O_RDONLY | O_CLOEXEC) }
public enum SystemCall {
    /// Runs `body` until it does not fail with EINTR; a negative result throws with its errno.
    @discardableResult
    public static func check<Result: BinaryInteger>(_ call: String, _ body: () -> Result) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw SystemError(call: call, code: code) }
        }
    }

    /// A call that returns its error number instead of setting errno (`posix_spawn`).
    public static func checkReturned(_ call: String, _ code: Int32) throws(SystemError) {
        if code != 0 { throw SystemError(call: call, code: code) }
    }

    /// Writes all of `buffer` to `fd` (at `offset` with pwrite when given), however many calls
    /// it takes.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int64? = nil) throws(SystemError) {
        var done = 0
        while done < buffer.count {
            let n = try check(offset == nil ? "write" : "pwrite") {
                if let offset { return pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done)) }
                return write(fd, buffer.baseAddress! + done, buffer.count - done)
            }
            // A regular file never takes zero bytes of a non-empty write; a full device says ENOSPC.
            guard n > 0 else { throw SystemError(call: "write", code: EIO) }
            done += n
        }
    }

    /// Reads exactly `buffer.count` bytes from `fd` at `offset`; fewer (end of file) throws.
    public static func readAll(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) {
        var done = 0
        while done < buffer.count {
            let n = try check("pread") { pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else { throw SystemError(call: "pread", code: EIO) }
            done += n
        }
    }

    /// Closes `fd` once: never retried, since on Linux the descriptor is gone even when close
    /// reports EINTR, and closing again could close another thread's new descriptor.
    public static func close(_ fd: Int32) throws(SystemError) {
        #if canImport(Glibc)
        let result = Glibc.close(fd)
        #else
        let result = Darwin.close(fd)
        #endif
        if result != 0 { throw SystemError(call: "close", code: errno) }
    }

    /// Flushes a folder's entries (a rename into it) to disk; best effort, as a folder that
    /// cannot be opened has nothing of ours to flush.
    public static func syncFolder(_ path: String) {
        guard let fd = try? check("open", { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) else { return }
        _ = try? check("fsync") { fsync(fd) }
        try? close(fd)
    }

    /// Prepares a large buffer that is about to be written from start to end: asks the kernel to
    /// back its 2 MiB-aligned part with huge pages (transparent huge pages in `madvise` mode), then
    /// to fault all of its pages in at once (`MADV_POPULATE_WRITE`, Linux 5.14) rather than one
    /// fault per 4 KiB page as it is first written, which cost more than the writing. Advice
    /// only: ignored where unsupported or refused, and the contents are unchanged.
    public static func prepareLargeBuffer(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        let page = 4096, huge = 2 << 20
        guard byteCount >= 256 << 10 else { return }
        let first = Int(bitPattern: pointer), last = first + byteCount
        let hugeStart = (first + huge - 1) & ~(huge - 1), hugeEnd = last & ~(huge - 1)
        if hugeEnd > hugeStart, let aligned = UnsafeMutableRawPointer(bitPattern: hugeStart) {
            _ = madvise(aligned, hugeEnd - hugeStart, MADV_HUGEPAGE)
        }
        // Whole pages inside the buffer only: the pages at its ends may be shared with other data.
        let start = (first + page - 1) & ~(page - 1), end = last & ~(page - 1)
        if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(aligned, end - start, 23 /* MADV_POPULATE_WRITE */)
        }
        #endif
    }
}
