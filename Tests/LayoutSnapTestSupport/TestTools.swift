import Foundation

/// Programs from outside the package that tests check output with. CI installs them all
/// (.ci/install), so there a missing one is a failure; elsewhere the test is skipped.
public enum TestTools {
    /// Whether a missing tool fails the test (on CI) rather than skipping it.
    public static var required: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// The first of `names` that is an executable: an absolute path as it is, a bare name on PATH.
    public static func find(_ names: [String]) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in names {
            let candidates = name.hasPrefix("/") ? [name] : path.split(separator: ":").map { "\($0)/\(name)" }
            if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                return URL(fileURLWithPath: found)
            }
        }
        return nil
    }

    public static func python3() -> URL? { find(["python3", "/usr/bin/python3", "/usr/local/bin/python3"]) }

    /// Headless Chromium (or Chrome): LAYOUTSNAP_CHROMIUM when set, else the usual names.
    /// A python3 that imports selenium, and chromedriver (Debian's python3-selenium and
    /// chromium-driver), for the tests that drive the review page; nil when either is missing.
    public static func selenium() -> (python: URL, driver: URL)? {
        let pythons = [URL(fileURLWithPath: "/usr/bin/python3")] + [python3()].compactMap { $0 }
        let python = pythons.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate.path)
                && (try? TestProcess.run(candidate, ["-c", "import selenium"], timeout: 60))?.status == 0
        }
        guard let python,
            let driver = find(["chromedriver", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"])
        else { return nil }
        return (python, driver)
    }

    public static let seleniumMissing =
        "python3-selenium and chromium-driver are needed (bash .ci/install installs them)"

    public static func chromium() -> URL? {
        find(chromiumNames)
    }

    public static var chromiumMissing: String {
        "chromium not found (looked for \(chromiumNames.joined(separator: ", "))); bash .ci/install installs it"
    }

    private static var chromiumNames: [String] {
        [ProcessInfo.processInfo.environment["LAYOUTSNAP_CHROMIUM"]].compactMap { $0 } + [
            "chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            "/Applications/Chromium.app/Contents/MacOS/Chromium",
        ]
    }

    /// The flags of every headless Chromium run here: no sandbox, GPU or shared memory (none of
    /// which CI's container has), and a profile folder of the test's own.
    public static func headlessChromium(profile: URL) -> [String] {
        [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)",
        ]
    }
}
