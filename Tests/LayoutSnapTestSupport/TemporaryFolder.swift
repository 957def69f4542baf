import Foundation

/// A new, empty folder under the system's temporary folder, `layoutsnap-PREFIX-UUID`: a folder of
/// its own for every call, so tests (and test runs side by side) never share one.
public func makeTemporaryFolder(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutsnap-\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Removes a folder from `makeTemporaryFolder` and all it holds; one already gone is no error.
public func removeTemporaryFolder(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
}

public func removeTemporaryFolder(_ path: String) {
    removeTemporaryFolder(URL(fileURLWithPath: path))
}
