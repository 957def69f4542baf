import Foundation
import LayoutSnapImaging
import XCTest

/// A temporary folder for one test, removed at the end, and the package root for the bundled
/// fixtures.
enum Support {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func tempFolder(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "layoutsnap-runner-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

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
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// The PNG at `path` with `count` pixels along the first row nudged by `levels` in red, written back.
    static func nudge(_ path: String, count: Int, levels: UInt32) throws {
        let image = try PNGDecoder.decode(bytes(path)!)
        var pixels = image.pixels
        var nudged = 0
        for i in pixels.indices where nudged < count && (pixels[i] >> 16) & 0xFF >= levels {
            pixels[i] -= levels << 16
            nudged += 1
        }
        let png = pixels.withUnsafeBufferPointer { PNGEncoder.encode(pixels: $0.baseAddress!, width: image.width, height: image.height, stride: image.width) }
        try Data(png).write(to: URL(fileURLWithPath: path))
    }
}
