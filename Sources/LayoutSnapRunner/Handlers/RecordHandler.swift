import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapReport

/// Which goldens `record` rewrites (`--update`), as Playwright's `--update-snapshots` and
/// swift-snapshot-testing's record modes.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Frames that fail verification under the fixture's tolerance: missing, unreadable, or
    /// different beyond it. A frame within the tolerance keeps its golden's bytes.
    case changed
    /// Only frames without a golden; a frame that differs is reported and left alone (exit 1).
    case missing
    /// Every frame whose pixels differ, even within the tolerance.
    case all
}

/// Stages goldens that are missing or differ (as `mode` says) and leaves identical ones
/// untouched (their bytes, mtime and git status stay as they are). A staged golden is a complete
/// `.pending` file beside its place; `GoldenTransaction.commit` moves the staged goldens in once
/// the batch is done, so a killed record never leaves a golden the manifest does not describe.
public struct RecordHandler: FrameHandler {
    public let goldens: String
    public let manifest: GoldenManifest?
    public let mode: RecordMode

    public init(goldens: String, manifest: GoldenManifest?, mode: RecordMode = .changed) {
        self.goldens = goldens
        self.manifest = manifest
        self.mode = mode
    }

    public func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
        let key = GoldenStore.frameKey(fixture: fixture.id, state: state, index: frame.index)
        let path = GoldenStore(goldens).path(key)
        let pixelHash = PixelHash.hex(pixels.hash)
        var result = FrameResult(state: state, index: frame.index, status: .unchanged, goldenKey: key)

        // A link out of the goldens folder is never read or written through: it is replaced.
        let linkedOut = GoldenStore.outsideTarget(path, goldens: goldens) != nil
        // What the golden there is now, for the manifest to announce while it is replaced.
        var replacing = GoldenManifest.Previous.absent
        if !linkedOut, let data = FileManager.default.contents(atPath: path) {
            let fileHash = data.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) }
            let entry = GoldenManifest.Entry(
                pixels: pixelHash, file: fileHash, width: pixels.width, height: pixels.height)
            var golden: PixelImage?
            let current: GoldenManifest.Entry
            if let vouched = manifest?.entry(key, fileHash: fileHash) {
                // The manifest knows this file's pixels: no decode to tell same from different.
                if vouched == entry {
                    result.manifestEntry = entry
                    return result
                }
                current = vouched
            } else if let decoded = try? PNGDecoder.decode([UInt8](data), maxPixels: Limits.maxGoldenPixels) {
                // Not vouched for by the manifest: decode and compare before deciding to rewrite.
                if decoded.width == pixels.width, decoded.height == pixels.height,
                    decoded.pixels.withUnsafeBufferPointer({ ExactDiff.count($0, pixels.pixels) }) == 0
                {
                    result.manifestEntry = entry
                    return result
                }
                golden = decoded
                current = GoldenManifest.Entry(
                    pixels: decoded.hashHex, file: fileHash, width: decoded.width, height: decoded.height)
            } else {
                guard mode != .missing else {
                    result.status = .unreadable
                    result.detail =
                        "unreadable golden \(key): not rewritten (--update missing writes only missing goldens)"
                    return result
                }
                current = GoldenManifest.Entry(
                    pixels: GoldenTransaction.unreadablePixels, file: fileHash, width: 0, height: 0)
            }
            // The pixels differ. Whether the golden is rewritten is the mode's question.
            switch mode {
            case .all:
                break
            case .missing:
                result.status = .failed
                result.detail = "differs; not updated (--update missing)"
                result.manifestEntry = current
                return result
            case .changed:
                if let tolerance = fixture.tolerance, current.pixels != GoldenTransaction.unreadablePixels,
                    let image = golden ?? (try? PNGDecoder.decode([UInt8](data), maxPixels: Limits.maxGoldenPixels)),
                    image.width == pixels.width, image.height == pixels.height
                {
                    let comparison = image.pixels.withUnsafeBufferPointer {
                        FrameComparison.compare(
                            expected: $0, actual: pixels.pixels, width: pixels.width, height: pixels.height,
                            tolerance: tolerance)
                    }
                    if !comparison.comparison.isDifferent {
                        // Within the tolerance: verify passes it as similar, so the golden keeps its bytes.
                        result.status = .similar
                        result.detail = comparison.message
                        result.manifestEntry = current
                        return result
                    }
                }
            }
            replacing = .entry(current)
            result.detail = "changed"
        } else {
            result.detail = linkedOut ? "replaces a link out of the goldens folder" : "new"
        }
        let png = PNGEncoder.encode(
            pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        result.replacing = replacing
        do {
            try GoldenTransaction.stage(png, goldenPath: path, goldens: goldens)
        } catch {
            result.status = .error
            result.detail = error.description
            return result
        }
        result.status = .recorded
        result.manifestEntry = GoldenManifest.Entry(
            pixels: pixelHash, file: png.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) },
            width: pixels.width, height: pixels.height)
        return result
    }

    public func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult])
        throws(RunnerError) -> FixtureNote?
    {
        let path = GoldenStore(goldens).path(GoldenStore.layoutKey(fixture: fixture.id))
        let bytes = LayoutJSON.encode(layout)
        let existing = FileManager.default.contents(atPath: path)
        if let existing, [UInt8](existing) == bytes { return nil }
        // The layout describes the goldens beside it: while a frame keeps an old golden (`--update
        // missing`, an unreadable one left alone), its layout.json stays the old one too.
        if existing != nil, frames.contains(where: { $0.status == .failed || $0.status == .unreadable }) { return nil }
        // Staged like the frames: it goes into place with them, or not at all.
        try GoldenTransaction.stage(bytes, goldenPath: path, goldens: goldens)
        return .layoutStaged
    }
}
