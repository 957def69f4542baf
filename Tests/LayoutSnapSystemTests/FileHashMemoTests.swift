import Foundation
import LayoutSnapTestSupport
import XCTest

@testable import LayoutSnapSystem

/// A remembered hash stands for a file only while `stat` says the same of it, and only a file
/// that has been still for the settling time is remembered.
final class FileHashMemoTests: XCTestCase {
    func testRemembersAStillFileUntilItChanges() throws {
        let folder = try makeTemporaryFolder("hash-memo").path
        defer { removeTemporaryFolder(URL(fileURLWithPath: folder)) }
        let file = folder + "/font.ttf"
        let memoPath = folder + "/cache/fonts"
        try Data("first".utf8).write(to: URL(fileURLWithPath: file))
        var hashed = 0
        func hash(_ path: String) throws(SystemError) -> String {
            hashed += 1
            return String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }

        let first = FileHashMemo(path: memoPath, settle: 0)
        XCTAssertEqual(try first.hash(file, hash), "first")
        first.save()
        XCTAssertEqual(hashed, 1)
        XCTAssertEqual(try FileHashMemo(path: memoPath, settle: 0).hash(file, hash), "first", "remembered")
        XCTAssertEqual(hashed, 1, "not read again")
        XCTAssertEqual(FileHashMemo(path: memoPath, settle: 0).remembered(file), "first")
        XCTAssertNil(FileHashMemo(path: memoPath, settle: 0).remembered(folder + "/other.ttf"), "never hashed")

        // The same size, other bytes: its times moved, so it is hashed again.
        try Data("other".utf8).write(to: URL(fileURLWithPath: file))
        let second = FileHashMemo(path: memoPath, settle: 0)
        XCTAssertNil(second.remembered(file), "changed since")
        XCTAssertEqual(try second.hash(file, hash), "other")
        XCTAssertEqual(hashed, 2)
        second.save()
        XCTAssertEqual(try FileHashMemo(path: memoPath, settle: 0).hash(file, hash), "other")
        XCTAssertEqual(hashed, 2)

        // A file changed within the settling time is not remembered.
        try Data("third".utf8).write(to: URL(fileURLWithPath: file))
        let settling = FileHashMemo(path: memoPath)
        XCTAssertEqual(try settling.hash(file, hash), "third")
        settling.save()
        XCTAssertEqual(try FileHashMemo(path: memoPath).hash(file, hash), "third")
        XCTAssertEqual(hashed, 4, "hashed both times")
    }

    /// A memo shared by projects names each file by its whole path, the working folder "/"
    /// included.
    func testRelativePathsAreRememberedWhole() {
        XCTAssertEqual(FileHashMemo.whole("Goldens/a.png", under: "/work/p"), "/work/p/Goldens/a.png")
        XCTAssertEqual(FileHashMemo.whole("Goldens/a.png", under: "/"), "/Goldens/a.png")
        XCTAssertEqual(FileHashMemo.whole("/elsewhere/a.png", under: "/work/p"), "/elsewhere/a.png")
    }

    func testLinesThatDoNotReadAreIgnored() throws {
        let folder = try makeTemporaryFolder("hash-memo").path
        defer { removeTemporaryFolder(URL(fileURLWithPath: folder)) }
        let file = folder + "/font.ttf"
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: file))
        let memoPath = folder + "/fonts"
        let memo = FileHashMemo(path: memoPath, settle: 0)
        _ = try memo.hash(file) { (_: String) throws(SystemError) in "h" }
        memo.save()
        let good = try String(contentsOfFile: memoPath, encoding: .utf8)
        for torn in [
            "", "garbage\n", String(good.dropLast(3)) + "\n", good.replacingOccurrences(of: " ", with: "  "),
            good.replacingOccurrences(of: ":", with: ";"),
        ] {
            try torn.write(toFile: memoPath, atomically: true, encoding: .utf8)
            var called = false
            XCTAssertEqual(
                try FileHashMemo(path: memoPath, settle: 0).hash(file) { (_: String) throws(SystemError) in
                    called = true
                    return "h"
                }, "h")
            XCTAssertTrue(called, "\(torn.debugDescription) was taken as a memo")
        }
    }

    /// Without following links, a symbolic link is never remembered (its caller hashes it by its
    /// own rules each time); a regular file is, and a path with spaces and colons reads back.
    func testALinkIsNotRememberedWithoutFollowingLinks() throws {
        let folder = try makeTemporaryFolder("hash-memo").path
        defer { removeTemporaryFolder(URL(fileURLWithPath: folder)) }
        let file = folder + "/a golden: 1.png"
        let link = folder + "/link.png"
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let memoPath = folder + "/goldens"
        var hashed: [String] = []
        func hash(_ path: String) throws(SystemError) -> String {
            hashed.append(path)
            return "h"
        }
        let first = FileHashMemo(path: memoPath, settle: 0, followsLinks: false)
        _ = try first.hash(file, hash)
        _ = try first.hash(link, hash)
        first.save()
        let second = FileHashMemo(path: memoPath, settle: 0, followsLinks: false)
        _ = try second.hash(file, hash)
        _ = try second.hash(link, hash)
        XCTAssertEqual(hashed, [file, link, link], "the file remembered, the link hashed each time")
        XCTAssertTrue(try String(contentsOfFile: memoPath, encoding: .utf8).hasSuffix(":\(file)\n"))
        // A file that is gone is left out when the memo is written again.
        let other = folder + "/other.png"
        try Data("other".utf8).write(to: URL(fileURLWithPath: other))
        try FileManager.default.removeItem(atPath: file)
        let third = FileHashMemo(path: memoPath, settle: 0, followsLinks: false)
        _ = try third.hash(other, hash)
        third.save()
        let lines = try String(contentsOfFile: memoPath, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines[0].hasSuffix(":" + other), String(lines[0]))
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: file))
        // Following links, the link is the file it points to.
        let following = FileHashMemo(path: memoPath + "-following", settle: 0)
        _ = try following.hash(link, hash)
        following.save()
        _ = try FileHashMemo(path: memoPath + "-following", settle: 0).hash(link, hash)
        XCTAssertEqual(hashed.count, 5, "other, then the link once")
    }

    /// A file dated before 1970 is remembered like any other.
    func testAFileDatedBefore1970IsRemembered() throws {
        let folder = try makeTemporaryFolder("hash-memo").path
        defer { removeTemporaryFolder(URL(fileURLWithPath: folder)) }
        let file = folder + "/old.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        let times = [timespec(tv_sec: -86_400, tv_nsec: 5), timespec(tv_sec: -86_400, tv_nsec: 5)]
        XCTAssertEqual(utimensat(AT_FDCWD, file, times, 0), 0)
        let memoPath = folder + "/goldens"
        var hashed = 0
        func hash(_ path: String) throws(SystemError) -> String {
            hashed += 1
            return "h"
        }
        let first = FileHashMemo(path: memoPath, settle: 0, followsLinks: false)
        _ = try first.hash(file, hash)
        first.save()
        XCTAssertTrue(try String(contentsOfFile: memoPath, encoding: .utf8).contains(" -86399999999995 "))
        _ = try FileHashMemo(path: memoPath, settle: 0, followsLinks: false).hash(file, hash)
        XCTAssertEqual(hashed, 1, "read back")
    }
}
