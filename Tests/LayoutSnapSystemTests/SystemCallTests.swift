import Foundation
import LayoutSnapSystem
import LayoutSnapTestSupport
import XCTest

/// errno becomes a typed error at the call, with the call's own errno, whatever runs after it.
final class SystemCallTests: XCTestCase {
    func testAFailedCallThrowsItsOwnErrno() {
        XCTAssertThrowsError(try SystemCall.check("open") { open("/nonexistent/layoutsnap", O_RDONLY | O_CLOEXEC) }) {
            error in
            let failure = error as? SystemError
            XCTAssertEqual(failure, SystemError(call: "open", code: ENOENT))
            XCTAssertEqual(failure?.reason, "No such file or directory")
            XCTAssertEqual(failure?.description, "open: No such file or directory")
        }
    }

    func testSuccessReturnsTheResult() throws {
        let opened = try SystemCall.check("open") { open("/dev/null", O_RDONLY | O_CLOEXEC) }
        XCTAssertGreaterThanOrEqual(opened, 0)
        // Closed twice far above the lowest free descriptor: an open on another thread of the
        // test process (the parallel runner's) takes the lowest, and took the freed one between
        // the two closes, which then closed its file.
        var limit = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        let high = Int32(min(900, Int(limit.rlim_cur) - 16))
        let fd = try SystemCall.check("fcntl") { fcntl(opened, F_DUPFD_CLOEXEC, high) }
        try SystemCall.close(opened)
        XCTAssertGreaterThanOrEqual(fd, high)
        try SystemCall.close(fd)
        XCTAssertThrowsError(try SystemCall.close(fd)) {
            XCTAssertEqual(($0 as? SystemError)?.code, EBADF, "closed twice")
        }
    }

    /// EINTR is retried; any other failure is not.
    func testInterruptedCallsAreRetried() throws {
        var calls = 0
        let result = try SystemCall.check("read") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(calls, 3)
        calls = 0
        XCTAssertThrowsError(
            try SystemCall.check("read") { () -> Int in
                calls += 1
                errno = EIO
                return -1
            })
        XCTAssertEqual(calls, 1)
        // A call whose first attempt may have taken effect reports EINTR rather than repeating.
        calls = 0
        XCTAssertThrowsError(
            try SystemCall.check("rename", retryingInterrupts: false) { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        ) {
            XCTAssertEqual(($0 as? SystemError)?.code, EINTR)
        }
        XCTAssertEqual(calls, 1)
    }

    func testWriteAllAndReadAllRoundTripAndReportShortReads() throws {
        let folder = try makeTemporaryFolder("systemcall")
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("file").path
        let fd = try SystemCall.check("open") { open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        defer { try? SystemCall.close(fd) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try bytes.withUnsafeBytes { try SystemCall.writeAll(fd, $0) }
        try [UInt8](repeating: 9, count: 10).withUnsafeBytes { try SystemCall.writeAll(fd, $0, at: 5) }
        var back = [UInt8](repeating: 0, count: 100_000)
        try back.withUnsafeMutableBytes { try SystemCall.readAll(fd, into: $0, at: 0) }
        var expected = bytes
        expected.replaceSubrange(5..<15, with: [UInt8](repeating: 9, count: 10))
        XCTAssertEqual(back, expected)
        var past = [UInt8](repeating: 0, count: 10)
        XCTAssertThrowsError(
            try past.withUnsafeMutableBytes { try SystemCall.readAll(fd, into: $0, at: 99_995) },
            "only 5 bytes are left"
        ) {
            XCTAssertEqual(($0 as? SystemError)?.code, ENODATA)
        }
    }

    func testPosixSpawnStyleResultsBecomeErrors() {
        XCTAssertNoThrow(try SystemCall.checkReturned("posix_spawn", 0))
        XCTAssertThrowsError(try SystemCall.checkReturned("posix_spawn", ENOEXEC)) {
            XCTAssertEqual(($0 as? SystemError)?.code, ENOEXEC)
        }
    }

    /// After `growHeapsInLargeSteps`, malloc grows the main heap 64 MiB at a time (without it,
    /// by what it needs plus 128 KiB): found by allocating small blocks until the break moves.
    func testHeapsGrowInLargeSteps() throws {
        // A sanitizer's allocator is not glibc's: it never moves the break.
        for runtime in ["__asan_init", "__tsan_init"]
        where dlsym(UnsafeMutableRawPointer(bitPattern: 0), runtime) != nil {
            throw XCTSkip("\(runtime): malloc is the sanitizer's")
        }
        try XCTSkipUnless(SystemCall.growHeapsInLargeSteps(), "mallopt refused: malloc is not glibc's")
        // Only the main thread's arena grows by moving the break.
        try XCTSkipUnless(Thread.isMainThread, "not on the main thread")
        var blocks: [UnsafeMutableRawPointer] = []
        defer { for block in blocks { block.deallocate() } }
        let start = Int(bitPattern: sbrk(0))
        var grown = 0
        // Up to 128 MiB of 4 KiB blocks: the heap grows at most once per 64 MiB.
        while grown == 0, blocks.count < 32_768 {
            blocks.append(UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16))
            grown = Int(bitPattern: sbrk(0)) - start
        }
        XCTAssertGreaterThanOrEqual(grown, 64 << 20, "the heap grew by \(grown) bytes")
    }
}

/// The lock shared state sits behind: every increment from every thread lands, errors pass through.
final class LockedValueTests: XCTestCase {
    func testConcurrentUpdatesAllLand() {
        let counter = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(counter.withLock { $0 }, 80_000)
    }

    func testTypedErrorsPassThroughAndReleaseTheLock() {
        let value = LockedValue([1, 2])
        XCTAssertThrowsError(
            try value.withLock { (_: inout [Int]) throws(SystemError) in throw SystemError(call: "x", code: EIO) }
        ) {
            XCTAssertEqual($0 as? SystemError, SystemError(call: "x", code: EIO))
        }
        XCTAssertEqual(value.withLock { $0.count }, 2, "the lock was released by the throw")
    }
}
