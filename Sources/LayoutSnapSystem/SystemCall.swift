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

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// strerror's text ("No such file or directory"): what messages print after a colon.
    public var reason: String { String(cString: strerror(code)) }
    public var description: String { "\(call): \(reason)" }
}

/// The one place errno becomes a Swift error. Every call that reports failure through errno goes
/// through `check` (or a helper built on it): the result is tested and errno read at once, so no
/// caller reads errno after another call has overwritten it. Callers use the named wrappers in
/// `Posix`, each of which decides once whether EINTR is retried.
public enum SystemCall {
    /// Runs `body` (again after EINTR, unless told not to); a negative result throws with its errno.
    @discardableResult
    public static func check<Result: BinaryInteger>(
        _ call: String, retryingInterrupts: Bool = true,
        _ body: () -> Result
    ) throws(SystemError) -> Result {
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
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int64? = nil)
        throws(SystemError)
    {
        var done = 0
        while done < buffer.count {
            let n = try check(offset == nil ? "write" : "pwrite") {
                if let offset {
                    return pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                }
                return write(fd, buffer.baseAddress! + done, buffer.count - done)
            }
            // A regular file never takes zero bytes of a non-empty write; a full device says ENOSPC.
            guard n > 0 else { throw SystemError(call: offset == nil ? "write" : "pwrite", code: EIO) }
            done += n
        }
    }

    /// Reads exactly `buffer.count` bytes from `fd` at `offset`; the end of the file before
    /// that throws ENODATA.
    public static func readAll(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(SystemError)
    {
        var done = 0
        while done < buffer.count {
            let n = try check("pread") {
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
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
        guard let fd = try? Posix.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return }
        try? Posix.fsync(fd)
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
            let start = (first + huge - 1) & ~(huge - 1)
            let end = (first + byteCount) & ~(huge - 1)
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
            let first = Int(bitPattern: pointer)
            let page = pageSize
            let start = (first + page - 1) & ~(page - 1)
            let end = (first + byteCount) & ~(page - 1)
            if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) {
                _ = madvise(aligned, end - start, 23)  // MADV_POPULATE_WRITE
            }
        #endif
    }

    /// Sets malloc's top pad to 64 MiB (128 KiB by default): the main heap grows 64 MiB at a time,
    /// a worker's arena makes a new heap writable whole, and each keeps up to 64 MiB free rather
    /// than trimming it. A cold verify made some 1,300 `mprotect` calls growing its workers' arenas
    /// (each holds the memory map lock against the other worker's page faults) and gave pages back
    /// only to fault them in again. It also fixes glibc's mmap threshold at 128 KiB (docs/decisions.md,
    /// "malloc grows its heaps 64 MiB at a time"). Called once, first thing in `main`. Returns
    /// whether malloc took it (a sanitizer's or another allocator's does not).
    @discardableResult
    public static func growHeapsInLargeSteps() -> Bool {
        #if canImport(Glibc)
            return glibcMallopt(-2, 64 << 20) == 1  // M_TOP_PAD
        #else
            return false
        #endif
    }
}

#if canImport(Glibc)
    /// glibc's `mallopt`, declared in malloc.h, which the Glibc module does not export.
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

// Sockets and randomness for `layoutsnap review`'s server: loopback TCP only.
extension SystemCall {
    /// A TCP socket listening on 127.0.0.1 at `port` (0: a free port the kernel picks), and the
    /// port it got.
    public static func listenOnLoopback(port: UInt16, backlog: Int32 = 64) throws(SystemError) -> (
        fd: Int32, port: UInt16
    ) {
        #if os(Linux)
            let stream = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let fd = try check("socket") { socket(AF_INET, stream, 0) }
        do throws(SystemError) {
            var on: Int32 = 1
            try check("setsockopt") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            try check("bind") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            try check("listen") { listen(fd, backlog) }
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try check("getsockname") {
                withUnsafeMutablePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
            }
            return (fd, UInt16(bigEndian: bound.sin_port))
        } catch {
            try? close(fd)
            throw error
        }
    }

