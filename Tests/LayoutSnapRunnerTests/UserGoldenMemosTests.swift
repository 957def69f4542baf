import Foundation
import LayoutSnapCore
import LayoutSnapSystem
import LayoutSnapTestSupport
import XCTest

@testable import LayoutSnapRunner

/// Without a local folder, each goldens folder has a memo of its own in the user's cache, and
/// only the most recently written are kept.
final class UserGoldenMemosTests: XCTestCase {
    func testOneMemoPerGoldensFolderWhateverItsSpelling() throws {
        let root = try makeTemporaryFolder("user-golden-memos")
        defer { removeTemporaryFolder(root) }
        for name in ["a/Goldens", "b/Goldens"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/link", withDestinationPath: root.path + "/a")
        let memos = UserGoldenMemos(root.path + "/cache")
        let a = memos.memo(of: root.path + "/a/Goldens")
        XCTAssertTrue(a.hasPrefix(root.path + "/cache/golden-hashes/"), a)
        XCTAssertTrue(a.hasSuffix(".xxh3"), a)
        XCTAssertEqual(memos.memo(of: root.path + "/a/./Goldens/"), a)
        XCTAssertEqual(memos.memo(of: root.path + "/link/Goldens"), a, "a link to the folder is the folder")
        XCTAssertNotEqual(memos.memo(of: root.path + "/b/Goldens"), a)
        // Named by the SHA-256 of the resolved path, as docs/cache.md says.
        let resolved = try SystemCall.resolvedPath(root.path + "/a/Goldens")
        XCTAssertEqual(
            (a as NSString).lastPathComponent, SHA256.hex(of: Array(resolved.utf8)) + UserGoldenMemos.suffix)
    }

    /// A goldens folder that does not exist yet (a verify before the first record) gets the memo
    /// it will have once it does, whatever the spelling.
    func testAFolderNotMadeYetGetsTheMemoItWillHave() throws {
        let root = try makeTemporaryFolder("user-golden-memos")
        defer { removeTemporaryFolder(root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("p"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.path + "/link", withDestinationPath: root.path + "/p")
        let memos = UserGoldenMemos(root.path + "/cache")
        let before = memos.memo(of: root.path + "/link/new/./Goldens")
        XCTAssertEqual(memos.memo(of: root.path + "/p/x/../new/Goldens/"), before)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("p/new/Goldens"), withIntermediateDirectories: true)
        XCTAssertEqual(memos.memo(of: root.path + "/p/new/Goldens"), before)
    }

    func testPruneKeepsTheMostRecentlyWritten() throws {
        let root = try makeTemporaryFolder("user-golden-memos")
        defer { removeTemporaryFolder(root) }
        let memos = UserGoldenMemos(root.path)
        try FileManager.default.createDirectory(atPath: memos.memosFolder, withIntermediateDirectories: true)
        let shared = root.path + "/" + UserGoldenMemos.sharedMemo
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: shared))
        // Five memos written a minute apart, newest last, and a writer's temporary file.
        var names: [String] = []
        for i in 0..<5 {
            let name = String(repeating: String(i), count: 64) + UserGoldenMemos.suffix
            names.append(name)
            let path = memos.memosFolder + "/" + name
            try Data("memo \(i)\n".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: Double(i - 10) * 60)], ofItemAtPath: path)
        }
        let temporary = "." + names[0] + ".123.456.tmp"
        try Data().write(to: URL(fileURLWithPath: memos.memosFolder + "/" + temporary))

        memos.prune(keeping: 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared), "the shared memo of old is removed")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: memos.memosFolder).sorted(),
            (names + [temporary]).sorted())

        memos.prune(keeping: 3)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: memos.memosFolder).sorted(),
            (Array(names.suffix(3)) + [temporary]).sorted(), "the two written longest ago go")
    }
}
