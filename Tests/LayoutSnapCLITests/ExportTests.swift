import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// `preview --export gif|mp4|webm` end to end: the files probed with ffprobe (frame count,
/// duration, size) and frames decoded back (ffmpeg's select filter, and for GIF the suite's own
/// reader) and compared with the PNG frames the preview rendered.
final class ExportTests: XCTestCase {
    static let ffmpegMissing = "ffmpeg and ffprobe are needed (apt-get install ffmpeg; bash .ci/install installs it)"

    func tools() throws -> (ffmpeg: URL, ffprobe: URL) {
        guard let ffmpeg = TestTools.find(["ffmpeg"]), let ffprobe = TestTools.find(["ffprobe"]) else {
            // CI installs ffmpeg (.ci/install): there a missing one is a failure, not a skip.
            if TestTools.required { XCTFail(Self.ffmpegMissing) }
            throw XCTSkip(Self.ffmpegMissing)
        }
        return (ffmpeg, ffprobe)
    }

    struct Probe: Equatable {
        var codec: String
        var frames: Int
        var duration: Double
        var width: Int
        var height: Int
    }

    func probe(_ file: URL, _ ffprobe: URL) throws -> Probe {
        let r = try TestProcess.run(
            ffprobe,
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,width,height,nb_read_frames:format=duration", "-of", "default=noprint_wrappers=1",
                file.path,
            ])
        XCTAssertEqual(r.status, 0, r.output)
        var values: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]) }
        }
        return Probe(
            codec: values["codec_name"] ?? "", frames: Int(values["nb_read_frames"] ?? "") ?? -1,
            duration: Double(values["duration"] ?? "") ?? -1, width: Int(values["width"] ?? "") ?? -1,
            height: Int(values["height"] ?? "") ?? -1)
    }

    /// Frame `n` of `file` as ffmpeg decodes it (`-vf select`), cut to `width` x `height`.
    func decodedFrame(_ file: URL, _ n: Int, width: Int, height: Int, _ ffmpeg: URL, into dir: TempDir) throws
        -> PixelImage
    {
        let png = dir.path("frame-\(n).png")
        let r = try TestProcess.run(
            ffmpeg,
            [
                "-v", "error", "-y", "-i", file.path, "-vf",
                "select=eq(n\\,\(n)),format=rgba,crop=\(width):\(height):0:0",
                "-frames:v", "1", "-pix_fmt", "rgba", png.path,
            ])
        XCTAssertEqual(r.status, 0, r.output)
        return try PNGDecoder.decode([UInt8](Data(contentsOf: png)))
    }

    /// The largest and the mean difference of one colour channel between two opaque images.
    func difference(_ a: PixelImage, _ b: PixelImage) -> (largest: Int, mean: Double) {
        XCTAssertEqual([a.width, a.height], [b.width, b.height])
        var largest = 0
        var total = 0
        for (p, q) in zip(a.pixels, b.pixels) {
            for shift: UInt32 in [16, 8, 0] {
                let d = abs(Int(p >> shift & 0xFF) - Int(q >> shift & 0xFF))
                largest = max(largest, d)
                total += d
            }
        }
        return (largest, Double(total) / Double(3 * max(1, a.pixels.count)))
    }

    func preview(_ arguments: [String], in dir: TempDir) throws -> (out: URL, stdout: String) {
        let out = dir.path("preview")
        let r = try CLI.run(["preview"] + arguments + ["--out", out.path])
        XCTAssertEqual(r.status, 0, r.output)
        return (out, r.stdout)
    }

    /// One state as a GIF at 20 fps: 7 frames (0.3 s, t = k / 20), each 5 hundredths, the settled
    /// last one held 1 s: 1.3 s. ffmpeg and the suite's reader decode the same pixels, each frame
    /// the rendered PNG exactly where it has at most 256 colours and within the palette's
    /// quantisation where it has more.
    func testAStateAsAGIF() throws {
        let (ffmpeg, ffprobe) = try tools()
        let dir = try TempDir()
        let file = dir.path("expand.gif")
        let (out, stdout) = try preview(
            [
                "Fixtures/posts/long-body.json", "--fps", "20", "--export", "gif", "--export-state", "01-expand",
                "--export-out", file.path,
            ], in: dir)
        let first = try PNGDecoder.decode(
            [UInt8](Data(contentsOf: out.appendingPathComponent("states/01-expand/frames/000.png"))))
        XCTAssertTrue(
            stdout.contains("export: \(file.path), 7 frames, 1.30 s, \(first.width) x \(first.height)"), stdout)
        XCTAssertEqual(
            try probe(file, ffprobe),
            Probe(codec: "gif", frames: 7, duration: 1.3, width: first.width, height: first.height))
        let gif = try GIFReader([UInt8](Data(contentsOf: file)))
        XCTAssertEqual(gif.frames.map(\.centiseconds), [5, 5, 5, 5, 5, 5, 100])
        XCTAssertEqual(gif.loops, 0)
        for k in 0..<7 {
            let rendered = try PNGDecoder.decode(
                [UInt8](Data(contentsOf: out.appendingPathComponent("states/01-expand/frames/00\(k).png"))))
            let colours = Set(rendered.pixels).count
            let d = difference(gif.images[k], rendered)
            if colours <= 256 {
                XCTAssertEqual(d.largest, 0, "frame \(k): \(colours) colours, exact")
            } else {
                // The median cut keeps the frequent colours exact and merges rare text-edge shades.
                XCTAssertLessThanOrEqual(d.largest, 16, "frame \(k): \(colours) colours")
                XCTAssertLessThan(d.mean, 0.05, "frame \(k): \(colours) colours")
            }
        }
        let byFFmpeg = try decodedFrame(file, 3, width: first.width, height: first.height, ffmpeg, into: dir)
        XCTAssertEqual(difference(byFFmpeg, gif.images[3]).largest, 0, "ffmpeg decodes what the reader does")
    }

    /// A fixture's whole sequence as MP4: `initial` (one frame, held 1 s = 60 video frames at
    /// 60 fps), the expand interrupted after 0.1 s (frames 0-5, one each), the collapse (its
    /// frames, the settled last held 60). ffprobe counts them; a frame decoded back matches the
    /// rendered PNG within H.264's loss.
    func testTheWholeSequenceAsMP4() throws {
        let (ffmpeg, ffprobe) = try tools()
        let dir = try TempDir()
        let file = dir.path("all.mp4")
        let (out, stdout) = try preview(
            ["Fixtures/posts/interrupted-collapse.json", "--export", "mp4", "--export-out", file.path], in: dir)
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("layout.json")))
            as! [String: Any]
        let counts = (layout["states"] as! [[String: Any]]).map { ($0["frames"] as! [Any]).count }
        XCTAssertEqual(counts.prefix(2), [1, 6], "the expand keeps the frames before 0.1 s")
        let total = 60 + 6 + (counts[2] - 1) + 60
        let p = try probe(file, ffprobe)
        XCTAssertEqual(p, Probe(codec: "h264", frames: total, duration: Double(total) / 60, width: 390, height: 350))
        XCTAssertTrue(stdout.contains("export: \(file.path), \(total) frames, "), stdout)
        // Collapse frame 4 is video frame 60 + 6 + 4.
        let rendered = try PNGDecoder.decode(
            [UInt8](Data(contentsOf: out.appendingPathComponent("states/02-collapse/frames/004.png"))))
        let decoded = try decodedFrame(file, 70, width: 390, height: 350, ffmpeg, into: dir)
        let d = difference(decoded, rendered)
        XCTAssertLessThan(d.mean, 2.5, "mean channel difference \(d.mean), largest \(d.largest)")
        // And not a neighbouring frame: collapse frame 0 differs more than the compression does.
        let other = try PNGDecoder.decode(
            [UInt8](Data(contentsOf: out.appendingPathComponent("states/02-collapse/frames/000.png"))))
        XCTAssertGreaterThan(difference(decoded, other).mean, d.mean * 2)
    }

    /// WebM (VP9) of one state at an odd width: the video's sides are made even by repeating the
    /// last column (the iPhone 15's 393 points at scale 1 → 394), decoded back within VP9's loss.
    func testAStateAsWebMAtAnOddWidth() throws {
        let (ffmpeg, ffprobe) = try tools()
        let dir = try TempDir()
        let file = dir.path("e.webm")
        let (out, _) = try preview(
            [
                "Fixtures/posts/long-body.json", "--fps", "20", "--device", "iphone-15", "--scale", "1", "--export",
                "webm", "--export-state", "01-expand", "--export-out", file.path,
            ], in: dir)
        let rendered = try PNGDecoder.decode(
            [UInt8](Data(contentsOf: out.appendingPathComponent("states/01-expand/frames/006.png"))))
        let p = try probe(file, ffprobe)
        XCTAssertEqual(p.codec, "vp9")
        XCTAssertEqual(p.frames, 6 + 20, "frames 0-5 one each, the settled frame 6 held 1 s at 20 fps")
        XCTAssertEqual(rendered.width, 393)
        XCTAssertEqual(p.width, 394)
        XCTAssertEqual(p.height, rendered.height + rendered.height % 2)
        let decoded = try decodedFrame(file, 10, width: rendered.width, height: rendered.height, ffmpeg, into: dir)
        XCTAssertLessThan(difference(decoded, rendered).mean, 2.5)
    }

    /// Without ffmpeg on PATH a video export stops before rendering, naming ffmpeg and how to
    /// install it; a GIF needs nothing. Runs whether or not ffmpeg is installed.
    func testAVideoExportWithoutFFmpegSaysHowToInstallIt() throws {
        let dir = try TempDir()
        let empty = dir.path("bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let r = try CLI.run(
            ["preview", "Fixtures/posts/long-body.json", "--export", "mp4", "--out", dir.path("p").path],
            environment: ["PATH": empty.path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(
            r.stderr.contains(
                "--export mp4 needs ffmpeg, which is not on PATH: install it (on Debian: apt-get install ffmpeg)"),
            r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("p/states").path), "nothing was rendered")
        let gif = try CLI.run(
            ["preview", "Fixtures/posts/long-body.json", "--export", "gif", "--out", dir.path("g").path],
            environment: ["PATH": empty.path])
        XCTAssertEqual(gif.status, 0, gif.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("g/export/all-states.gif").path))
    }

    func testExportArgumentsAreChecked() throws {
        for (arguments, message) in [
            (["--export", "avi"], "--export must be gif, mp4, webm, found \"avi\""),
            (
                ["--export-state", "01-expand"],
                "--export-state, --export-out and --export-pairing go with --export gif|mp4|webm"
            ),
            (["--export", "gif", "--export-pairing", "speed"], "--export-pairing must be time or progress"),
            (["--export", "gif", "--watch"], "--export writes one file; leave out --watch"),
            (
                ["--export", "gif", "--export-state", "02-collapse"],
                "--export-state 02-collapse: posts/long-body has no such state; it has: initial, 01-expand"
            ),
        ] {
            let dir = try TempDir()
            let r = try CLI.run(["preview", "Fixtures/posts/long-body.json", "--out", dir.path("p").path] + arguments)
            XCTAssertEqual(r.status, 2, r.output)
            XCTAssertTrue(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
    }
}
