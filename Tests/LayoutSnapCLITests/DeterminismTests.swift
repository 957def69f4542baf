import XCTest

/// docs/guarantees.md: the same fixture gives byte-identical pixels on every run, whatever the user's
/// fontconfig, locale or home folder.
final class DeterminismTests: XCTestCase {
    func testForeignFontconfigLocaleAndHomeDoNotChangePixels() throws {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/cjk-emoji.json", to: "Fixtures/posts/cjk-emoji.json")
        try dir.copyBundled("Fixtures/posts/arabic.json", to: "Fixtures/posts/arabic.json")
        try dir.copyBundled("Fixtures/posts/images", to: "Fixtures/posts/images")
        let a = try CLI.run(["render", "--out", "a", "--no-progress"], in: dir.url)
        XCTAssertEqual(a.status, 0, a.output)
        try dir.write(
            "fonts.conf",
            "<?xml version=\"1.0\"?><fontconfig><dir>/usr/share/fonts</dir><alias><family>Inter</family><prefer><family>DejaVu Serif</family></prefer></alias></fontconfig>"
        )
        let b = try CLI.run(
            ["render", "--out", "b", "--no-progress", "--jobs", "1"], in: dir.url,
            environment: [
                "FONTCONFIG_FILE": dir.path("fonts.conf").path, "FONTCONFIG_PATH": dir.url.path,
                "LANG": "ja_JP.UTF-8", "LC_ALL": "zh_CN.UTF-8", "LANGUAGE": "zh_CN:ko", "HOME": dir.path("home").path,
                "XDG_CONFIG_HOME": dir.path("xdg").path,
            ])
        XCTAssertEqual(b.status, 0, b.output)
        try Self.assertSamePNGs(in: dir, "a", as: ["b"])
    }

    /// Every PNG under `dir/first` (more than ten) is byte for byte the one of the same path under
    /// each of `others`.
    static func assertSamePNGs(in dir: TempDir, _ first: String, as others: [String]) throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir.path(first).path).filter {
            $0.hasSuffix(".png")
        }.sorted()
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            let x = try Data(contentsOf: dir.path(first + "/" + file))
            for other in others { XCTAssertEqual(x, try Data(contentsOf: dir.path(other + "/" + file)), file) }
        }
    }

    /// The per-user memo of fontconfig's reading of the fonts (docs/decisions.md, "fontconfig's
    /// reading of the fonts remembered per user") never changes a pixel: a run that writes it,
    /// one that reads it and one whose memos were all cut short give the same files, and the
    /// last writes them whole again.
    func testTheFaceMemoNeverChangesPixels() throws {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/cjk-emoji.json", to: "Fixtures/posts/cjk-emoji.json")
        try dir.copyBundled("Fixtures/posts/arabic.json", to: "Fixtures/posts/arabic.json")
        try dir.copyBundled("Fixtures/posts/images", to: "Fixtures/posts/images")
        let environment = ["XDG_CACHE_HOME": dir.path("xdg").path]
        let faces = dir.path("xdg/layoutsnap/faces").path
        func render(_ out: String) throws {
            let r = try CLI.run(["render", "--out", out, "--no-progress"], in: dir.url, environment: environment)
            XCTAssertEqual(r.status, 0, r.output)
        }
        func memos() throws -> [String: Int] {
            var sizes: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: faces) {
                sizes[name] = try XCTUnwrap(
                    FileManager.default.attributesOfItem(atPath: faces + "/" + name)[.size] as? Int)
            }
            return sizes
        }
        func stamps() throws -> [String: String] {
            var stamps: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: faces) {
                let attributes = try FileManager.default.attributesOfItem(atPath: faces + "/" + name)
                stamps[name] = "\(attributes[.systemFileNumber] ?? "?") \(attributes[.modificationDate] ?? "?")"
            }
            return stamps
        }
        try render("a")
        let first = try stamps()
        try render("b")
        // Read, not written again: a memo that did not read whole would have been.
        let second = try stamps()
        for (name, stamp) in first { XCTAssertEqual(second[name], stamp, "\(name) was used as it was") }
        // At least the three packaged files' (a file changed in the last two seconds, such as a
        // bundled font just built, gets its memo at a later run).
        let written = try memos()
        XCTAssertGreaterThanOrEqual(written.count, 3, "\(written)")
        for (name, size) in written {
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: faces + "/" + name))
            try handle.truncate(atOffset: UInt64(size / 2))
            try handle.close()
        }
        try render("c")
        let again = try memos()
        for (name, size) in written { XCTAssertEqual(again[name], size, "\(name) written whole again") }
        try Self.assertSamePNGs(in: dir, "a", as: ["b", "c"])
    }

    /// Two jobs and one job give the same goldens (each worker has its own Pango state).
    func testJobsDoNotChangePixels() throws {
        let dir = try TempDir()
        for name in ["no-image", "interrupted-collapse", "dark-appearance"] {
            try dir.copyBundled("Fixtures/posts/\(name).json", to: "Fixtures/posts/\(name).json")
        }
        try dir.copyBundled("Fixtures/posts/images", to: "Fixtures/posts/images")
        XCTAssertEqual(try CLI.run(["record", "--jobs", "1", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let r = try CLI.run(["verify", "--jobs", "3", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
    }

    /// Issue 7: 1, 2, 4 and 16 jobs over every bundled fixture give exactly the goldens' pixel
    /// hashes (verify's fast path compares each frame's pixel hash with the manifest's, so a
    /// single differing pixel on any thread count fails).
    func testEveryJobCountGivesTheGoldensPixelHashes() throws {
        for jobs in [1, 2, 4, 16] {
            let dir = try TempDir()
            let r = try CLI.run([
                "verify", "--no-progress", "--no-cache", "--jobs", String(jobs), "--report", dir.path("report").path,
            ])
            XCTAssertEqual(r.status, 0, "--jobs \(jobs): \(r.output)")
            XCTAssertTrue(r.stdout.hasSuffix("732 passed, 0 failed\n"), "--jobs \(jobs): \(r.stdout)")
        }
    }
}
