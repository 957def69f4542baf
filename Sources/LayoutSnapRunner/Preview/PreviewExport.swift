import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapSystem

/// `preview --export gif|mp4|webm`: a state's frames, or every state's one after another, as a
/// file to hand to someone without layoutsnap. The frames are the preview's own (`frames/`, at
/// the preview's scale and fps); GIF is written here (`GIFWriter`), video by Debian's ffmpeg,
/// found on PATH when the export runs and fed raw frames through its stdin.
public struct PreviewExport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case gif, mp4, webm
    }

    public var format: Format
    /// One state, or nil for every state in order.
    public var state: String?
    /// Where the file goes; nil: `OUT/export/<state or "all-states">.<format>` (`-compared`
    /// before the extension for a comparison).
    public var path: String?
    /// Exporting a comparison: B's frames beside A's.
    var compared = false
    /// A comparison's frames side by side at the same time, or at the same progress of the
    /// motion (`PreviewPairing`, as the page scrubs them).
    public var pairing: Pairing = .time

    public enum Pairing: String, Sendable, CaseIterable {
        case time, progress
    }

    public init(format: Format, state: String? = nil, path: String? = nil, pairing: Pairing = .time) {
        self.format = format
        self.state = state
        self.path = path
        self.pairing = pairing
    }

    /// What was written: for the terminal, and checked by the tests against ffprobe.
    public struct Written: Sendable, Equatable {
        public var path: String
        public var frames: Int
        public var seconds: Double
        public var width: Int
        public var height: Int

        /// `export: OUT/export/all-states.gif, 47 frames, 2.83 s, 393 x 852`.
        public var summary: String {
            "export: \(path), \(Plural.count(frames, "frame")), \(String(format: "%.2f", seconds)) s, \(width) x \(height)"
        }
    }

    /// The states exported, checked before anything is rendered (a state name the fixture lacks
    /// is a usage error naming the ones it has).
    func states(of layout: FixtureLayout) throws(RunnerError) -> [StateLayout] {
        guard let state else { return layout.states }
        guard let found = layout.states.first(where: { $0.name == state }) else {
            throw RunnerError.usage(
                "--export-state \(state): \(layout.fixtureID) has no such state; it has: \(layout.states.map(\.name).joined(separator: ", "))"
            )
        }
        return [found]
    }

    /// ffmpeg's path for a video format, nil for GIF; a missing ffmpeg is an error saying how to
    /// install it, before anything is rendered.
    func encoder() throws(RunnerError) -> String? {
        guard format != .gif else { return nil }
        guard let ffmpeg = ResourceLocator.onPath("ffmpeg") else {
            throw RunnerError.environment(
                "--export \(format.rawValue) needs ffmpeg, which is not on PATH: install it (on Debian: apt-get install ffmpeg), or export a gif, which needs nothing"
            )
        }
        return ffmpeg
    }

    /// The export's file, its folder made.
    func outputPath(previewFolder: String) throws(RunnerError) -> String {
        let file =
            path ?? "\(previewFolder)/export/\(state ?? "all-states")\(compared ? "-compared" : "").\(format.rawValue)"
        let folder = (file as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw RunnerError.write("cannot create \(folder): \(error.localizedDescription)")
            }
        }
        return file
    }

    /// Writes the export of `shown` from the frames under `statesFolder`
    /// (`<state>/frames/NNN.png`); a comparison's (`besideFolder`, B's states folder, and B's
    /// frame size) with B's frame to the right of each of A's.
    func write(
        _ shown: [ExportTimeline.Frame], fps: Double, statesFolder: String, previewFolder: String, ffmpeg: String?,
        beside: (folder: String, width: Int, height: Int)? = nil
    ) throws(RunnerError) -> Written {
        let file = try outputPath(previewFolder: previewFolder)
        func read(_ folder: String, _ state: String, _ index: Int) throws(RunnerError) -> PixelImage {
            let path = "\(folder)/\(state)/frames/\(GoldenStore.frameName(index))"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RunnerError.environment("cannot read the preview's frame \(path)")
            }
            do { return try PNGDecoder.decode([UInt8](data)) } catch {
                throw RunnerError.environment("cannot decode the preview's frame \(path): \(error)")
            }
        }
        func image(_ frame: ExportTimeline.Frame) throws(RunnerError) -> PixelImage {
            let a = try read(statesFolder, frame.state, frame.index)
            guard let beside else { return a }
            let b = try frame.beside.map { (f) throws(RunnerError) in try read(beside.folder, f.state, f.index) }
            return Self.sideBySide(a, b, width: beside.width, height: beside.height)
        }
        var size = (width: 0, height: 0)
        var count = 0
        var hundredths = 0
        if let ffmpeg {
            let repeats = ExportTimeline.videoFrames(shown, fps: fps)
            let first = try image(repeats[0].frame)
            size = (first.width, first.height)
            let child = try FeedingChild(
                ffmpeg, videoArguments(width: size.width, height: size.height, fps: fps, to: file))
            for (k, (frame, times)) in repeats.enumerated() {
                let pixels = k == 0 ? first : try image(frame)
                let failed = pixels.pixels.withUnsafeBytes { bytes -> RunnerError? in
                    for _ in 0..<times {
                        do throws(RunnerError) { try child.write(bytes) } catch { return error }
                    }
                    return nil
                }
                if let failed { throw failed }
                count += times
            }
            try child.finish()
        } else {
            var gif: GIFWriter?
            let delays = ExportTimeline.gifFrames(shown)
            for (frame, centiseconds) in delays {
                let pixels = try image(frame)
                if gif == nil {
                    gif = GIFWriter(width: pixels.width, height: pixels.height)
                    size = (pixels.width, pixels.height)
                }
                pixels.pixels.withUnsafeBufferPointer {
                    gif!.add($0.baseAddress!, stride: pixels.width, centiseconds: centiseconds)
                }
            }
            count = gif!.frameCount
            hundredths = delays.reduce(0) { $0 + $1.centiseconds }
            try AtomicFile.write(gif!.finish(), to: file, durable: false)
        }
        // Video frames have even sides (4:2:0 chroma): an odd side gains one pixel, a copy of
        // its neighbour.
        if format != .gif { size = (size.width + size.width % 2, size.height + size.height % 2) }
        let seconds = format == .gif ? Double(hundredths) / 100 : Double(count) / fps
        return Written(path: file, frames: count, seconds: seconds, width: size.width, height: size.height)
    }

    /// Between the two sides of a comparison, in pixels.
    static let gutter = 8

    /// A's frame at the left and B's (`width` x `height`; blank when B has no frame there) to its
    /// right after the gutter, top-aligned as the page's side by side, on light gray.
    static func sideBySide(_ a: PixelImage, _ b: PixelImage?, width: Int, height: Int) -> PixelImage {
        let w = a.width + gutter + width
        let h = max(a.height, height)
        var pixels = [UInt32](repeating: 0xFFD1_D1D6, count: w * h)
        for (image, left) in [(a, 0), (b, a.width + gutter)] {
            guard let image else { continue }
            for y in 0..<image.height {
                pixels.replaceSubrange(
                    (y * w + left)..<(y * w + left + image.width),
                    with: image.pixels[(y * image.width)..<((y + 1) * image.width)])
            }
        }
        return PixelImage(width: w, height: h, pixels: pixels)
    }

    /// ffmpeg reading raw premultiplied ARGB32 words (bgra in memory; the frames are opaque) at
    /// `fps`, padding an odd side by repeating the last row or column, in BT.709 4:2:0 as players
    /// expect: H.264 in MP4 (`+faststart`, so it plays while downloading) or VP9 in WebM.
    func videoArguments(width: Int, height: Int, fps: Double, to file: String) -> [String] {
        let rate = String(fps)
        var filters = "pad=\(width + width % 2):\(height + height % 2)"
        if width % 2 + height % 2 > 0 {
            filters += ",fillborders=right=\(width % 2):bottom=\(height % 2):mode=smear"
        }
        filters += ",scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
        let input = [
            "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pixel_format", "bgra", "-video_size",
            "\(width)x\(height)", "-framerate", rate, "-i", "pipe:0", "-vf", filters, "-r", rate,
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
            "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
        ]
        let codec =
            format == .mp4
            ? ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-movflags", "+faststart"]
            : ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-deadline", "good", "-cpu-used", "4", "-row-mt", "1"]
        return input + codec + [file]
    }
}

