import Foundation
import LayoutSnapCore
import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

/// The goldens folder's names, each built and read back in one place.
final class GoldenStoreTests: XCTestCase {
    func testKeysAndPaths() {
        let store = GoldenStore("Goldens")
        XCTAssertEqual(store.manifestPath, "Goldens/manifest.json")
        XCTAssertEqual(
            GoldenStore.frameKey(fixture: "posts/x", state: "01-expand", index: 7), "posts/x/01-expand/007.png")
        XCTAssertEqual(
            GoldenStore.frameKey(goldenKey: "posts/x/01-expand/007.png", index: 1234), "posts/x/01-expand/1234.png")
        XCTAssertEqual(store.path(GoldenStore.layoutKey(fixture: "posts/x")), "Goldens/posts/x/layout.json")
        XCTAssertEqual(GoldenStore.fixture(ofLayoutKey: GoldenStore.layoutKey(fixture: "posts/x@dark")), "posts/x@dark")
        XCTAssertNil(GoldenStore.fixture(ofLayoutKey: "posts/x/01-expand/000.png"))
        let frame = GoldenStore.frame(
            ofKey: GoldenStore.frameKey(fixture: "posts/x@dark", state: "01-expand", index: 3))
        XCTAssertEqual(frame?.fixture, "posts/x@dark")
        XCTAssertEqual(frame?.state, "01-expand")
        XCTAssertNil(GoldenStore.frame(ofKey: "posts/x/layout.json"))
        XCTAssertNil(GoldenStore.frame(ofKey: "x/000.png"))
        XCTAssertNil(GoldenStore.fixture(ofLayoutKey: "posts/xlayout.json"))
        // Three digits at least, as `String(format: "%03d")` pads them.
        for index in [0, 5, 42, 100, 999, 1000, 12_345, Int.max] {
            XCTAssertEqual(GoldenStore.frameName(index), String(format: "%03ld", index) + ".png")
        }
    }

    func testVariantIDs() {
        let id = FixtureVariant.id(base: "posts/x", name: "iphone-se+AX3")
        XCTAssertEqual(id, "posts/x@iphone-se+AX3")
        XCTAssertEqual(FixtureVariant.baseID(of: id), "posts/x")
        XCTAssertEqual(FixtureVariant.baseID(of: "posts/x"), "posts/x")
    }

    /// A golden under real folders is inside without resolving its path; a link anywhere below
    /// the goldens folder (to a folder inside or out) is left to resolving, which finds it out.
    func testRealFoldersAnswerOnlyForFoldersThatAreNoLinks() throws {
        let root = try makeTemporaryFolder("real-folders")
        defer { removeTemporaryFolder(root) }
        let goldens = root.path + "/Goldens"
        let manager = FileManager.default
        try manager.createDirectory(atPath: goldens + "/posts/x/initial", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root.path + "/outside/initial", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: goldens + "/posts/linked", withDestinationPath: root.path + "/outside")
        try Data([1]).write(to: URL(fileURLWithPath: root.path + "/outside/initial/000.png"))
        try Data([1]).write(to: URL(fileURLWithPath: goldens + "/posts/x/initial/000.png"))
        try manager.createSymbolicLink(
            atPath: goldens + "/posts/x/initial/001.png", withDestinationPath: root.path + "/outside/initial/000.png")

        let folders = GoldenStore.RealFolders(goldens: goldens)
        XCTAssertTrue(folders.contain(goldens))
        XCTAssertTrue(folders.contain(goldens + "/posts/x/initial"))
        XCTAssertTrue(folders.contain(goldens + "/posts/x/initial"), "asked again, from what it learnt")
        XCTAssertFalse(folders.contain(goldens + "/posts/linked/initial"))
        XCTAssertFalse(folders.contain(goldens + "/posts/x/../linked/initial"))
        XCTAssertFalse(folders.contain(goldens + "/posts/missing"))
        XCTAssertFalse(folders.contain(root.path + "/outside/initial"))
        XCTAssertFalse(folders.contain(goldens + "-other/posts"))

        // Names as the file system compares them, byte for byte: an accent that Swift joins to
        // the slash before it does not hide the link that slash follows, and two spellings of
        // "é" are two folders.
        try manager.createDirectory(atPath: root.path + "/outside/\u{301}b", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: goldens + "/a", withDestinationPath: root.path + "/outside")
        XCTAssertFalse(folders.contain(goldens + "/a/\u{301}b"))
        try manager.createDirectory(atPath: goldens + "/caf\u{E9}", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: goldens + "/cafe\u{301}", withDestinationPath: root.path + "/outside")
        XCTAssertTrue(folders.contain(goldens + "/caf\u{E9}"))
        XCTAssertFalse(folders.contain(goldens + "/cafe\u{301}"))

        let resolved = try XCTUnwrap(URL(fileURLWithPath: goldens).resolvingSymlinksInPath().path)
        let outside = URL(fileURLWithPath: root.path + "/outside/initial/000.png").resolvingSymlinksInPath().path
        func target(_ key: String) -> String? {
            GoldenStore.outsideTarget(goldens + "/" + key, resolvedGoldens: resolved, folders: folders)
        }
        XCTAssertNil(target("posts/x/initial/000.png"))
        XCTAssertEqual(target("posts/x/initial/001.png"), outside, "a linked file")
        XCTAssertEqual(target("posts/linked/initial/000.png"), outside, "a file in a linked folder")
        XCTAssertNil(target("posts/x/initial/002.png"), "nothing there: a missing golden")
    }
}
