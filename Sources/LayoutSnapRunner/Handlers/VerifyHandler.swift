import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapReport

/// Compares frames with goldens. Fast path: the pixel hash of the rendered frame equals the
/// manifest's and the golden file's bytes still hash to the manifest's file hash, so no PNG is
/// decoded. Otherwise the golden is decoded and compared word by word; a frame that is not
/// identical gets a perceptual diff (SPEC §7) and is failed, or passed as "similar" when the
/// fixture's tolerance allows it. Never writes goldens: actual frames, diff images and the
/// current layout of a failing fixture go to the report folder.
public struct VerifyHandler: FrameHandler {
    public let goldens: String
    public let manifest: GoldenManifest?
    public let reportDirectory: String

    public init(goldens: String, manifest: GoldenManifest?, reportDirectory: String) {
        self.goldens = goldens; self.manifest = manifest; self.reportDirectory = reportDirectory
    }

    public func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
        let key = GoldenPaths.frameKey(fixture: fixture.id, state: state, index: frame.index)
        var result = FrameResult(state: state, index: frame.index, status: .passed, goldenKey: key)
        let path = goldens + "/" + key
        if let outside = GoldenPaths.outsideTarget(path, goldens: goldens) {
            result.status = .unreadable
            result.detail = "unreadable golden \(key): a symbolic link to \(outside), outside \(goldens)/ (goldens are files in the goldens folder)"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            // Something is there but cannot be read (a folder, no permission): bad input, not a
            // golden to record.
            let exists = FileManager.default.fileExists(atPath: path)
            result.status = exists ? .unreadable : .missing
            result.detail = exists ? "unreadable golden \(key): cannot be read" : "no golden"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        // The fast path hashes the file where it lies; its bytes are copied only to be decoded.
        // (A record killed while replacing goldens leaves the old entry beside the new one.)
        if let manifest, let entry = manifest.entry(key, fileHash: data.withUnsafeBytes({ PixelHash.hex(PixelHash.ofBytes($0)) })),
           entry.pixels == PixelHash.hex(pixels.hash) {
            return result
        }
        // Data.withUnsafeBytes only rethrows untyped errors: carry the typed one out as a Result.
        let decoded = data.withUnsafeBytes { buffer in
            Result { () throws(PNGError) in try PNGDecoder.decode(buffer, maxPixels: Limits.maxGoldenPixels) }
        }
        let golden: PixelImage
        switch decoded {
        case let .success(image): golden = image
        case let .failure(error):
            result.status = .unreadable
            result.detail = "unreadable golden \(key): \(error.description)"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        guard golden.width == pixels.width, golden.height == pixels.height else {
            result.status = .failed
            result.detail = "size differs: golden \(golden.width) x \(golden.height), actual \(pixels.width) x \(pixels.height)"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        // The one comparison `layoutsnap diff` makes too: exact unless the fixture has a tolerance.
        var diffImage = [UInt32](repeating: 0, count: pixels.width * pixels.height)
        let comparison = golden.pixels.withUnsafeBufferPointer { expected in
            diffImage.withUnsafeMutableBufferPointer { out in
                FrameComparison.compare(expected: expected, actual: pixels.pixels, width: pixels.width, height: pixels.height,
                                        tolerance: fixture.tolerance, diffImage: out)
            }
        }
        guard let diff = comparison.diff else { return result }
        // The largest channel difference is over every changed pixel, not only the ones the
        // perceptual diff counts: a frame can fail on changes too faint to count.
        result.metrics = FrameMetrics(differentPixels: diff.differentPixels, ratio: diff.ratio,
                                      maxChannelDifference: comparison.exact.maxChannelDifference,
                                      regions: diff.regions.map { [$0.x, $0.y, $0.width, $0.height] },
                                      width: pixels.width, height: pixels.height)
        result.status = comparison.verdict == .different ? .failed : .similar
        result.detail = comparison.message
        result.actualPath = writePNG(pixels, to: "actual/" + key)
        result.diffPath = diffImage.withUnsafeBufferPointer { buffer in
            writePNG(FramePixels(width: pixels.width, height: pixels.height, pixels: buffer), to: "diff/" + key)
        }
        return result
    }

    /// For a fixture with any frame that is not a plain pass: its current layout.json (for
    /// `accept`), and which elements moved against the golden layout.json in each such frame.
    public func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult]) throws(RunnerError) -> FixtureNote? {
        guard frames.contains(where: { $0.status != .passed }) else { return nil }
        try? AtomicFile.write(LayoutJSON.encode(layout), to: reportDirectory + "/actual/" + GoldenPaths.layoutKey(fixture: fixture.id))
        let goldenPath = goldens + "/" + GoldenPaths.layoutKey(fixture: fixture.id)
        guard let data = FileManager.default.contents(atPath: goldenPath),
              let golden = LayoutSnapshot.parse([UInt8](data)) else { return nil }
        let now = LayoutSnapshot(layout)
        for i in frames.indices where frames[i].status != .passed {
            frames[i].layoutChanges = now.changes(from: golden, state: frames[i].state, frame: frames[i].index)
        }
        // Motion, only for the states that changed: what an animation did differently, from the
        // two layouts' tracks (no pixels).
        let changedStates = Set(frames.filter { $0.status != .passed }.map(\.state))
        var motion: [String: MotionReport] = [:]
        for state in layout.states where changedStates.contains(state.name) {
            guard let expected = golden.motion[state.name], let actual = now.motion[state.name],
                  let report = MotionAnalysis.compare(expected: expected, actual: actual) else { continue }
            motion[state.name] = report
        }
        return motion.isEmpty ? nil : .motion(motion)
    }

    /// Writes a frame into the report folder, returning its path (nil if it could not be written:
    /// the report is a help, not the verdict).
    private func writePNG(_ pixels: FramePixels, to relative: String) -> String? {
        let path = reportDirectory + "/" + relative
        let png = PNGEncoder.encode(pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        return (try? AtomicFile.write(png, to: path)) != nil ? path : nil
    }
}
