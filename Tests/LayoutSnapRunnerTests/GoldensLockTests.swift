import Foundation
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

final class GoldensLockTests: XCTestCase {
    func testASecondWriterIsRefusedNamingTheHolder() throws {
        let goldens = try makeTemporaryFolder("runner-lock").path
        defer { removeTemporaryFolder(goldens) }
        let first = try GoldensLock.acquire(goldens: goldens)
        XCTAssertThrowsError(try GoldensLock.acquire(goldens: goldens)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("is locked by process \(getpid())"), message)
            XCTAssertTrue(message.contains(GoldensLock.fileName), message)
        }
        withExtendedLifetime(first) {}
    }

    func testReleasedLockIsTakenAgainAndLeavesNoFile() throws {
        let goldens = try makeTemporaryFolder("runner-lock").path
        defer { removeTemporaryFolder(goldens) }
        do { _ = try GoldensLock.acquire(goldens: goldens) }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: goldens + "/" + GoldensLock.fileName),
            "the lock file goes with the lock")
        let again = try GoldensLock.acquire(goldens: goldens)
        withExtendedLifetime(again) {}
    }

    /// A dead holder leaves its lock file and pid, but not its flock: the lock is taken over.
    func testALockLeftByADeadProcessIsTakenOver() throws {
        let goldens = try makeTemporaryFolder("runner-lock").path
        defer { removeTemporaryFolder(goldens) }
        try "999999\n".write(toFile: goldens + "/" + GoldensLock.fileName, atomically: true, encoding: .utf8)
        let lock = try GoldensLock.acquire(goldens: goldens)
        let holder = try String(contentsOfFile: lock.path, encoding: .utf8)
        XCTAssertEqual(holder, "\(getpid())\n")
    }

    func testAGoldensPathThatIsAFileIsAnError() throws {
        let folder = try makeTemporaryFolder("runner-lock").path
        defer { removeTemporaryFolder(folder) }
        try Support.write("not a folder", to: folder + "/G")
        XCTAssertThrowsError(try GoldensLock.acquire(goldens: folder + "/G"))
    }
}

final class GoldensLockHostileTests: XCTestCase {
    /// A lock file that is a link is never written through; the file it points at is untouched.
    func testALinkedLockFileIsRefused() throws {
        let folder = try makeTemporaryFolder("runner-lock").path
        defer { removeTemporaryFolder(folder) }
        try Support.write("precious", to: folder + "/README.md")
        try FileManager.default.createDirectory(atPath: folder + "/G", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/G/" + GoldensLock.fileName, withDestinationPath: "../README.md")
        XCTAssertThrowsError(try GoldensLock.acquire(goldens: folder + "/G")) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: folder + "/README.md", encoding: .utf8), "precious")
    }

    /// A holder whose lock file was removed and locked anew by another run does not remove the
    /// other run's file when it lets go.
    func testReleaseRemovesOnlyItsOwnFile() throws {
        let goldens = try makeTemporaryFolder("runner-lock").path
        defer { removeTemporaryFolder(goldens) }
        var first: GoldensLock? = try GoldensLock.acquire(goldens: goldens)
        unlink(goldens + "/" + GoldensLock.fileName)
        let second = try GoldensLock.acquire(goldens: goldens)
        first = nil
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: goldens + "/" + GoldensLock.fileName),
            "the second run's lock file stays")
        XCTAssertThrowsError(try GoldensLock.acquire(goldens: goldens), "and still locks")
        withExtendedLifetime((first, second)) {}
    }
}
