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
/// through `check` (or a helper built on it): the result is tested and errno read at once, so no
/// caller reads errno after another call has overwritten it. EINTR is retried for calls that
/// may be repeated; a call whose first attempt may have taken effect (rename, unlink, an
/// exclusive create, mkstemp) passes `retryingInterrupts: false` and reports EINTR instead.
///
///     let fd = try SystemCall.check("open") { open(path, O_RDONLY | O_CLOEXEC) }
public enum SystemCall {
    /// Runs `body` (again after EINTR, unless told not to); a negative result throws with its errno.
    @discardableResult
    public static func check<Result: BinaryInteger>(_ call: String, retryingInterrupts: Bool = true,
                                                    _ body: () -> Result) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR || !retryingInterrupts { throw SystemError(call: call, code: code) }
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
            guard n > 0 else { throw SystemError(call: offset == nil ? "write" : "pwrite", code: EIO) }
            done += n
        }
    }

    /// Reads exactly `buffer.count` bytes from `fd` at `offset`; the end of the file before
    /// that throws ENODATA.
    public static func readAll(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) {
        var done = 0
        while done < buffer.count {
            let n = try check("pread") { pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else { throw SystemError(call: "pread", code: ENODATA) }
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

    /// The kernel's page size (4 KiB on x86-64, 16 or 64 KiB on some arm64 kernels).
    public static let pageSize: Int = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)

    /// Asks the kernel to back the 2 MiB-aligned part of a large buffer with huge pages (Linux's
    /// transparent huge pages in `madvise` mode): one fault per 2 MiB instead of per page when it
    /// is written. Advice only: costs nothing until the pages are touched. The advice outlives
    /// the buffer: if malloc later reuses the range for other data, that data may be backed by
    /// huge pages too, which costs at most the memory this buffer already took.
    public static func adviseHugePages(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        let huge = 2 << 20
        guard byteCount >= 2 * huge else { return }
        let first = Int(bitPattern: pointer)
        let start = (first + huge - 1) & ~(huge - 1), end = (first + byteCount) & ~(huge - 1)
        if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        }
        #endif
    }

    /// Faults in the whole pages inside a buffer that is about to be written from start to end,
    /// in one call (`MADV_POPULATE_WRITE`, Linux 5.14) rather than one fault per page as it is
    /// first written, which cost more than the writing. Only for a buffer that will be filled
    /// now: the pages take memory at once. Advice only: ignored where unsupported.
    public static func populate(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        guard byteCount >= 256 << 10 else { return }
        // Whole pages inside the buffer only: the pages at its ends may hold other data.
        let first = Int(bitPattern: pointer), page = pageSize
        let start = (first + page - 1) & ~(page - 1), end = (first + byteCount) & ~(page - 1)
        if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(aligned, end - start, 23 /* MADV_POPULATE_WRITE */)
        }
        #endif
    }
}