/// When each exported frame shows, and for how long (docs/commands.md "preview").
public enum ExportTimeline {
    public struct Frame: Sendable, Equatable {
        public var state: String
        public var index: Int
        public var seconds: Double
        /// The state's last frame: kept when a GIF merges frames too short for it.
        public var endsState: Bool
        /// Exporting a comparison: side B's frame shown beside this one (its state and index),
        /// nil when B has none there.
        public var beside: Beside?

        public struct Beside: Sendable, Equatable {
            public var state: String
            public var index: Int
        }

        public init(state: String, index: Int, seconds: Double, endsState: Bool, beside: Beside? = nil) {
            self.state = state
            self.index = index
            self.seconds = seconds
            self.endsState = endsState
            self.beside = beside
        }
    }

    /// The states' frames in order, each until the next one's time; a state's last frame holds
    /// for `hold` seconds when the state settled, and for one frame (1 / fps) when the next step
    /// interrupted it, so an interrupted motion runs on into the next without a pause.
    public static func frames(_ states: [StateLayout], fps: Double, hold: Double) -> [Frame] {
        states.flatMap { state in
            state.frames.indices.map { k in
                let last = k == state.frames.count - 1
                let seconds =
                    last ? (state.interrupted ? 1 / fps : hold) : state.frames[k + 1].time - state.frames[k].time
                return Frame(state: state.name, index: state.frames[k].index, seconds: seconds, endsState: last)
            }
        }
    }

