import Foundation

/// The runner tests' fixtures and files.
enum Support {
    /// A small post card that expands and collapses: three states, 38 frames at 60 fps, 1x scale.
    static func postFixture(tolerance: String? = nil) -> String {
        """
        {
          "kind": "post", "width": 200, "height": 160, "scale": 1, "fps": 30,
          "title": "Title", "summary": "Summary", "body": "Body text that wraps over two lines here.",
          \(tolerance.map { "\"tolerance\": \($0)," } ?? "")
          "steps": [{"expand": true}]
        }
        """
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
