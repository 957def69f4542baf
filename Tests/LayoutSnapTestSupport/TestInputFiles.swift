import Foundation
import LayoutSnapCore

extension InMemoryInputFiles {
    /// Every file under `folder`, read now and kept by absolute path: the files a test's fixtures
    /// may name (Core's decoders read none themselves).
    public static func contents(of folder: URL) -> InMemoryInputFiles {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url) { files[url.standardizedFileURL.path] = [UInt8](data) }
        }
        return InMemoryInputFiles(files)
    }
}

extension FixtureFolder {
    /// The bundled Fixtures/ folder, read into memory once.
    public static let bundledFiles = InMemoryInputFiles.contents(
        of: TestPaths.packageRoot.appendingPathComponent("Fixtures"))

    /// `url` (a folder under the bundled Fixtures/), with the bundled files.
    public static func bundled(_ url: URL) -> FixtureFolder {
        FixtureFolder(path: url.standardizedFileURL.path, files: bundledFiles)
    }
}
