import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender

/// Stages goldens that are missing or differ and leaves identical ones untouched (their bytes,
/// mtime and git status stay as they are). A staged golden is a complete `.pending` file beside
/// its place; `GoldenTransaction.commit` moves the staged goldens in once the batch is done, so a
/// killed record never leaves a golden the manifest does not describe.
public struct RecordHandler: FrameHandler {
    public let goldens: String
    public let manifest: GoldenManifest?

    public init(goldens: String, manifest: GoldenManifest?) {
        self.goldens = goldens; self.manifest = manifest
    }

    public func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
        let key = GoldenPaths.frameKey(fixture: fixture.id, state: state, index: frame.index)
        let path = goldens + "/" + key
        let pixelHash = PixelHash.hex(pixels.hash)
        var result = FrameResult(state: state, index: frame.index, status: .unchanged, goldenKey: key)

        // A link out of the goldens folder is never read or written through: it is replaced.
        let linkedOut = GoldenPaths.outsideTarget(path, goldens: goldens) != nil
        // What the golden there is now, for the manifest to announce while it is replaced.
        var replacing = GoldenManifest.Previous.absent
        if !linkedOut, let data = FileManager.default.contents(atPath: path) {
            let fileHash = data.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) }
            let entry = GoldenManifest.Entry(pixels: pixelHash, file: fileHash, width: pixels.width, height: pixels.height)
            if let vouched = manifest?.entry(key, fileHash: fileHash) {
                // The manifest knows this file's pixels: no decode either way.
                if vouched == entry {
                    result.manifestEntry = entry
                    return result
                }
                replacing = .entry(vouched)
            } else if let golden = try? PNGDecoder.decode([UInt8](data), maxPixels: Limits.maxGoldenPixels) {
                // Not vouched for by the manifest: decode and compare before deciding to rewrite.
                if golden.width == pixels.width, golden.height == pixels.height,
                   golden.pixels.withUnsafeBufferPointer({ ExactDiff.count($0, pixels.pixels) }) == 0 {
                    result.manifestEntry = entry
                    return result
                }
                replacing = .entry(GoldenManifest.Entry(pixels: golden.hashHex, file: fileHash, width: golden.width, height: golden.height))
            } else {
                replacing = .entry(GoldenManifest.Entry(pixels: GoldenTransaction.unreadablePixels, file: fileHash, width: 0, height: 0))
            }
            result.detail = "changed"
        } else {
            result.detail = linkedOut ? "replaces a link out of the goldens folder" : "new"
        }
        let png = PNGEncoder.encode(pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        result.replacing = replacing
        do {
            try GoldenTransaction.stage(png, goldenPath: path)
        } catch {
            result.status = .error
            result.detail = error.description
            return result
        }
        result.status = .recorded
        result.manifestEntry = GoldenManifest.Entry(pixels: pixelHash, file: png.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) },
                                                    width: pixels.width, height: pixels.height)
        return result
    }

    /// The note of a fixture whose layout.json was staged (record commits it with the frames).
    public static let layoutNote = "layout.json written"

    public func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult]) throws(RunnerError) -> String? {
        let path = goldens + "/" + GoldenPaths.layoutKey(fixture: fixture.id)
        let bytes = LayoutJSON.encode(layout)
        if let existing = FileManager.default.contents(atPath: path), [UInt8](existing) == bytes { return nil }
        // Staged like the frames: it goes into place with them, or not at all.
        try GoldenTransaction.stage(bytes, goldenPath: path)
        return Self.layoutNote
    }
}