    /// A TCP connection to `host:port` (a name or an address, IPv4 or IPv6), each address the
    /// name resolves to tried in turn, each for at most `milliseconds`; close-on-exec, no Nagle
    /// (requests are written whole). What failed last is the error (getaddrinfo's as `EHOSTUNREACH`).
    public static func connect(host: String, port: UInt16, milliseconds: Int32) throws(SystemError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw SystemError(call: "getaddrinfo", code: EHOSTUNREACH)
        }
        defer { freeaddrinfo(first) }
        var lastError = SystemError(call: "connect", code: EHOSTUNREACH)
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            do throws(SystemError) {
                let fd = try check("socket") { socket(info.pointee.ai_family, info.pointee.ai_socktype, 0) }
                do throws(SystemError) {
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                    let flags = fcntl(fd, F_GETFL)
                    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
                    if cConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                        let code = errno
                        guard code == EINPROGRESS else { throw SystemError(call: "connect", code: code) }
                        guard try wait(fd, for: Int16(POLLOUT), milliseconds: milliseconds) else {
                            throw SystemError(call: "connect", code: ETIMEDOUT)
                        }
                        var failure: Int32 = 0
                        var length = socklen_t(MemoryLayout<Int32>.size)
                        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
                        if failure != 0 { throw SystemError(call: "connect", code: failure) }
                    }
                    _ = fcntl(fd, F_SETFL, flags)
                    var on: Int32 = 1
                    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                } catch {
                    try? close(fd)
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// Waits up to `milliseconds` (-1: for ever) for `fd` to have `events` (POLLIN, POLLOUT);
    /// false when the time ran out. An interrupted wait is not retried: the caller's deadline decides.
    public static func wait(_ fd: Int32, for events: Int16, milliseconds: Int32) throws(SystemError) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        do {
            return try Posix.poll(&entry, milliseconds: milliseconds) > 0
        } catch  where error.code == EINTR {
            return false
        }
    }

    /// The next connection on a listening socket, close-on-exec (accept4 is not in Swift's Glibc).
    public static func acceptConnection(_ listener: Int32) throws(SystemError) -> Int32 {
        let fd = try check("accept") { accept(listener, nil, nil) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Reads what has arrived on a socket, at most `buffer.count` bytes; 0 at its end.
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try check("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sends all of `buffer`; a peer that went away is an EPIPE error, never a SIGPIPE.
    public static func sendAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var done = 0
        while done < buffer.count {
            done += try check("send") { send(fd, buffer.baseAddress! + done, buffer.count - done, flags) }
        }
    }

    /// Stops sending on a socket (the peer reads the end), keeping it open for reading.
    public static func shutdownWriting(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// `count` bytes from the kernel's random source, /dev/urandom (getrandom is not in Swift's Glibc).
    public static func randomBytes(_ count: Int) throws(SystemError) -> [UInt8] {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { bytes.deallocate() }
        let fd = try Posix.open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        defer { try? close(fd) }
        var done = 0
        while done < count {
            let n = try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[done...]))
            guard n > 0 else { throw SystemError(call: "read", code: EIO) }
            done += n
        }
        return Array(bytes)
    }

    /// Moves `path`'s access and modification times to now; false when it cannot (gone, not
    /// the caller's): a cache's least-recently-used order, which a failure only blurs.
    @discardableResult
    public static func touch(_ path: String) -> Bool {
        utimensat(AT_FDCWD, path, nil, 0) == 0
    }

    /// What `stat` (or, not following a last link, `lstat`) says of `path`; nil when there is
    /// no such file or it cannot be reached (the callers treat that as "absent").
    public static func status(_ path: String, followsLinks: Bool = true) -> stat? {
        var info = stat()
        return (followsLinks ? stat(path, &info) : lstat(path, &info)) == 0 ? info : nil
    }

    /// A name in a folder: whether it is a folder itself (a symbolic link is not, whatever it
    /// leads to), and whether its bytes are UTF-8 (else `name` shows each bad byte as U+FFFD,
    /// and no path made of it reaches the file).
    public struct FolderEntry: Sendable {
        public var name: String
        public var isFolder: Bool
        public var isUTF8: Bool
    }

    /// The names in folder `path` (not `.` and `..`), or why it cannot be read.
    public static func folderEntries(_ path: String) -> Result<[FolderEntry], SystemError> {
        guard let folder = opendir(path) else { return .failure(SystemError(call: "opendir", code: errno)) }
        defer { closedir(folder) }
        var entries: [FolderEntry] = []
        while true {
            // readdir's end and its failure are both NULL: errno tells them apart.
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { return .failure(SystemError(call: "readdir", code: errno)) }
                break
            }
            // In place, up to its end: a record holds only as much of d_name as the name needs.
            let (name, isUTF8) = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let bytes = raw.prefix(while: { $0 != 0 })
                let name = String(decoding: bytes, as: UTF8.self)
                return (name, name.utf8.elementsEqual(bytes))
            }
            if name == "." || name == ".." { continue }
            let type = entry.pointee.d_type
            // Asked by the name's own bytes, relative to the open folder: a name that is not
            // UTF-8 has no path as a String.
            let isFolder =
                type == UInt8(DT_UNKNOWN)
                ? withUnsafeBytes(of: &entry.pointee.d_name) { raw -> Bool in
                    var info = stat()
                    let found = fstatat(
                        dirfd(folder), raw.baseAddress!.assumingMemoryBound(to: CChar.self), &info,
                        AT_SYMLINK_NOFOLLOW)
                    return found == 0 && info.st_mode & S_IFMT == S_IFDIR
                }
                : type == UInt8(DT_DIR)
            entries.append(FolderEntry(name: name, isFolder: isFolder, isUTF8: isUTF8))
        }
        return .success(entries)
    }