    /// A comparison's frames: each of A's states in turn as `frames` has them, each of A's frames
    /// with B's paired by time or by progress (`PreviewPairing`); when B runs on after A's last
    /// frame, A's last frame shows again beside each of B's later ones, and the hold comes after
    /// B's end.
    public static func compared(
        _ states: [StateLayout], with other: [StateLayout], pairing: PreviewPairing, fps: Double, hold: Double,
        by: PreviewExport.Pairing = .time
    ) -> [Frame] {
        zip(states, pairing.states).flatMap { state, view in
            let times = state.frames.map(\.time) + view.tail
            return times.indices.map { k in
                let last = k == times.count - 1
                let seconds = last ? (state.interrupted && view.tail.isEmpty ? 1 / fps : hold) : times[k + 1] - times[k]
                let frame = state.frames[min(k, state.frames.count - 1)]
                let beside = view.state.flatMap { j in
                    (by == .time ? view.byTime : view.byProgress)[k].map {
                        Frame.Beside(state: other[j].name, index: other[j].frames[$0].index)
                    }
                }
                return Frame(state: state.name, index: frame.index, seconds: seconds, endsState: last, beside: beside)
            }
        }
    }

    /// A GIF's delay is whole hundredths of a second, and browsers show a delay under two
    /// hundredths as ten: a frame shorter than 0.02 s gives its time to its neighbour (the next
    /// one merges into it, or, when the next ends its state, it merges into that one), so above
    /// 50 fps a GIF keeps about every second frame, each state's last frame always. Delays are
    /// rounded on the running total, so the whole lasts what the frames do.
    public static func gifFrames(_ frames: [Frame]) -> [(frame: Frame, centiseconds: Int)] {
        var kept: [Frame] = []
        for frame in frames {
            guard let last = kept.last, last.seconds < 0.02 - 1e-9 else {
                kept.append(frame)
                continue
            }
            if frame.endsState && !last.endsState {
                var replacing = frame
                replacing.seconds += last.seconds
                kept[kept.count - 1] = replacing
            } else {
                kept[kept.count - 1].seconds += frame.seconds
            }
        }
        var start = 0.0
        return kept.map { frame in
            let from = (start * 100).rounded()
            start += frame.seconds
            return (frame, max(1, Int((start * 100).rounded() - from)))
        }
    }

    /// How many video frames at `fps` each frame fills, rounded on the running total (a held
    /// frame fills `hold x fps`); frames that fill none are left out.
    public static func videoFrames(_ frames: [Frame], fps: Double) -> [(frame: Frame, times: Int)] {
        var start = 0.0
        return frames.compactMap { frame in
            let from = (start * fps).rounded()
            start += frame.seconds
            let times = Int((start * fps).rounded() - from)
            return times > 0 ? (frame, times) : nil
        }
    }
}
