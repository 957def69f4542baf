import Foundation
import LayoutSnapSystem
import LayoutSnapTestSupport
import XCTest

/// The named wrappers report the call by name with its own errno.
final class PosixTests: XCTestCase {
    func testWrappersNameTheirCall() throws {
        let folder = try makeTemporaryFolder("posix")
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("file").path
        let fd = try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try Posix.fsync(fd)
        try SystemCall.close(fd)
        XCTAssertThrowsError(try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)) {
            XCTAssertEqual($0 as? SystemError, SystemError(call: "open", code: EEXIST))
        }
        try Posix.rename(path, path + ".2")
        XCTAssertThrowsError(try Posix.rename(path, path + ".3")) {
            XCTAssertEqual($0 as? SystemError, SystemError(call: "rename", code: ENOENT))
        }
        try Posix.unlink(path + ".2")
        XCTAssertThrowsError(try Posix.unlink(path + ".2")) {
            XCTAssertEqual($0 as? SystemError, SystemError(call: "unlink", code: ENOENT))
        }
        try Posix.mkdir(path, 0o755)
        XCTAssertThrowsError(try Posix.mkdir(path, 0o755)) {
            XCTAssertEqual($0 as? SystemError, SystemError(call: "mkdir", code: EEXIST))
        }
    }

    func testPipeCarriesBytes() throws {
        let ends = try Posix.pipe()
        defer { try? SystemCall.close(ends.read) }
        try Array("hi".utf8).withUnsafeBytes { try SystemCall.writeAll(ends.write, $0) }
        try SystemCall.close(ends.write)
        var entry = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(try Posix.poll(&entry, milliseconds: 1000), 1)
        var buffer = [UInt8](repeating: 0, count: 8)
        let n = try buffer.withUnsafeMutableBytes { try Posix.read(ends.read, into: $0) }
        XCTAssertEqual(Array(buffer[..<n]), Array("hi".utf8))
    }
}

/// The one atomic writer: the target is the old file or the new one, and no temporary file stays.
final class AtomicWriterTests: XCTestCase {
    func testWritesCreatesFoldersAndReplaces() throws {
        let folder = try makeTemporaryFolder("atomic")
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("a/b/file.json").path
        try AtomicWriter.write(Array("one".utf8), to: path)
        try AtomicWriter.write(Array("two".utf8), to: path, durable: false)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("two".utf8))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("a/b").path),
            ["file.json"])
    }

    func testAFailedWriteLeavesThePreviousFile() throws {
        struct Stop: Error {}
        let folder = try makeTemporaryFolder("atomic")
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("file").path
        try AtomicWriter.write(Array("old".utf8), to: path)
        XCTAssertThrowsError(
            try AtomicWriter.write(to: path) { emit in
                try Array("half".utf8).withUnsafeBytes { try emit($0) }
                throw Stop()
            }
        ) { XCTAssertTrue("\($0)".contains("the previous file is untouched"), "\($0)") }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["file"])
        XCTAssertTrue(AtomicWriter.isTemporaryFile(".file.12.34.tmp"))
        XCTAssertFalse(AtomicWriter.isTemporaryFile("file.tmp"))
    }
}
