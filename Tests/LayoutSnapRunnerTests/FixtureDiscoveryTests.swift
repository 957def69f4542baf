import Foundation
import XCTest

@testable import LayoutSnapRunner

final class FixtureDiscoveryTests: XCTestCase {
    /// The quick look for `"variants"` before a file is parsed for them: anywhere in the file,
    /// and never a partial word at its end.
    func testContainsFindsTheWordAnywhere() {
        let word = "\"variants\""
        for (text, expected) in [
            ("\"variants\": []", true), ("{\"kind\": \"post\", \"variants\": {}}", true), ("x\"variants\"", true),
            ("", false), ("\"variants", false), ("variants\"", false), ("\"\"\"varia\"variants\"", true),
            ("{\"kind\": \"post\"}", false), ("\"variant\"s\"", false),
        ] {
            XCTAssertEqual(FixtureDiscovery.contains(Array(text.utf8), word), expected, text)
        }
    }

    /// Each fixture file gets the defaults of the nearest layoutsnap.json at or above its folder,
    /// whatever order the files come in: a folder's search stops at the folders the project's
    /// own search passed, and a layoutsnap.json between them and the file still wins.
    func testEachFileGetsItsNearestConfigWhereverTheSearchStops() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "layoutsnap-nearest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let project = root.path + "/project"
        for folder in ["Fixtures/a", "Fixtures/b/c", "Fixtures/d", "../outside"] {
            try FileManager.default.createDirectory(atPath: project + "/" + folder, withIntermediateDirectories: true)
        }
        func write(_ text: String, _ path: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: project + "/" + path))
        }
        try write(#"{"defaults": {"scale": 2}}"#, "layoutsnap.json")
        try write(#"{"defaults": {"scale": 3}}"#, "Fixtures/b/layoutsnap.json")
        let settings = try ProjectSettings.load(from: project, cwd: project, usesFonts: false)
        var cache: [String: ProjectSettings] = [:]
        for (file, scale) in [
            ("Fixtures/a/x.json", 2.0), ("Fixtures/b/c/z.json", 3), ("Fixtures/b/y.json", 3), ("Fixtures/d/w.json", 2),
            ("Fixtures/a/v.json", 2),
        ] {
            let found = try settings.defaults(forFile: project + "/" + file, cache: &cache)
            XCTAssertEqual(found.config.defaults.scale, scale, file)
        }
        let outside = try settings.defaults(forFile: root.path + "/outside/o.json", cache: &cache)
        XCTAssertNil(outside.config.defaults.scale, "a file outside the project has no defaults of it")
    }

    /// What a fixtures folder's walk takes: every .json below real folders (a file that is a link
    /// too, and a folder named like one as well as what it holds), nothing in `images`, in a
    /// folder starting with a dot, or behind a link to a folder.
    func testTheWalkTakesJSONBelowRealFoldersOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layoutsnap-walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let fixtures = root.path + "/Fixtures"
        for folder in ["real/deeper", ".hidden", "images", "x.json", "other", ".dotted-link-target"] {
            try manager.createDirectory(atPath: fixtures + "/" + folder, withIntermediateDirectories: true)
        }
        for file in [
            "top.json", "real/a.json", "real/deeper/b.json", "real/notes.txt", ".hidden/h.json", "images/i.json",
            "x.json/inner.json", "other/o.json", ".file.json",
        ] {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: fixtures + "/" + file))
        }
        try manager.createDirectory(atPath: root.path + "/outside", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root.path + "/outside/c.json"))
        try manager.createSymbolicLink(atPath: fixtures + "/linked", withDestinationPath: root.path + "/outside")
        try manager.createSymbolicLink(atPath: fixtures + "/.linked", withDestinationPath: root.path + "/outside")
        try manager.createSymbolicLink(
            atPath: fixtures + "/real/link.json", withDestinationPath: fixtures + "/top.json")

        let walked = try FixtureDiscovery.jsonFiles(under: fixtures, target: "Fixtures")
        XCTAssertTrue(walked.allSatisfy { $0.problem == nil })
        let found = walked.map { String($0.path.dropFirst(fixtures.count + 1)) }
        XCTAssertEqual(
            found,
            [
                ".file.json", "other/o.json", "real/a.json", "real/deeper/b.json", "real/link.json", "top.json",
                "x.json",
                "x.json/inner.json",
            ])
    }

    /// A name that is not UTF-8 cannot be spelt as a path again: the file, or the folder and the
    /// fixtures in it, would drop out of the run unseen. Each is a fixture error instead, naming
    /// it, in the run's order, under an id no fixture has (it ends in "/"), kept under any filter
    /// (what it hides may match).
    func testANameThatIsNotUTF8IsAnErrorNotAFixtureLeftOut() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "layoutsnap-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fixtures = root.path + "/Fixtures"
        try FileManager.default.createDirectory(atPath: fixtures + "/ok", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: fixtures + "/ok/a.json"))
        func bytes(_ text: String, _ bad: [UInt8] = []) -> [CChar] {
            (Array(text.utf8) + bad).map { CChar(bitPattern: $0) } + [0]
        }
        // "bad\xFF.json", a folder "dir\xFE" holding "b.json", and "notes\xFF.txt" (not a fixture).
        let file = bytes(fixtures + "/bad", [0xFF]) + []
        let fd = open(Array(file.dropLast()) + bytes(".json"), O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let folder = Array(bytes(fixtures + "/dir", [0xFE]).dropLast())
        XCTAssertEqual(mkdir(folder + [0], 0o755), 0)
        let inner = open(folder + bytes("/b.json"), O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(inner, 0)
        close(inner)
        let text = open(Array(bytes(fixtures + "/notes", [0xFF]).dropLast()) + bytes(".txt"), O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(text, 0)
        close(text)

        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(root.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }
        let refs = try FixtureDiscovery.discover(paths: [])
        XCTAssertEqual(refs.map(\.id), ["bad\u{FFFD}.json/", "dir\u{FFFD}/", "ok/a"], "never a fixture's id")
        XCTAssertEqual(
            refs.map(\.displayPath), ["Fixtures/bad\u{FFFD}.json", "Fixtures/dir\u{FFFD}", "Fixtures/ok/a.json"])
        func message(_ ref: FixtureRef) -> String? {
            do {
                _ = try ref.load()
                return nil
            } catch {
                return error.message
            }
        }
        XCTAssertEqual(
            message(refs[0]),
            "the file's name is not UTF-8 (\u{FFFD} stands for each byte that is not), so it cannot be opened by it; rename it"
        )
        XCTAssertEqual(
            message(refs[1]),
            "this folder's name is not UTF-8 (\u{FFFD} stands for each byte that is not): the fixtures in it were not run; rename it"
        )
        XCTAssertEqual(
            try FixtureDiscovery.discover(paths: [], filter: "ok/*").map(\.id),
            ["bad\u{FFFD}.json/", "dir\u{FFFD}/", "ok/a"])
    }
}
