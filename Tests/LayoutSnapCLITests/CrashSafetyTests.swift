import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// docs/goldens.md "Crash safety" and docs/guarantees.md: no golden is ever lost or half written. `record` is killed with SIGKILL at
/// random moments while it replaces every golden; after each kill every golden is the complete
/// old or the complete new file and `manifest.json` describes it. A full disk fails with an
/// error and leaves the old goldens.
final class CrashSafetyTests: XCTestCase {
    /// Cards whose title appears in every frame, so a new title changes every golden.
    func writeFixtures(_ dir: TempDir, title: String, count: Int) throws {
        for i in 0..<count {
            try dir.write("Fixtures/cards/card-\(i).json", smallPost(title: "\(title) \(i)"))
        }
    }

    /// Records `count` cards, then changes every frame of them; returns the goldens' pixel hashes
    /// and the manifest as recorded, for checking that a failed record kept them.
    func recordThenChange(_ dir: TempDir, count: Int) throws -> (pixels: [String: String], manifest: Data) {
        try writeFixtures(dir, title: "Old", count: count)
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let result = (try pixelHashes(dir.path("Goldens")), try Data(contentsOf: dir.path("Goldens/manifest.json")))
        try writeFixtures(dir, title: "A much longer new title that changes every frame", count: count)
        return result
    }

    /// file path below Goldens → pixel hash, for every frame PNG under `folder`.
    func pixelHashes(_ folder: URL) throws -> [String: String] {
        var hashes: [String: String] = [:]
        for item in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        where item.hasSuffix(".png") && !item.hasPrefix(".") {
            let image = try PNGDecoder.decode([UInt8](Data(contentsOf: folder.appendingPathComponent(item))))
            hashes[item] = image.hashHex
        }
        return hashes
    }

    struct Manifest {
        var frames: [String: [String: Any]]
        init(_ url: URL) throws {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            frames = json["frames"] as! [String: [String: Any]]
        }
    }

