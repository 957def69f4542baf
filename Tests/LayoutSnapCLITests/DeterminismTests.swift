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
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir.path("a").path).filter {
            $0.hasSuffix(".png")
        }.sorted()
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            let x = try Data(contentsOf: dir.path("a/" + file))
            let y = try Data(contentsOf: dir.path("b/" + file))
            XCTAssertEqual(x, y, file)
        }
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
