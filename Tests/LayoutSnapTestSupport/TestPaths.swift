import Foundation

public enum TestPaths {
    /// The package's root folder, where Fixtures/, Goldens/, schema/ and Tests/ are.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An executable SwiftPM built beside the test bundle (`layoutsnap`, `layoutsnap-bench`), in
    /// whichever build folder the tests run from (debug, release, a sanitizer's).
    /// `LAYOUTSNAP_TEST_PRODUCTS`, when set, names another folder to take it from first: CI runs
    /// the end-to-end tests on the package's static release build, the binary that ships.
    public static func builtProduct(_ name: String) -> URL {
        if let folder = ProcessInfo.processInfo.environment["LAYOUTSNAP_TEST_PRODUCTS"], !folder.isEmpty {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let candidates =
            [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for dir in candidates {
            let url = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/" + name)
    }
}