    func fileHash(_ url: URL) throws -> String {
        try Data(contentsOf: url).withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) }
    }

    func testKilledRecordLeavesOldOrNewGoldensAndAConsistentManifest() throws {
        let kills = Int(ProcessInfo.processInfo.environment["LAYOUTSNAP_KILLS"] ?? "") ?? 25
        let cards = Int(ProcessInfo.processInfo.environment["LAYOUTSNAP_KILL_CARDS"] ?? "") ?? 16
        let dir = try TempDir()
        // Three versions of every golden (titles "Old", "New", "Third"): a run heads for a
        // version that may be neither the manifest's entry nor its previous one.
        let titles = ["Old", "New", "Third"]
        var versions: [[String: String]] = []
        for title in titles.reversed() {
            try writeFixtures(dir, title: title, count: cards)
            XCTAssertEqual(try CLI.run(["render", "--no-progress", "--out", "v-\(title)"], in: dir.url).status, 0)
            versions.insert(try pixelHashes(dir.path("v-\(title)")), at: 0)
        }
        let a = versions[0]
        let b = versions[1]
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        XCTAssertEqual(try pixelHashes(dir.path("Goldens")), a)
        XCTAssertTrue(
            a.allSatisfy { b[$0.key] != $0.value && versions[2][$0.key] != $0.value },
            "every golden differs between versions")

        // A pause before each swap (fault injection) makes the swap long enough to be hit often.
        let environment = ["LAYOUTSNAP_FAULT_SWAP_DELAY_MS": "10"]
        let timing = try TempDir()
        try FileManager.default.removeItem(at: timing.url)
        try FileManager.default.copyItem(at: dir.url, to: timing.url)
        try writeFixtures(timing, title: "New", count: cards)
        let started = Date()
        XCTAssertEqual(
            try CLI.run(["record", "--no-progress", "--allow-ci"], in: timing.url, environment: environment).status, 0)
        let duration = Date().timeIntervalSince(started)
        print("crash safety: \(a.count) frames, \(kills) kills, a record takes \(String(format: "%.2f", duration)) s")

        var generator = SystemRandomNumberGenerator()
        var mixed = 0
        for kill in 0..<kills {
            // Each run heads for the next version, from wherever the last kill left the goldens.
            let (title, target) = (titles[(kill + 1) % 3], versions[(kill + 1) % 3])
            try writeFixtures(dir, title: title, count: cards)
            let before = try pixelHashes(dir.path("Goldens"))
            let process = try TestProcess.start(
                CLI.binary, ["record", "--no-progress", "--allow-ci", "--jobs", "2"],
                in: dir.url, environment: environment)
            Thread.sleep(forTimeInterval: Double.random(in: 0...duration, using: &generator))
            process.signal(SIGKILL)
            process.wait()

            let manifest = try Manifest(dir.path("Goldens/manifest.json"))
            var old = 0
            var new = 0
            for key in a.keys.sorted() {
                let file = dir.path("Goldens/" + key)
                let pixels = try PNGDecoder.decode([UInt8](Data(contentsOf: file))).hashHex
                XCTAssertTrue(
                    pixels == before[key] || pixels == target[key],
                    "kill \(kill): \(key) is neither the golden before nor the new one")
                if pixels == target[key] && pixels != before[key] { new += 1 } else { old += 1 }
                // The manifest describes the file there: its entry, or (mid-swap) the previous one.
                let entry = try XCTUnwrap(manifest.frames[key], "kill \(kill): \(key) is not in the manifest")
                let hash = try fileHash(file)
                let previous = entry["previous"] as? [String: Any]
                XCTAssertTrue(
                    entry["file"] as? String == hash || previous?["file"] as? String == hash,
                    "kill \(kill): the manifest does not describe \(key)")
                let described = entry["file"] as? String == hash ? entry : try XCTUnwrap(previous)
                XCTAssertEqual(described["pixels"] as? String, pixels, "kill \(kill): \(key) pixel hash")
            }
            if old > 0 && new > 0 && before != target { mixed += 1 }
        }
        print("crash safety: \(mixed) of \(kills) kills landed mid-swap")
        XCTAssertGreaterThan(
            mixed, 0, "no kill landed while goldens were being swapped: the test did not test the hard case")

        try writeFixtures(dir, title: "New", count: cards)
        let finish = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(finish.status, 0, finish.output)
        XCTAssertEqual(try pixelHashes(dir.path("Goldens")), b)
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: dir.path("Goldens").path).filter {
            $0.hasSuffix(".pending") || $0.hasSuffix(".tmp")
        }
        XCTAssertEqual(leftovers, [], "a finished record leaves no pending or temporary files")
        let settled = try String(contentsOf: dir.path("Goldens/manifest.json"), encoding: .utf8)
        XCTAssertFalse(settled.contains("previous"), "a finished record settles the manifest")
    }

    /// A disk that fills up (here: a file size limit, which fails writes the same way) stops the
    /// record with an error before any golden is replaced.
    func testFullDiskKeepsTheOldGoldens() throws {
        let dir = try TempDir()
        let (before, manifest) = try recordThenChange(dir, count: 3)

        let r = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url, launcher: fullDisk)
        let stderr = r.stderr
        XCTAssertEqual(r.status, 2, stderr)
        XCTAssertTrue(stderr.contains("File too large") || stderr.contains("No space left"), stderr)
        XCTAssertTrue(stderr.contains("previous file is untouched"), stderr)
        XCTAssertEqual(try pixelHashes(dir.path("Goldens")), before, "the old goldens survive")
        XCTAssertEqual(try Data(contentsOf: dir.path("Goldens/manifest.json")), manifest)
    }

    /// One frame that cannot be staged (here its pending path is taken by a folder), while the
    /// others can: the fixture is recorded whole or not at all. Its goldens and their manifest
    /// entries stay as they were, and the error says so.
    func testAFrameThatCannotBeStagedKeepsTheWholeFixtureAsItWas() throws {
        let dir = try TempDir()
        let (before, manifest) = try recordThenChange(dir, count: 1)
        let layout = dir.path("Goldens/cards/card-0/layout.json")
        let layoutBefore = try Data(contentsOf: layout)
        let frames = try XCTUnwrap(
            try FileManager.default.subpathsOfDirectory(atPath: dir.path("Goldens").path)
                .filter { $0.hasSuffix("/003.png") }.first)
        let blocker = dir.path("Goldens/" + (frames as NSString).deletingLastPathComponent + "/.003.png.pending/keep")
        try FileManager.default.createDirectory(
            at: blocker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([1]).write(to: blocker)

        let r = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("nothing recorded, its goldens are as they were"), r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("0 recorded, 0 unchanged, 1 error\n"), r.stdout)
        XCTAssertEqual(try pixelHashes(dir.path("Goldens")), before, "no golden of the fixture changed")
        XCTAssertEqual(try Data(contentsOf: dir.path("Goldens/manifest.json")), manifest, "nor its manifest entries")
        XCTAssertEqual(try Data(contentsOf: layout), layoutBefore, "nor its layout.json (staged with the frames)")
        // Unblocked, the next record replaces frames and layout together.
        try FileManager.default.removeItem(at: blocker.deletingLastPathComponent())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        XCTAssertNotEqual(try Data(contentsOf: layout), layoutBefore)
        XCTAssertNotEqual(try pixelHashes(dir.path("Goldens")), before)
    }
}