    /// The path with every symbolic link and `..` resolved (realpath).
    public static func resolvedPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw SystemError(call: "realpath", code: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `body` over the bytes of the regular file at `path`, mapped read-only (an empty file is
    /// an empty buffer). The mapping ends when `body` returns.
    public static func withMappedFile<T>(_ path: String, _ body: (UnsafeRawBufferPointer) -> T) throws(SystemError) -> T
    {
        let (fd, info) = try openRegular(path, flags: O_RDONLY | O_CLOEXEC)
        let size = Int(info.st_size)
        defer { try? close(fd) }
        guard size > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw SystemError(call: "mmap", code: errno)
        }
        defer { munmap(base, size) }
        return body(UnsafeRawBufferPointer(start: base, count: size))
    }

    /// `body` over the bytes of the regular file at `path`, which must not be a symbolic link,
    /// read into `buffer` (grown as needed, kept by the caller across files): for many small
    /// files, where a mapping's two calls and page faults cost more than one read.
    public static func withReadFile<T>(
        _ path: String, buffer: inout [UInt8], _ body: (UnsafeRawBufferPointer) -> T
    ) throws(SystemError) -> T {
        let (fd, size) = try openRegularFile(path)
        defer { try? close(fd) }
        if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
        var done = 0
        while done < size {
            let n = try buffer.withUnsafeMutableBytes { all in
                Result { () throws(SystemError) in
                    try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: all[done..<size]))
                }
            }.get()
            if n == 0 { break }  // the file shrank while being read
            done += n
        }
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<done])) }
    }

    /// The size of the regular file at `path` (symbolic links followed, as opening a file by name
    /// does) and its first `limit` bytes, all of them when it is smaller. `touch`, given the
    /// file's modification time (seconds since 1970), says whether to set its times to now,
    /// through the open file. Opened without blocking: a pipe by that name (a fixture's, or one a
    /// remote memo names) is refused at once instead of waiting for a writer; and never as the
    /// controlling terminal.
    public static func readPrefix(
        _ path: String, upTo limit: Int, touch: ((Int) -> Bool)? = nil
    ) throws(SystemError) -> (size: Int, bytes: [UInt8]) {
        let (fd, info) = try openRegular(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        let size = Int(info.st_size)
        defer { try? close(fd) }
        if let touch, touch(Int(info.st_mtim.tv_sec)) { _ = futimens(fd, nil) }
        var bytes = [UInt8](repeating: 0, count: min(size, limit))
        var done = 0
        while done < bytes.count {
            let n = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in
                    try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                }
            }.get()
            if n == 0 { break }  // the file shrank while being read
            done += n
        }
        return (size, Array(bytes[0..<done]))
    }

    /// Opens a regular file for reading, never through a symbolic link in its last component;
    /// returns the descriptor and the file's size. Anything else (a folder, a device) is EISDIR
    /// or ENODEV.
    public static func openRegularFile(_ path: String) throws(SystemError) -> (fd: Int32, size: Int) {
        let (fd, info) = try openRegular(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        return (fd, Int(info.st_size))
    }

    /// `path` opened with `flags` (without `O_NOFOLLOW`, symbolic links are followed, as opening
    /// a file by name does), and what `fstat` says of it; refused (and closed) unless it is a
    /// regular file.
    private static func openRegular(_ path: String, flags: Int32) throws(SystemError) -> (fd: Int32, info: stat) {
        let fd = try Posix.open(path, flags)
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            try? close(fd)
            throw SystemError(call: "fstat", code: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            try? close(fd)
            throw SystemError(call: "open", code: (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : ENODEV)
        }
        return (fd, info)
    }
}

// The C functions under other names: inside `Posix`, their own names mean the wrappers.
private func cOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func cRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
private func cMkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func cUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
private func cLink(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { link(from, to) }
private func cFsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func cFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
private func cAccess(_ path: UnsafePointer<CChar>, _ mode: Int32) -> Int32 { access(path, mode) }
private func cConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
private func cPipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { pipe(fds) }
private func cPoll(_ entry: UnsafeMutablePointer<pollfd>, _ milliseconds: Int32) -> Int32 {
    poll(entry, 1, milliseconds)
}
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}
private func cMkstemp(_ template: UnsafeMutablePointer<CChar>) -> Int32 { mkstemp(template) }
private func cWait4(_ pid: pid_t, _ status: UnsafeMutablePointer<Int32>, _ usage: UnsafeMutablePointer<rusage>) -> pid_t
{ wait4(pid, status, 0, usage) }

/// Named system calls, each deciding once whether EINTR is retried: retried where repeating the
/// call is harmless; reported where its first attempt may already have taken effect.
public enum Posix {
    /// Retried, except an exclusive create (`O_CREAT | O_EXCL`): its first attempt may have made
    /// the file, and the retry would then fail with EEXIST.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(SystemError) -> Int32 {
        let exclusive = flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL
        return try SystemCall.check("open", retryingInterrupts: !exclusive) { cOpen(path, flags, mode) }
    }

    /// Never retried: the first attempt may have moved the file.
    public static func rename(_ from: String, _ to: String) throws(SystemError) {
        try SystemCall.check("rename", retryingInterrupts: false) { cRename(from, to) }
    }

    /// A second name for `from`'s file (a hard link). Never retried: the first attempt may have
    /// made it (the retry would say EEXIST).
    public static func link(_ from: String, _ to: String) throws(SystemError) {
        try SystemCall.check("link", retryingInterrupts: false) { cLink(from, to) }
    }

    /// Never retried: the first attempt may have removed the file (the retry would say ENOENT).
    public static func unlink(_ path: String) throws(SystemError) {
        try SystemCall.check("unlink", retryingInterrupts: false) { cUnlink(path) }
    }

    /// Never retried: the first attempt may have made the folder (the retry would say EEXIST).
    public static func mkdir(_ path: String, _ mode: mode_t) throws(SystemError) {
        try SystemCall.check("mkdir", retryingInterrupts: false) { cMkdir(path, mode) }
    }

    /// Retried: flushing twice is harmless.
    public static func fsync(_ fd: Int32) throws(SystemError) {
        try SystemCall.check("fsync") { cFsync(fd) }
    }

    /// Retried: taking or releasing a lock twice is the same.
    public static func flock(_ fd: Int32, _ operation: Int32) throws(SystemError) {
        try SystemCall.check("flock") { cFlock(fd, operation) }
    }

    /// Retried: it changes nothing.
    public static func access(_ path: String, _ mode: Int32) throws(SystemError) {
        try SystemCall.check("access") { cAccess(path, mode) }
    }

    /// Retried: an interrupted pipe made no descriptors. Returns the read and the write end.
    public static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try SystemCall.check("pipe") { cPipe(&fds) }
        return (fds[0], fds[1])
    }

    /// Never retried: the caller's deadline decides how long to wait again.
    public static func poll(_ entry: inout pollfd, milliseconds: Int32) throws(SystemError) -> Int32 {
        try SystemCall.check("poll", retryingInterrupts: false) { cPoll(&entry, milliseconds) }
    }

    /// Retried: an interrupted read read nothing. Returns the bytes read, 0 at the end.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try SystemCall.check("read") { cRead(fd, buffer) }
    }

    /// Never retried: the first attempt may have made the file. `template` ends in XXXXXX and a
    /// NUL, and holds the file's name after.
    public static func mkstemp(_ template: inout [CChar]) throws(SystemError) -> Int32 {
        try SystemCall.check("mkstemp", retryingInterrupts: false) {
            template.withUnsafeMutableBufferPointer { cMkstemp($0.baseAddress!) }
        }
    }

    /// Retried: the child is still there to wait for. Returns the wait status and the child's usage.
    public static func wait4(_ pid: pid_t) throws(SystemError) -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        try SystemCall.check("wait4") { cWait4(pid, &status, &usage) }
        return (status, usage)
    }
}
