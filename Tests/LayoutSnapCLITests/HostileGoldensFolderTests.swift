import Foundation
import XCTest

/// Goldens folders that are wrong as a whole: a manifest that lists frames that are gone, a
/// goldens path that is a file, a folder the user cannot write, a disk that fills during accept.
/// Each is one clear error or verdict, and nothing is half written.
final class HostileGoldensFolderTests: XCTestCase {
    func project() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("Fixtures/a.json", smallPost())
        let r = try CLI.run(["record", "--allow-ci", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        return dir
    }

    func files(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)!
        while let item = enumerator.nextObject() as? String {
            var isDir: ObjCBool = false
            let path = folder.path + "/" + item
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue {
                out[item] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return out
    }

    /// The manifest still lists a frame whose file is gone, and frames of a fixture that never
    /// existed: the gone frame is missing (never passed on the manifest's word), the rest pass,
    /// and record heals the manifest.
    func testAManifestListingAbsentFramesNeverPassesThem() throws {
        let dir = try project()
        try FileManager.default.removeItem(at: dir.path("Goldens/a/01-expand/003.png"))
        var manifest = try String(contentsOf: dir.path("Goldens/manifest.json"), encoding: .utf8)
        let entry =
            #""ghost/initial/000.png" : {"file" : "0000000000000000", "height" : 160, "pixels" : "0000000000000000", "width" : 200},"#
        manifest = manifest.replacingOccurrences(of: "\"frames\" : {", with: "\"frames\" : {" + entry)
        try manifest.write(to: dir.path("Goldens/manifest.json"), atomically: true, encoding: .utf8)

        let verify = try CLI.run(["verify", "--no-progress", "--lint", "off"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)
        XCTAssertTrue(verify.stdout.contains("MISSING a 01-expand: frame 3 has no golden"), verify.stdout)
        XCTAssertTrue(withoutCacheCount(verify.stdout).hasSuffix("7 passed, 0 failed, 1 missing\n"), verify.stdout)
        XCTAssertEqual(try CLI.run(["record", "--allow-ci", "--no-progress"], in: dir.url).status, 0)
        let healed = try String(contentsOf: dir.path("Goldens/manifest.json"), encoding: .utf8)
        XCTAssertFalse(healed.contains("ghost/"), "record drops entries of frames that do not exist")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
    }

    func testAGoldensPathThatIsAFileIsOneError() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/a.json", smallPost())
        try dir.write("G", "not a folder")
        for arguments in [["verify", "--goldens", "G"], ["record", "--goldens", "G", "--allow-ci"]] {
            let r = try CLI.run(arguments + ["--no-progress"], in: dir.url)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.output)")
            XCTAssertEqual(r.stderr, "error: --goldens G: a file is there, and a folder is needed\n")
        }
        XCTAssertEqual(try String(contentsOf: dir.path("G"), encoding: .utf8), "not a folder")
    }

    /// A goldens folder the user may not write (record run as an unprivileged user over a folder
    /// owned by root): one error naming the folder, every file as it was.
    func testAReadOnlyGoldensFolderIsOneErrorAndNothingChanges() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to run record as another user (CI runs as root)") }
        let dir = try project()
        try dir.write("Fixtures/a.json", smallPost(title: "Changed"))
        // The test folder must be readable by the other user, the goldens not writable.
        for path in [dir.url.path, dir.path("Fixtures").path] { chmod(path, 0o755) }
        chmod(dir.path("Fixtures/a.json").path, 0o644)
        let before = try files(dir.path("Goldens"))
        let r = try CLI.run(
            ["record", "--allow-ci", "--no-progress"], in: dir.url,
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        let stderr = r.stderr
        XCTAssertEqual(r.status, 2, stderr)
        XCTAssertTrue(stderr.contains("Goldens") && stderr.contains("Permission denied"), stderr)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, "one error: \(stderr)")
        XCTAssertEqual(try files(dir.path("Goldens")), before)
    }

    /// The disk fills while accept writes (1 KiB per file): exit 2, the old goldens and
    /// manifest stay byte for byte.
    func testADiskThatFillsDuringAcceptKeepsTheOldGoldens() throws {
        let dir = try project()
        try dir.write("Fixtures/a.json", smallPost(title: "Changed"))
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 1)
        let before = try files(dir.path("Goldens"))
        let r = try CLI.run(["accept", "--allow-ci"], in: dir.url, launcher: fullDisk)
        let stderr = r.stderr
        XCTAssertEqual(r.status, 2, stderr)
        XCTAssertTrue(stderr.contains("File too large") || stderr.contains("No space left"), stderr)
        XCTAssertEqual(try files(dir.path("Goldens")), before, "nothing half written, no pending file left")
        XCTAssertEqual(try CLI.run(["accept", "--allow-ci"], in: dir.url).status, 0, "accept works once there is room")
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.url).status, 0)
    }
}
