import LayoutSnapTestSupport
import XCTest

final class GoldenLifecycleTests: XCTestCase {
    func testRecordRefusesUnderCIUnlessAllowed() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        let refused = try CLI.run(["record", "--no-progress"], in: dir.url, environment: ["CI": "true"])
        XCTAssertEqual(refused.status, 2, refused.output)
        XCTAssertTrue(refused.stderr.contains("--allow-ci"), refused.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("Goldens").path))

        let allowed = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url, environment: ["CI": "true"])
        XCTAssertEqual(allowed.status, 0, allowed.output)
        for file in [
            "Goldens/manifest.json", "Goldens/cards/small/layout.json", "Goldens/cards/small/initial/000.png",
            "Goldens/cards/small/01-expand/000.png", "Goldens/cards/small/01-expand/006.png",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path(file).path), file)
        }
    }

    func testRecordLeavesIdenticalGoldensUntouchedAndRewritesOnlyChanged() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let initial = dir.path("Goldens/cards/small/initial/000.png")
        let expanded = dir.path("Goldens/cards/small/01-expand/006.png")
        let past = Date(timeIntervalSince1970: 1_000_000)
        for url in [initial, expanded] {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: url.path)
        }

        let again = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.stdout.contains("0 recorded"), again.output)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: initial.path)[.modificationDate] as? Date, past)

        // Only the body changes: the compact initial frame stays, expanded frames are rewritten.
        try dir.write(
            "Fixtures/cards/small.json", smallPost().replacingOccurrences(of: "Body text", with: "Other body"))
        let changed = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(changed.status, 0, changed.output)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: initial.path)[.modificationDate] as? Date, past)
        XCTAssertNotEqual(
            try FileManager.default.attributesOfItem(atPath: expanded.path)[.modificationDate] as? Date, past)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
    }

    func testMissingGoldenFailsAndIsNeverRecordedByVerify() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let golden = dir.path("Goldens/cards/small/01-expand/003.png")
        try FileManager.default.removeItem(at: golden)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stdout.contains("MISSING cards/small 01-expand: frame 3 has no golden"), r.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: golden.path))
    }

    func testTruncatedGoldenIsReportedAsUnreadable() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let golden = dir.path("Goldens/cards/small/initial/000.png")
        let bytes = try Data(contentsOf: golden)
        try bytes.prefix(bytes.count / 2).write(to: golden)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("unreadable golden cards/small/initial/000.png"), r.output)
        XCTAssertTrue(r.stderr.contains("truncated"), r.output)
    }

    /// A golden whose bytes changed but whose pixels did not (re-encoded by another tool) is
    /// decoded and passes; the manifest's file hash is never trusted blindly.
    func testReencodedGoldenIsDecodedAndPasses() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let golden = dir.path("Goldens/cards/small/initial/000.png")
        var bytes = [UInt8](try Data(contentsOf: golden))
        // Insert an ancillary tEXt chunk after IHDR: different bytes, same pixels.
        bytes.insert(contentsOf: PNGChunks.chunk("tEXt", Array("Comment\u{0}hi".utf8)), at: 33)
        try Data(bytes).write(to: golden)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
    }
}

/// Bad goldens and report folders that are not layoutsnap's.
final class GoldenRobustnessTests: XCTestCase {
    func recorded() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        return dir
    }

    /// A golden that is a symbolic link out of Goldens/ is never read: it is an unreadable golden
    /// that says where it leads; record replaces the link itself, never the file it points at.
    func testSymlinkOutOfGoldensIsUnreadableAndNeverWrittenThrough() throws {
        let dir = try recorded()
        let outside = dir.path("outside.png")
        let golden = dir.path("Goldens/cards/small/01-expand/003.png")
        try FileManager.default.moveItem(at: golden, to: outside)
        try FileManager.default.createSymbolicLink(at: golden, withDestinationURL: outside)
        let before = try Data(contentsOf: outside)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(
            r.output.contains(
                "cards/small/01-expand/003.png: a symbolic link to \(outside.resolvingSymlinksInPath().path), outside Goldens/"
            ), r.output)
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        XCTAssertEqual(try Data(contentsOf: outside), before, "the file outside is untouched")
        let attributes = try FileManager.default.attributesOfItem(atPath: golden.path)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, "the link was replaced by a golden")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
    }

    /// A fixture's golden folder that is a link to a folder outside Goldens/ is never written
    /// through: record refuses that fixture, saying what to do, and the files outside stay as they were.
    func testAFolderLinkedOutOfGoldensIsNeverWrittenThrough() throws {
        let dir = try recorded()
        let outside = dir.path("outside")
        try FileManager.default.moveItem(at: dir.path("Goldens/cards/small"), to: outside)
        try FileManager.default.createSymbolicLink(at: dir.path("Goldens/cards/small"), withDestinationURL: outside)
        let before = try Data(contentsOf: outside.appendingPathComponent("initial/000.png"))
        // The result cache vouches only for goldens inside Goldens/: the same bytes through a
        // linked folder are not a hit.
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertNotEqual(verify.status, 0, verify.output)
        XCTAssertFalse(verify.stdout.contains("from cache"), verify.output)
        try dir.write("Fixtures/cards/small.json", smallPost(title: "A new title"))
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 2, record.output)
        XCTAssertTrue(record.output.contains("leads out of Goldens/"), record.output)
        XCTAssertTrue(record.output.contains("make it a folder of its own"), record.output)
        XCTAssertEqual(try Data(contentsOf: outside.appendingPathComponent("initial/000.png")), before)
        let staged = try FileManager.default.subpathsOfDirectory(atPath: outside.path).filter {
            $0.hasSuffix(".pending")
        }
        XCTAssertEqual(staged, [], "nothing staged outside")
    }

    /// A broken manifest is never trusted: verify warns and decodes every golden; record rebuilds it.
    func testCorruptManifestIsNotTrustedAndIsRebuilt() throws {
        let dir = try recorded()
        try dir.write("Goldens/manifest.json", "{ not json")
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertTrue(verify.stderr.contains("manifest.json:1:3: invalid JSON"), verify.output)
        XCTAssertTrue(verify.stderr.contains("every golden will be decoded"), verify.output)
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertTrue(record.stdout.contains("0 recorded"), "no golden rewritten: \(record.output)")
        let manifest = try String(contentsOf: dir.path("Goldens/manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("cards/small/01-expand/006.png"), manifest)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
    }

    /// Something that exists where a golden should be but cannot be read is bad input (2), not a
    /// missing golden (1).
    func testAGoldenThatCannotBeReadIsUnreadable() throws {
        let dir = try recorded()
        let golden = dir.path("Goldens/cards/small/initial/000.png")
        try FileManager.default.removeItem(at: golden)
        try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("unreadable golden cards/small/initial/000.png: cannot be read"), r.output)
    }

    /// `--report` pointing at a folder of the user's own never deletes what layoutsnap did not write.
    func testReportIntoAForeignFolderKeepsItsFiles() throws {
        let dir = try recorded()
        try dir.write("mine/diff/notes.txt", "keep me")
        try dir.write("mine/actual/photo.txt", "keep me too")
        try dir.write("Fixtures/cards/small.json", smallPost(title: "Changed"))
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--report", "mine"], in: dir.url).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("mine/diff/notes.txt").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("mine/actual/photo.txt").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("mine/index.html").path))
        // Its own report it does clear: a later passing run leaves no stale failure images.
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
        try dir.write("Fixtures/cards/small.json", smallPost(title: "Changed"))
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 1)
        try dir.write("Fixtures/cards/small.json", smallPost())
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path(".layoutsnap/report/actual").path))
    }
}
