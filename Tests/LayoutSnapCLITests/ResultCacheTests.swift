import Foundation
import LayoutSnapTestSupport
import XCTest

/// The result cache end to end (docs/cache.md): a suite recorded here, verified cold and warm,
/// with one fixture, one image file and one font changed in turn; poisoned and torn entries.
/// Every run's verdict is the one a run without the cache gives.
final class ResultCacheTests: XCTestCase {
    /// Three fixtures: two cards (one with a dark variant) and a card with an image file.
    func project() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost(title: "Card A"))
        try dir.write(
            "Fixtures/cards/b.json",
            smallPost(title: "Card B", extra: #", "variants": [{"name": "dark", "appearance": "dark"}]"#))
        try dir.copyBundled("Fixtures/posts/images/landscape-3x2.png", to: "Fixtures/cards/images/photo.png")
        try dir.write(
            "Fixtures/cards/photo.json",
            smallPost(title: "Photo", extra: #", "image": {"path": "images/photo.png"}"#))
        let recorded = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(recorded.status, 0, recorded.output)
        return dir
    }

    struct Run {
        var status: Int32
        var output: String
        /// Fixture id → whether it came from the cache.
        var cached: [String: Bool]
        var summary: [String: Any]
        var findings: [[String: Any]]
    }

    func verify(
        _ dir: TempDir, _ extra: [String] = [], binary: URL? = nil, environment: [String: String] = [:],
        removing: [String] = []
    ) throws -> Run {
        let arguments = ["verify", "--no-progress", "--cache-audit", "0", "--json", "out.json"] + extra
        let r =
            try binary.map {
                try TestProcess.run(
                    $0, arguments, in: dir.url, environment: environment, removing: ["LAYOUTSNAP_RESOURCES"] + removing,
                    timeout: 300)
            } ?? CLI.run(arguments, in: dir.url, environment: environment, removing: removing)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("out.json"))) as! [String: Any]
        var cached: [String: Bool] = [:]
        for f in json["fixtures"] as! [[String: Any]] { cached[f["id"] as! String] = (f["cached"] as? Bool) ?? false }
        return Run(
            status: r.status, output: r.output, cached: cached, summary: json["summary"] as! [String: Any],
            findings: json["findings"] as! [[String: Any]])
    }

    func testWarmVerifyRendersOnlyWhatChangedAndKeepsEveryVerdict() throws {
        let dir = try project()
        let ids = ["cards/a", "cards/b", "cards/b@dark", "cards/photo"]
        // record filled the cache: the first verify renders nothing.
        let warm = try verify(dir)
        XCTAssertEqual(warm.status, 0, warm.output)
        XCTAssertEqual(warm.cached, Dictionary(uniqueKeysWithValues: ids.map { ($0, true) }), warm.output)
        let frames = warm.summary["frames"] as! Int
        XCTAssertEqual(warm.summary["cached"] as? Int, frames)
        XCTAssertTrue(warm.output.contains("\(frames) passed (\(frames) from cache), 0 failed"), warm.output)
        // The report, in a browser: the run's count and each fixture marked.
        let chromium = try Browser.chromium()
        let dom = try Browser.run(
            chromium, ["--dump-dom", dir.path(".layoutsnap/report/index.html").absoluteString],
            profile: dir.path("profile")
        ).stdout
        XCTAssertTrue(dom.contains("\(frames) frames (\(frames) from cache)"), dom)
        XCTAssertEqual(dom.components(separatedBy: #"class="cached""#).count - 1, 4, dom)

        // One fixture changed: it alone is rendered, and fails as it would without a cache.
        let original = try String(contentsOf: dir.path("Fixtures/cards/a.json"), encoding: .utf8)
        try dir.write("Fixtures/cards/a.json", original.replacingOccurrences(of: "Body text", with: "Other body"))
        let changed = try verify(dir)
        let uncached = try verify(dir, ["--no-cache"])
        XCTAssertEqual(changed.status, 1, changed.output)
        XCTAssertEqual(uncached.status, 1, uncached.output)
        XCTAssertEqual(changed.cached, ["cards/a": false, "cards/b": true, "cards/b@dark": true, "cards/photo": true])
        XCTAssertEqual(changed.summary["failed"] as? Int, uncached.summary["failed"] as? Int)
        XCTAssertEqual(changed.summary["passed"] as? Int, uncached.summary["passed"] as? Int)
        XCTAssertEqual(uncached.summary["cached"] as? Int, 0)

        // Back as it was: its old entry is still there.
        try dir.write("Fixtures/cards/a.json", original)
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)

        // Key order and whitespace are not inputs.
        try dir.write("Fixtures/cards/a.json", "\n" + original.replacingOccurrences(of: ", ", with: ",\n   "))
        XCTAssertEqual(try verify(dir).cached["cards/a"], true)

        // One byte of the image file (after its header: the picture, not its size).
        var image = try Data(contentsOf: dir.path("Fixtures/cards/images/photo.png"))
        image[image.count - 20] ^= 0x01
        try image.write(to: dir.path("Fixtures/cards/images/photo.png"))
        let imageChanged = try verify(dir)
        XCTAssertEqual(
            imageChanged.cached, ["cards/a": true, "cards/b": true, "cards/b@dark": true, "cards/photo": false],
            imageChanged.output)
        XCTAssertEqual(imageChanged.status, try verify(dir, ["--no-cache"]).status)

        // --device changes the fixture every rendering is made of: nothing is a hit.
        let device = try verify(dir, ["--device", "iphone-se"])
        XCTAssertEqual(device.cached.values.filter { $0 }.count, 0, device.output)
    }

    /// Keys are remembered under a hash of what each fixture was decoded from, one file per run.
    /// A pack that is torn is worked out again; one pointing every fixture at another's entry
    /// (a poisoned folder) finds hashes that are not this fixture's goldens: rendered, and the
    /// verdict holds.
    func testRememberedKeysAreAShortcutNeverAVerdict() throws {
        let dir = try project()
        let folder = dir.path(".layoutsnap/cache/memos")
        func packs() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        }
        /// Each memo and its record, in the file's order.
        func records(_ pack: String) throws -> [(memo: String, record: String)] {
            var text = Substring(try String(contentsOf: folder.appendingPathComponent(pack), encoding: .utf8))
            XCTAssertTrue(text.hasPrefix("layoutsnap memo pack 1\n"))
            text = text.dropFirst("layoutsnap memo pack 1\n".count)
            var out: [(String, String)] = []
            while text.hasPrefix("memo ") {
                let line = text.prefix(while: { $0 != "\n" }).split(separator: " ")
                text = text.dropFirst(line.joined(separator: " ").count + 1)
                let count = Int(line[2])!
                out.append((String(line[1]), String(decoding: Array(text.utf8.prefix(count)), as: UTF8.self)))
                text = Substring(String(decoding: Array(text.utf8.dropFirst(count + 1)), as: UTF8.self))
            }
            XCTAssertEqual(text, "end\n")
            return out
        }
        let recorded = try packs()
        XCTAssertEqual(recorded.count, 1, "one file for the run that recorded")
        XCTAssertEqual(try records(recorded[0]).count, 4, "one per fixture and variant")
        XCTAssertTrue(try records(recorded[0])[0].record.hasPrefix("layoutsnap key memo 1\nkey "))
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)
        XCTAssertEqual(try packs(), recorded, "a warm run writes none")

        try Data("torn".utf8).write(to: folder.appendingPathComponent(recorded[0]))
        let torn = try verify(dir)
        XCTAssertEqual(torn.cached.values.filter { $0 }.count, 4, torn.output)
        let again = try packs()
        XCTAssertEqual(again.count, 2)
        XCTAssertEqual(try records(again[1]).count, 4, "worked out again and remembered")

        // Every memo names the first one's key, in a pack after the others: three fixtures are
        // sent to another's entry.
        let good = try records(again[1])
        var poison = "layoutsnap memo pack 1\n"
        for (memo, _) in good { poison += "memo \(memo) \(good[0].record.utf8.count)\n\(good[0].record)\n" }
        try Data((poison + "end\n").utf8).write(to: folder.appendingPathComponent(again[1] + "-poison"))
        let poisoned = try verify(dir)
        XCTAssertEqual(poisoned.status, 0, poisoned.output)
        XCTAssertEqual(poisoned.cached.values.filter { $0 }.count, 1, poisoned.output)
        // What they rendered went under their own keys, worked out again, and their memos with it.
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)
    }

    /// The project's defaults are hashed once and remembered under layoutsnap.json's bytes:
    /// a changed file is hashed again (its fixtures render and fail as without the cache), and
    /// a torn memo is worked out again.
    func testTheDefaultsAreRememberedUnderTheirFile() throws {
        let dir = try project()
        let keys = dir.path(".layoutsnap/cache/keys")
        func memos() throws -> [String] {
            ((try? FileManager.default.subpathsOfDirectory(atPath: keys.path)) ?? []).filter { $0.count > 3 }.filter {
                (try? String(contentsOf: keys.appendingPathComponent($0), encoding: .utf8))?.hasPrefix(
                    "layoutsnap defaults memo 1\n") == true
            }
        }
        XCTAssertEqual(try memos().count, 0, "record does not need it")
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)
        let none = try memos()
        XCTAssertEqual(none.count, 1, "no layoutsnap.json: the built-in defaults'")

        try dir.write("layoutsnap.json", #"{"defaults": {"appearance": "dark"}}"#)
        let dark = try verify(dir)
        let uncached = try verify(dir, ["--no-cache"])
        XCTAssertEqual(dark.status, 1, dark.output)
        // Only the dark variant renders as it did: its key, worked out again, is the one it had.
        XCTAssertEqual(
            dark.cached, ["cards/a": false, "cards/b": false, "cards/b@dark": true, "cards/photo": false], dark.output)
        XCTAssertEqual(dark.summary["failed"] as? Int, uncached.summary["failed"] as? Int)
        XCTAssertEqual(try memos().count, 2, "one more, under the file's bytes")
        // Remembered now: the same verdict, and the dark renderings are hits that are not the goldens.
        let again = try verify(dir)
        XCTAssertEqual(again.status, 1, again.output)
        XCTAssertEqual(again.summary["failed"] as? Int, uncached.summary["failed"] as? Int)

        // The file's bytes, not its meaning, pick the memo: written otherwise, hashed again.
        try dir.write("layoutsnap.json", #"{ "defaults": { "appearance": "light" } }"#)
        let light = try verify(dir)
        XCTAssertEqual(light.status, 0, light.output)
        XCTAssertEqual(light.cached.values.filter { $0 }.count, 4, "light decodes as the built-in defaults")
        XCTAssertEqual(try memos().count, 3)

        for memo in try memos() { try Data("torn".utf8).write(to: keys.appendingPathComponent(memo)) }
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)
        XCTAssertEqual(try memos().count, 1, "worked out again and remembered")
    }

    /// The libraries' versions come from the cache folder's memo while what the dynamic loader
    /// would take reads the same (a warm run loads no library): a memo edited to another cairo
    /// changes every key, so everything renders, the verdict is the same, and the environment's
    /// warning names the version the memo gave.
    func testTheLibrariesMemoStandsInForLoadingThem() throws {
        let dir = try project()
        let memo = dir.path(".layoutsnap/cache/libraries")
        let text = try String(contentsOf: memo, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("layoutsnap libraries memo 1\n"), text)
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)
        let cairo = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("version 12:cairo=") })
        try Data(text.replacingOccurrences(of: cairo, with: "version 12:cairo=9.99.9").utf8).write(to: memo)
        let poisoned = try verify(dir)
        XCTAssertEqual(poisoned.status, 0, poisoned.output)
        XCTAssertEqual(poisoned.cached.values.filter { $0 }.count, 0, poisoned.output)
        XCTAssertTrue(
            poisoned.findings.contains { ($0["message"] as? String)?.contains("9.99.9") ?? false },
            "\(poisoned.findings)")
    }

    /// The first run into a new folder renders everything, so it sets up its fonts at once, as a
    /// run without a cache does, and still with the memo of the fonts' hashes: the user's
    /// (`$XDG_CACHE_HOME/layoutsnap/font-hashes-xxh3`), else the folder's when there is no home
    /// or it cannot be written. The memo names every font, and the next run is all hits.
    func testTheFirstRunIntoANewFolderRemembersItsFonts() throws {
        let dir = try project()
        // The user's cache; none; one that cannot be made (a file is in its way).
        try dir.write("blocked", "a file")
        for (home, cacheHome) in [(true, "xdg"), (false, nil), (false, "blocked/xdg")] {
            let folder = dir.path("fresh-" + (cacheHome ?? "homeless").replacingOccurrences(of: "/", with: "-"))
            let environment = cacheHome.map { ["XDG_CACHE_HOME": dir.path($0).path] } ?? [:]
            let removing = cacheHome == nil ? ["HOME", "XDG_CACHE_HOME"] : []
            let first = try verify(dir, ["--cache", folder.path], environment: environment, removing: removing)
            XCTAssertEqual(first.status, 0, first.output)
            XCTAssertEqual(first.cached.values.filter { $0 }.count, 0, first.output)
            let memoPath = home ? dir.path("xdg/layoutsnap/font-hashes-xxh3") : folder.appendingPathComponent("fonts")
            let memo = try String(contentsOf: memoPath, encoding: .utf8)
            for font in ["Inter-Regular.otf", "NotoSansArabic-Regular.ttf"] {
                XCTAssertTrue(memo.contains("/" + font + "\n"), "\(font) is not in the fonts memo:\n\(memo)")
            }
            XCTAssertEqual(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("fonts").path), !home,
                "the folder's own memo only without a home")
            let second = try verify(dir, ["--cache", folder.path], environment: environment, removing: removing)
            XCTAssertEqual(second.cached.values.filter { $0 }.count, 4, second.output)
        }
    }

    /// The user's memo of the fonts' hashes is read by every run, with or without a cache: it
    /// holds the files' own hashes, and a hash put in it (the font's `stat` unchanged) is the
    /// environment's, so it changes every key
    /// (nothing is a hit, the verdict is the same) and a run without a cache names the font in
    /// its environment warning.
    func testTheUsersFontHashesAreTheEnvironments() throws {
        let dir = try project()
        let environment = ["XDG_CACHE_HOME": dir.path("xdg").path]
        // The hashes it remembers are the files' own: the keys record made are found.
        XCTAssertEqual(try verify(dir, environment: environment).cached.values.filter { $0 }.count, 4)
        let memoPath = dir.path("xdg/layoutsnap/font-hashes-xxh3")
        let memo = try String(contentsOf: memoPath, encoding: .utf8)
        let line = try XCTUnwrap(memo.split(separator: "\n").first { $0.hasSuffix("/Inter-Regular.otf") })
        let poisoned = "00000000000000ff" + line.drop { $0 != " " }
        try Data(memo.replacingOccurrences(of: line, with: poisoned).utf8).write(to: memoPath)
        let changed = try verify(dir, environment: environment)
        XCTAssertEqual(changed.status, 0, changed.output)
        XCTAssertEqual(changed.cached.values.filter { $0 }.count, 0, changed.output)
        let uncached = try verify(dir, ["--no-cache"], environment: environment)
        XCTAssertEqual(uncached.status, 0, uncached.output)
        XCTAssertTrue(
            uncached.findings.contains { ($0["message"] as? String)?.contains("Inter-Regular.otf") ?? false },
            "\(uncached.findings)")
        // Elsewhere, the file's own hash again.
        let other = try verify(dir, ["--no-cache"], environment: ["XDG_CACHE_HOME": dir.path("other").path])
        XCTAssertFalse(
            other.findings.contains { ($0["message"] as? String)?.contains("Inter-Regular.otf") ?? false },
            "\(other.findings)")
    }

    /// A hit's goldens are checked by what `lstat` says of them once their hashes are
    /// remembered (docs/cache.md): a golden whose bytes change, even with its size and
    /// modification time put back, has a new change time, is read again, and the verdict is
    /// the one without a cache.
    func testGoldensAreRememberedByTheirStatAndChangesAreSeen() throws {
        let dir = try project()
        // Only a golden still for two seconds is remembered (a write in the same tick is never missed).
        Thread.sleep(forTimeInterval: 2.1)
        XCTAssertEqual(try verify(dir).cached.values.filter { $0 }.count, 4)
        let memo = try String(contentsOf: dir.path(".layoutsnap/cache/goldens"), encoding: .utf8)
        let goldens = try FileManager.default.subpathsOfDirectory(atPath: dir.path("Goldens").path).filter {
            $0.hasSuffix(".png")
        }
        XCTAssertEqual(memo.split(separator: "\n").count, goldens.count, memo)
        let warm = try verify(dir)
        XCTAssertEqual(warm.cached.values.filter { $0 }.count, 4, warm.output)

        // One golden's bytes change in place (the same inode and size), and its modification
        // time is put back: only its change time tells.
        let golden = dir.path("Goldens/" + goldens.sorted().first { $0.hasPrefix("cards/a/") }!)
        var before = stat()
        XCTAssertEqual(stat(golden.path, &before), 0)
        let bytes = try Data(contentsOf: golden)
        let handle = try FileHandle(forWritingTo: golden)
        try handle.seek(toOffset: UInt64(bytes.count / 2))
        try handle.write(contentsOf: Data([bytes[bytes.count / 2] ^ 0xFF]))
        try handle.close()
        let times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, golden.path, times, 0), 0)
        var after = stat()
        XCTAssertEqual(stat(golden.path, &after), 0)
        XCTAssertEqual(after.st_ino, before.st_ino)
        XCTAssertEqual(after.st_size, before.st_size)
        XCTAssertEqual(after.st_mtim.tv_sec, before.st_mtim.tv_sec)
        XCTAssertEqual(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec)
        let changed = try verify(dir)
        let uncached = try verify(dir, ["--no-cache"])
        XCTAssertNotEqual(uncached.status, 0, uncached.output)
        XCTAssertEqual(changed.status, uncached.status, changed.output)
        XCTAssertEqual(changed.cached, ["cards/a": false, "cards/b": true, "cards/b@dark": true, "cards/photo": true])
        XCTAssertEqual(changed.summary["passed"] as? Int, uncached.summary["passed"] as? Int)
    }

    /// A font file changed: the environment fingerprint changes, every fixture is rendered, and
    /// the verdict is the one without a cache (the glyphs are the same: the goldens still match,
    /// the environment's drift is a warning). The binary is a copy installed as the package lays
    /// it out, so its fonts are files this test may change.
    func testAChangedFontRendersEverything() throws {
        let dir = try project()
        let binary = dir.path("prefix/bin/layoutsnap")
        try FileManager.default.createDirectory(
            at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.binary, to: binary)
        let built = CLI.binary.deletingLastPathComponent()
        let share = dir.path("prefix/share/layoutsnap")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        for (name, buildPath) in [
            ("fonts", "layoutsnap_LayoutSnapRender.resources/Fonts"),
            ("page", "layoutsnap_LayoutSnapReport.resources/Resources"),
        ] {
            try FileManager.default.copyItem(
                at: built.appendingPathComponent(buildPath), to: share.appendingPathComponent(name))
        }
        let installed = try verify(dir, binary: binary)
        XCTAssertEqual(installed.cached.values.filter { $0 }.count, 4, installed.output)
        let font = share.appendingPathComponent("fonts/Inter-Regular.otf")
        let handle = try FileHandle(forWritingTo: font)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0, 0, 0, 0]))
        try handle.close()
        let run = try verify(dir, binary: binary)
        XCTAssertEqual(run.cached.values.filter { $0 }.count, 0, run.output)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("environment differs"), run.output)
        // And the run stored its renderings under the new environment's keys.
        XCTAssertEqual(try verify(dir, binary: binary).cached.values.filter { $0 }.count, 4)
    }

    /// An entry of the local folder: the pack that holds it, its key and its text.
    struct PackedEntry: Equatable {
        var pack: String
        var key: String
        var text: String
    }

    /// Every entry in the local folder's packs, oldest pack first, read by the format docs/cache.md
    /// gives (`layoutsnap entry pack 1`, then `entry <key> <bytes>`, the entry and a newline for
    /// each, then `end`), apart from the code that writes it.
    func entries(_ dir: TempDir) throws -> [PackedEntry] {
        let root = dir.path(".layoutsnap/cache/packs").path
        var out: [PackedEntry] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where !name.hasPrefix(".") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
            let header = Array("layoutsnap entry pack 1\n".utf8)
            XCTAssertEqual(Array(bytes.prefix(header.count)), header)
            // A pack that is not whole fails the test rather than reading past its end.
            var at = header.count
            while at < bytes.count, Array(bytes[at...]) != Array("end\n".utf8) {
                let newline = try XCTUnwrap(bytes[at...].firstIndex(of: 0x0A), "\(name): a record line without its end")
                let fields = String(decoding: bytes[at..<newline], as: UTF8.self).split(separator: " ")
                guard fields.count == 3, fields[0] == "entry", let count = Int(fields[2]), count >= 0,
                    newline + 1 + count < bytes.count, bytes[newline + 1 + count] == 0x0A
                else {
                    throw PackNotWhole(pack: name, at: at)
                }
                out.append(
                    PackedEntry(
                        pack: root + "/" + name, key: String(fields[1]),
                        text: String(decoding: bytes[(newline + 1)..<(newline + 1 + count)], as: UTF8.self)))
                at = newline + 1 + count + 1
            }
            if at >= bytes.count { throw PackNotWhole(pack: name, at: at) }
        }
        return out
    }

    struct PackNotWhole: Error {
        var pack: String
        var at: Int
    }

    /// Writes `entries` as the pack at `path`, in the same format.
    func writePack(_ path: String, _ entries: [PackedEntry]) throws {
        var text = "layoutsnap entry pack 1\n"
        for entry in entries { text += "entry \(entry.key) \(entry.text.utf8.count)\n\(entry.text)\n" }
        try (text + "end\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// An entry whose frame hash was edited is not the golden's: not taken, the fixture is
    /// rendered and passes. An entry that claims a changed fixture renders as its goldens (a
    /// poisoned store) would pass it; an audit of every hit renders it, fails the run with a
    /// finding that names it, and the rendering's verdict stands.
    func testPoisonedAndTornEntries() throws {
        let dir = try project()
        let a = "Fixtures/cards/a.json"
        XCTAssertEqual(try entries(dir).count, 4)
        // A frame hash edited in place, as with a text editor: the pack keeps its length.
        let edited = try XCTUnwrap(try entries(dir).min { $0.key < $1.key })
        var text = edited.text
        let hash = try XCTUnwrap(text.range(of: #""pixels":"[0-9a-f]{16}""#, options: .regularExpression))
        text.replaceSubrange(hash, with: #""pixels":"0123456789abcdef""#)
        XCTAssertNotEqual(text, edited.text)
        try String(contentsOfFile: edited.pack, encoding: .utf8).replacingOccurrences(of: edited.text, with: text)
            .write(toFile: edited.pack, atomically: true, encoding: .utf8)
        XCTAssertTrue(try entries(dir).contains { $0.text == text })
        let normal = try verify(dir)
        XCTAssertEqual(normal.status, 0, normal.output)
        XCTAssertEqual(normal.cached.values.filter { $0 }.count, 3, normal.output)

        // cards/a's entry as recorded, then as changed: the change's key is the new file.
        try FileManager.default.removeItem(at: dir.path(".layoutsnap/cache"))
        XCTAssertEqual(try verify(dir, [a]).status, 0)
        let recorded = try XCTUnwrap(try entries(dir).first)
        try dir.write(
            a,
            try String(contentsOf: dir.path(a), encoding: .utf8).replacingOccurrences(
                of: "Body text", with: "Other body"))
        XCTAssertEqual(try verify(dir, [a]).status, 1)
        var changed = try XCTUnwrap(try entries(dir).first { $0.key != recorded.key })
        XCTAssertNotEqual(changed.pack, recorded.pack)
        changed.text = recorded.text.replacingOccurrences(of: recorded.key, with: changed.key)
        try writePack(changed.pack, [changed])

        let trusted = try verify(dir, [a])
        XCTAssertEqual(trusted.status, 0, "a poisoned entry is a hit: what the audit is for")
        XCTAssertEqual(trusted.cached["cards/a"], true)
        let audited = try verify(dir, [a, "--cache-audit", "1"])
        XCTAssertEqual(audited.status, 1, audited.output)
        XCTAssertEqual(audited.cached["cards/a"], false)
        XCTAssertTrue(audited.output.contains("1 cache audit failure"), audited.output)
        let finding = try XCTUnwrap(audited.findings.first { ($0["kind"] as? String) == "cacheAudit" })
        XCTAssertTrue((finding["message"] as! String).contains("cards/a"), "\(finding)")
        XCTAssertTrue((finding["message"] as! String).contains("poisoned"), "\(finding)")
        // The audit replaced the entry with the rendering: the fixture fails as it should.
        XCTAssertEqual(try verify(dir, [a]).status, 1)

        // Torn: each pack cut in half is refused with a warning, and the fixture is rendered.
        for pack in Set(try entries(dir).map(\.pack)) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: pack))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: pack))
        }
        let torn = try verify(dir, [a])
        XCTAssertEqual(torn.status, 1, torn.output)
        XCTAssertEqual(torn.cached["cards/a"], false)
        XCTAssertTrue(torn.output.contains("refused"), torn.output)
        XCTAssertTrue(torn.findings.contains { ($0["kind"] as? String) == "cache" }, "\(torn.findings)")
    }
}
