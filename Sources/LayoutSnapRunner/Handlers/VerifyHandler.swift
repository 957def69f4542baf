import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender

/// Compares frames with goldens. Fast path: the pixel hash of the rendered frame equals the
/// manifest's and the golden file's bytes still hash to the manifest's file hash, so no PNG is
/// decoded. Otherwise the golden is decoded and compared pixel by pixel. Never writes goldens;
/// failing frames are written to the report folder for inspection.
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
        guard let data = FileManager.default.contents(atPath: path) else {
            result.status = .missing
            result.detail = FileManager.default.fileExists(atPath: path) ? "golden cannot be read" : "no golden"
            result.actualPath = writeActual(key: key, pixels: pixels)
            return result
        }
        let bytes = [UInt8](data)
        let rendered = pixels.hash
        if let entry = manifest?.frames[key],
           entry.pixels == PixelHash.hex(rendered),
           entry.file == bytes.withUnsafeBytes({ PixelHash.hex(PixelHash.ofBytes($0)) }) {
            return result
        }
        let golden: PixelImage
        do {
            golden = try PNGDecoder.decode(bytes, maxPixels: Limits.maxGoldenPixels)
        } catch {
            result.status = .unreadable
            result.detail = "unreadable golden \(key): \(error.description)"
            result.actualPath = writeActual(key: key, pixels: pixels)
            return result
        }
        guard golden.width == pixels.width, golden.height == pixels.height else {
            result.status = .failed
            result.detail = "size differs: golden \(golden.width) x \(golden.height), actual \(pixels.width) x \(pixels.height)"
            result.actualPath = writeActual(key: key, pixels: pixels)
            return result
        }
        let differing = golden.pixels.withUnsafeBufferPointer { ExactDiff.count($0, pixels.pixels) }
        if differing > 0 {
            result.status = .failed
            result.differentPixels = differing
            result.detail = "\(differing) pixels differ"
            result.actualPath = writeActual(key: key, pixels: pixels)
        }
        return result
    }

    /// The actual frame, written so the user can look at what changed.
    private func writeActual(key: String, pixels: FramePixels) -> String? {
        let path = reportDirectory + "/actual/" + key
        let png = PNGEncoder.encode(pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        return (try? AtomicFile.write(png, to: path)) != nil ? path : nil
    }
}

/// Exact comparison: the number of pixels whose premultiplied ARGB words differ.
public enum ExactDiff {
    public static func count(_ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>) -> Int {
        precondition(a.count == b.count)
        if memcmp(a.baseAddress!, b.baseAddress!, a.count * 4) == 0 { return 0 }
        var n = 0
        for i in 0..<a.count where a[i] != b[i] { n += 1 }
        return n
    }
}
