import Foundation

public enum TestPaths {
    /// The package's root folder, where Fixtures/, Goldens/, schema/ and Tests/ are.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
