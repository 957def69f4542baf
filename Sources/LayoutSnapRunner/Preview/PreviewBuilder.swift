import Foundation
import LayoutSnapSystem
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapReport
import LayoutSnapJSON

/// `layoutsnap preview`: one fixture's frames for a designer, per state a filmstrip contact sheet,
/// an animated PNG at the real frame timing and the frames themselves, plus a page with a scrubber
/// and overlays of the layout's geometry.
///
/// Output, all of it replaced on every build:
/// ```
/// OUT/index.html                         the page (self-contained; opens from disk)
/// OUT/layout.json                        the layout JSON (docs/commands.md "render, layout") with the overrides applied
/// OUT/build.js                           the build's id, polled by the page under --watch
/// OUT/states/<state>/animation.png       APNG, every frame at its real duration, looping
/// OUT/states/<state>/filmstrip.png       contact sheet (filmstrip-2.png, ... for long states)
/// OUT/states/<state>/frames/<NNN>.png    every frame, for the scrubber
/// OUT/states/<state>/zoom/<NNN>.png      with --zoom N: every frame at N times the scale
/// OUT/states/<state>/pixels/<NNN>.js     each frame's PNG as a script, for the page's pixel loupe
/// OUT/states/timeline/filmstrip.png      contact sheet of the whole timeline (filmstrip-2.png, ...)
/// OUT/compare/                           with --compare ...: side B's preview (PreviewComparison)
/// ```
/// The layout is computed once; states are rendered in parallel, each on its own text engine.
/// Files are renamed into place but not fsynced: a preview is made again by running it again.
public struct PreviewBuilder: Sendable {
    public var ref: FixtureRef
    public var output: String
    public var overrides: FixtureOverrides
    /// `--overlay`: draw the overlays into the contact sheets and animations too (the page always
    /// has them, as switches).
    public var bakeOverlay: Bool
    /// `--watch`: the page reloads itself when a new build lands.
    public var watching: Bool
    public var jobs: Int
    /// `--against GOLDENS`: the goldens folder whose layout.json of this fixture is plotted
    /// under each track, so a designer sees how the easing changed.
    public var against: String?
    /// `--export gif|mp4|webm`: also write a state, or every state in turn, as one file.
    public var export: PreviewExport?
    /// `--zoom N`: every frame also rendered at N times the device scale, for the page's zoom
    /// (re-rendered, so a corner or the caret shows its real detail, not enlarged pixels).
    public var zoom: Int?
    /// `--compare ...`: the other side, shown beside or over this one and scrubbed with it.
    public var compare: PreviewComparison?
    /// How the page's comparison names this side (the CLI says what it is: the fixture and its
    /// options).
    public var compareLabel = ""

    /// The most pixels a zoomed frame may have: 8x of a 390 x 650 pt card at scale 1 (and one
    /// frame's surface, 4 bytes a pixel, stays under 100 MB on each worker).
    public static let maxZoomedPixels = 16_300_000

    /// How long a settled state's last frame shows before the animation loops: it is the settled
    /// view, which has no duration of its own. An interrupted state's last frame is mid-motion:
    /// it shows for one frame, so it never reads as settled.
    public static let holdLastFrame = 1.0

    public init(
        ref: FixtureRef, output: String, overrides: FixtureOverrides = FixtureOverrides(),
        bakeOverlay: Bool = false, watching: Bool = false, jobs: Int = BatchRunner.defaultJobs, against: String? = nil,
        export: PreviewExport? = nil, zoom: Int? = nil
    ) {
        self.export = export
        self.zoom = zoom
        self.ref = ref
        self.output = output
        self.overrides = overrides
        self.bakeOverlay = bakeOverlay
        self.watching = watching
        self.jobs = max(1, jobs)
        self.against = against
    }

    /// At most this many plots per state (a long chat moves hundreds of bubbles).
    public static let maxPlotsPerState = 120

    /// The golden layout of `--against`, read before anything is rendered: a wrong folder is a
    /// usage error, not a page without its plots.
    func goldenMotion() throws(RunnerError) -> [String: StateMotion]? {
        guard let against else { return nil }
        let path = against + "/" + GoldenStore.layoutKey(fixture: ref.id)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunnerError.usage(
                "--against \(against): \(path) cannot be read (record \(ref.id) into \(against) first)")
        }
        guard let snapshot = LayoutSnapshot.parse([UInt8](data)) else {
            throw RunnerError.usage("--against \(against): \(path) is not a layout.json layoutsnap wrote")
        }
        return snapshot.motion
    }

    /// The tracks to plot for one state: every one that varies over its frames, now or in the
    /// golden, in the order elements first appear, then x, y, width, height, then the rest.
    static func plotted(_ state: StateLayout, now: StateMotion, golden: StateMotion?) -> [String] {
        func varies(_ values: [Double?]?) -> Bool {
            guard let values, let first = values.first else { return false }
            return values.contains { $0 != first }
        }
        var order: [String: Int] = [:]
        for frame in state.frames { for e in frame.elements where order[e.id] == nil { order[e.id] = order.count } }
        let properties = ["x": 0, "y": 1, "width": 2, "height": 3]
        let keys = Set(now.tracks.keys).union(golden?.tracks.keys ?? [:].keys).filter {
            varies(now.tracks[$0]) || varies(golden?.tracks[$0])
        }
        return keys.sorted { a, b in
            let ea = String(a[..<(a.lastIndex(of: ".") ?? a.endIndex)])
            let eb = String(b[..<(b.lastIndex(of: ".") ?? b.endIndex)])
            let pa = String(a[a.index(after: a.lastIndex(of: ".") ?? a.startIndex)...])
            let pb = String(b[b.index(after: b.lastIndex(of: ".") ?? b.startIndex)...])
            let oa = order[ea] ?? Int.max
            let ob = order[eb] ?? Int.max
            if oa != ob { return oa < ob }
            if ea != eb { return ea < eb }
            let qa = properties[pa] ?? 4
            let qb = properties[pb] ?? 4
            return qa != qb ? qa < qb : pa < pb
        }
    }

    public struct Summary: Sendable {
        public var states = 0
        public var frames = 0
        public var page = ""
        /// Files the fixture reads (itself and its images): what `--watch` looks at.
        public var inputs: [String] = []
        /// Each state that moves on the fixture's curve, and how long it runs: `01-expand:
        /// spring(response: 0.55, dampingFraction: 1) settles in 0.583 s`.
        public var motions: [String] = []
        /// What `--export` wrote.
        public var exported: PreviewExport.Written?
        /// The layout the frames were drawn from: what `preview --serve` draws zoomed regions of.
        public var layout: FixtureLayout?
        /// Side B's, when B is a fixture (goldens are pictures, not a layout).
        public var comparedLayout: FixtureLayout?
    }

    public func build() throws(RunnerError) -> Summary {
        try OutputPaths.folder(output, option: "--out")
        // The other side first: an option refused there stops the build before A is rendered.
        guard let compare else { return try buildSide(comparedWith: nil).summary }
        let b: Side
        switch compare.source {
        case .fixture(let otherRef, let otherOverrides):
            var other = PreviewBuilder(
                ref: otherRef, output: output + "/" + PreviewComparison.folder, overrides: otherOverrides,
                bakeOverlay: bakeOverlay, jobs: jobs, zoom: zoom)
            other.compareLabel = compare.label
            b = try other.buildSide(comparedWith: nil)
        case .goldens(let folder):
            b = try goldenSide(folder, label: compare.label)
        }
        var built = try buildSide(comparedWith: b)
        built.summary.inputs += b.summary.inputs.filter { !built.summary.inputs.contains($0) }
        built.summary.comparedLayout = b.summary.layout
        return built.summary
    }

    /// One side's build: its summary, and what the other side's page needs of it.
    struct Side {
        var summary: Summary
        var data: JSONOutput
        var states: [StateLayout]
        var canvas: Canvas
        var label: String
    }

    func buildSide(comparedWith other: Side?) throws(RunnerError) -> Side {
        // The page's stylesheet and script, before any frame is rendered (a broken installation).
        do { try PreviewPage.checkResources() } catch { throw RunnerError.environment("\(error)") }
        let golden = try goldenMotion()
        let fonts: FontSystem
        let engine: TextEngine
        do {
            fonts = try FontSystem.shared()
            engine = try TextEngine(fonts: fonts)
        } catch {
            throw RunnerError.render(error)
        }
        var summary = Summary()
        summary.inputs = [ref.path]
        let (fixture, layout) = try LayoutComputation.decodeAndLayout(ref, overrides: overrides, measurer: engine)
        summary.inputs += fixture.content.inputFiles.map(\.path)
        // The export's state and encoder, before anything is rendered.
        if let zoom {
            let pixels = fixture.canvas.pixelWidth * fixture.canvas.pixelHeight * zoom * zoom
            if pixels > Self.maxZoomedPixels {
                let most = Int((Double(Self.maxZoomedPixels) / Double(pixels / (zoom * zoom))).squareRoot())
                throw RunnerError.usage(
                    "--zoom \(zoom) of a \(fixture.canvas.pixelWidth) x \(fixture.canvas.pixelHeight) px canvas makes frames of \(pixels) pixels, more than \(Self.maxZoomedPixels): "
                        + (most >= 2 ? "use --zoom \(most) or less" : "lower --scale"))
            }
        }
        let exported = try export.map { (e) throws(RunnerError) in
            (states: try e.states(of: layout), ffmpeg: try e.encoder())
        }

        // A fresh states folder beside the old one, swapped in at the end: a page open in a
        // browser never sees half a build.
        let fm = FileManager.default
        let statesDir = output + "/states"
        let staging = output + "/.states-new"
        let retired = output + "/.states-old"
        try? fm.removeItem(atPath: staging)
        try? fm.removeItem(atPath: retired)
        do {
            try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
        } catch {
            throw RunnerError.write("cannot create \(staging): \(error.localizedDescription)")
        }

        let results = WorkerThreads.map(count: layout.states.count, jobs: jobs) {
            index -> Result<StatePreview, RunnerError> in
            Result { () throws(RunnerError) in
                try renderState(layout.states[index], fixture: fixture, fonts: fonts, into: staging)
            }
        }
        var states: [StatePreview] = []
        for result in results {
            switch result {
            case .success(let state): states.append(state)
            case .failure(let error):
                try? fm.removeItem(atPath: staging)
                throw error
            }
        }

        let timelineSheets: [String]
        do {
            timelineSheets = try writeTimelineFilmstrip(layout, fixture: fixture, engine: engine, into: staging)
        } catch {
            try? fm.removeItem(atPath: staging)
            throw error
        }

        if fm.fileExists(atPath: statesDir) {
            do throws(SystemError) { try Posix.rename(statesDir, retired) } catch {
                throw RunnerError.write("cannot replace \(statesDir): \(error.reason)")
            }
        }
        do throws(SystemError) { try Posix.rename(staging, statesDir) } catch {
            throw RunnerError.write("cannot move the new frames to \(statesDir): \(error.reason)")
        }
        try? fm.removeItem(atPath: retired)

        var data = pageData(
            fixture: fixture, layout: layout, states: states, golden: golden, timelineFilmstrips: timelineSheets)
        let pairing = other.map {
            PreviewPairing(
                a: PreviewPairing.Side(layout.states, hold: Self.holdLastFrame),
                b: PreviewPairing.Side($0.states, hold: Self.holdLastFrame))
        }
        if let other, let pairing, case .object(var members) = data {
            members.append(
                (
                    "compare",
                    .object([
                        ("a", .string(compareLabel)), ("b", .string(other.label)),
                        ("folder", .string(PreviewComparison.folder)),
                        ("sameCanvas", .bool(other.canvas == fixture.canvas)),
                        // preview --serve can draw B's regions too (not the goldens').
                        ("rendered", .bool(other.summary.layout != nil)),
                        ("pairs", pairing.json),
                        ("motion", Self.comparedMotion(a: layout.states, b: other.states, pairing: pairing)),
                        ("data", other.data),
                    ])
                ))
            data = .object(members)
        }
        // Times keep their precision (the readout shows 116.7 ms); the page rounds what it shows.
        let dataBytes = JSONWriter(style: .compact, roundingTo: 0.0001).bytes(data)
        let buildID = PixelHash.hex(dataBytes.withUnsafeBytes { PixelHash.ofBytes($0) })
        try AtomicFile.write(LayoutJSON.encode(layout), to: output + "/layout.json", durable: false)
        let page: String
        do {
            page = try PreviewPage.html(
                title: "\(fixture.id) · layoutsnap preview", dataJSON: String(decoding: dataBytes, as: UTF8.self),
                buildID: buildID, watching: watching)
        } catch {
            throw RunnerError.environment("\(error)")
        }
        try AtomicFile.write(Array(page.utf8), to: output + "/index.html", durable: false)
        try AtomicFile.write(Array("layoutsnapBuild(\"\(buildID)\");\n".utf8), to: output + "/build.js", durable: false)

        if var export, let exported {
            var shown = ExportTimeline.frames(exported.states, fps: fixture.fps, hold: Self.holdLastFrame)
            var beside: (folder: String, width: Int, height: Int)?
            if let other, let pairing {
                // The exported states and their pairs: all of them, or the one --export-state names.
                let chosen = zip(layout.states, pairing.states).filter { s, _ in
                    exported.states.contains { $0.name == s.name }
                }
                var only = pairing
                only.states = chosen.map(\.1)
                shown = ExportTimeline.compared(
                    chosen.map(\.0), with: other.states, pairing: only, fps: fixture.fps, hold: Self.holdLastFrame,
                    by: export.pairing)
                beside = (
                    output + "/" + PreviewComparison.folder + "/states", other.canvas.pixelWidth,
                    other.canvas.pixelHeight
                )
                export.compared = true
            }
            summary.exported = try export.write(
                shown, fps: fixture.fps, statesFolder: statesDir, previewFolder: output, ffmpeg: exported.ffmpeg,
                beside: beside)
        }
        summary.states = layout.states.count
        summary.motions = layout.states.compactMap { s in s.motion.map { "\(s.name): \($0.summary)" } }
        summary.frames = layout.frameCount
        summary.page = output + "/index.html"
        summary.layout = layout
        return Side(summary: summary, data: data, states: layout.states, canvas: fixture.canvas, label: compareLabel)
    }

    /// `--watch` after an edit that cannot be previewed: tells the open page (which polls
    /// build.js) the error, and it shows it over the last good frames, dimmed. The frames and the
    /// page stay; the next good build replaces build.js again.
    public func writeFailure(_ message: String) throws(RunnerError) {
        guard FileManager.default.fileExists(atPath: output + "/index.html") else { return }
        let id = PixelHash.hex(Array(message.utf8).withUnsafeBytes { PixelHash.ofBytes($0) })
        let text = String(decoding: JSONWriter(style: .compact).bytes(.string(message)), as: UTF8.self)
        try AtomicFile.write(
            Array("layoutsnapBuild(\"\(id)\", \(text));\n".utf8), to: output + "/build.js", durable: false)
    }

    /// The timeline (`PreviewTimeline`) with its moving tracks over all the states, on the
    /// timeline's clock: a track a state lacks is a gap.
    func timelineJSON(_ states: [StateLayout], filmstrips: [String]) -> JSONOutput {
        let timeline = PreviewTimeline(states, hold: Self.holdLastFrame)
        guard case .object(var members) = timeline.json else { return .null }
        members.append(("filmstrips", .array(filmstrips.map { .string($0) })))
        let all = StateLayout(name: "timeline", frames: states.flatMap(\.frames))
        members.append(
            ("motion", Self.motionJSON(all, times: timeline.segments.flatMap(\.frameTimes), golden: nil, name: nil)))
        return .object(members)
    }

    /// The plotted tracks of `state`'s frames at `times`, with the golden's of the state `name`
    /// when there are goldens: keys (at most maxPlotsPerState), how many more, and the series.
    static func motionJSON(_ state: StateLayout, times: [Double], golden: [String: StateMotion]?, name: String?)
        -> JSONOutput
    {
        var now = StateMotion(state.frames)
        now.times = times
        let before = name.flatMap { golden?[$0] }
        let moving = plotted(state, now: now, golden: before)
        let keys = Array(moving.prefix(maxPlotsPerState))
        var motion: [(String, JSONOutput)] = [
            ("keys", .array(keys.map { .string($0) })),
            ("more", .number(Double(moving.count - keys.count))),
            ("now", series(now, keys: keys)),
        ]
        if golden != nil { motion.append(("golden", before.map { series($0, keys: keys) } ?? .null)) }
        return .object(motion)
    }

    /// A motion's times and its values of `keys`, as the page plots them.
    static func series(_ m: StateMotion, keys: [String]) -> JSONOutput {
        .object([
            ("times", .array(m.times.map { .number($0) })),
            (
                "tracks",
                .object(
                    keys.compactMap { key in
                        m.tracks[key].map { (key, .array($0.map { $0.map(JSONOutput.number) ?? .null })) }
                    })
            ),
        ])
    }

    /// Side B's tracks for each of A's views (the timeline, then each state with B's paired
    /// state): every track that moves on either side, so a track that moves in A and stands
    /// still in B is drawn flat rather than left out.
    static func comparedMotion(a: [StateLayout], b: [StateLayout], pairing: PreviewPairing) -> JSONOutput {
        func view(_ mine: StateLayout, times: [Double], _ other: StateLayout, otherTimes: [Double]) -> JSONOutput {
            var now = StateMotion(mine.frames)
            now.times = times
            var theirs = StateMotion(other.frames)
            theirs.times = otherTimes
            let keys = Array(plotted(mine, now: now, golden: theirs).prefix(maxPlotsPerState))
            return .object([("keys", .array(keys.map { .string($0) })), ("now", series(theirs, keys: keys))])
        }
        let hold = holdLastFrame
        let timeline = view(
            StateLayout(name: "timeline", frames: a.flatMap(\.frames)),
            times: PreviewTimeline(a, hold: hold).segments.flatMap(\.frameTimes),
            StateLayout(name: "timeline", frames: b.flatMap(\.frames)),
            otherTimes: PreviewTimeline(b, hold: hold).segments.flatMap(\.frameTimes))
        let states = zip(a, pairing.states).map { state, paired -> JSONOutput in
            guard let j = paired.state else { return .null }
            return view(state, times: state.frames.map(\.time), b[j], otherTimes: b[j].frames.map(\.time))
        }
        return .object([("timeline", timeline), ("states", .array(states))])
    }

    /// The whole timeline as one contact sheet, `states/timeline/filmstrip.png` (and
    /// `filmstrip-2.png`, ...; "timeline" is no state's name), each cell labelled with its state,
    /// frame and time on the timeline: the frames written by the states' workers, read back in
    /// the timeline's order. Returns the sheets' paths as the page names them.
    func writeTimelineFilmstrip(_ layout: FixtureLayout, fixture: Fixture, engine: TextEngine, into staging: String)
        throws(RunnerError) -> [String]
    {
        let timeline = PreviewTimeline(layout.states, hold: Self.holdLastFrame)
        let canvas = fixture.canvas
        var sheets: [String] = []
        do {
            let sheet = ContactSheet(
                title:
                    "\(fixture.id) · timeline · \(Plural.count(layout.frameCount, "frame")) in \(String(format: "%.3f", timeline.end)) s",
                frameWidth: canvas.pixelWidth, frameHeight: canvas.pixelHeight, frameCount: layout.frameCount,
                engine: engine)
            for (state, segment) in zip(layout.states, timeline.segments) {
                for (frame, time) in zip(state.frames, segment.frameTimes) {
                    let path = "\(staging)/\(state.name)/frames/\(GoldenStore.frameName(frame.index))"
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw RunnerError.environment("cannot read the preview's frame \(path)")
                    }
                    let image = try PNGDecoder.decode([UInt8](data))
                    try image.pixels.withUnsafeBufferPointer { words in
                        let label = "\(state.name) #\(frame.index) · \(String(format: "%.1f", time * 1000)) ms"
                        try sheet.add(
                            FramePixels(width: image.width, height: image.height, pixels: words), label: label
                        ) {
                            page, sheetPixels in
                            let name = page == 1 ? "filmstrip.png" : "filmstrip-\(page).png"
                            try Self.writePNG(sheetPixels, to: "\(staging)/timeline/\(name)")
                            sheets.append("states/timeline/\(name)")
                        }
                    }
                }
            }
        } catch let error as RunnerError {
            throw error
        } catch {
            throw RunnerError.environment("cannot draw the timeline's filmstrip: \(error)")
        }
        return sheets
    }

    /// What the page needs of one rendered state.
    struct StatePreview: Sendable {
        var filmstrips: [String]
        var overlays: [FrameOverlay]
    }

    private func renderState(_ state: StateLayout, fixture: Fixture, fonts: FontSystem, into staging: String)
        throws(RunnerError) -> StatePreview
    {
        let dir = staging + "/" + state.name
        do {
            let engine = try TextEngine(fonts: fonts)
            let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
            // The same layout drawn at N times the scale (text is laid out once, in points).
            let zoomRenderer = try zoom.map { (n) throws(RenderError) in
                try FrameRenderer(
                    canvas: Canvas(
                        width: fixture.canvas.width, height: fixture.canvas.height,
                        scale: fixture.canvas.scale * Double(n)), engine: engine)
            }
            let canvas = fixture.canvas
            var apng = APNGWriter(width: canvas.pixelWidth, height: canvas.pixelHeight, frameCount: state.frames.count)
            let sheet = ContactSheet(
                title:
                    "\(fixture.id) · \(state.name) · \(Plural.count(state.frames.count, "frame")) at \(Self.number(fixture.fps)) fps",
                frameWidth: canvas.pixelWidth, frameHeight: canvas.pixelHeight,
                frameCount: state.frames.count, engine: engine)
            var preview = StatePreview(filmstrips: [], overlays: [])
            // As the exports: the settled last frame holds, an interrupted one does not.
            let delays = ExportTimeline.frames([state], fps: fixture.fps, hold: Self.holdLastFrame)
            for (k, frame) in state.frames.enumerated() {
                let overlay = try FrameOverlay(frame: frame, measurer: engine)
                preview.overlays.append(overlay)
                var pixels = try renderer.render(frame)
                let png = try Self.writePNG(pixels, to: "\(dir)/frames/\(GoldenStore.frameName(frame.index))")
                try Self.writePixelsScript(png, state: state.name, index: frame.index, into: staging)
                if let zoomRenderer {
                    try Self.writePNG(
                        zoomRenderer.render(frame), to: "\(dir)/zoom/\(GoldenStore.frameName(frame.index))")
                }
                if bakeOverlay {
                    pixels = try renderer.paintOver(overlay.drawOps(scale: canvas.scale))
                }
                apng.add(pixels.pixels.baseAddress!, stride: pixels.width, delay: delays[k].seconds)
                try sheet.add(pixels, label: Self.label(frame)) { page, sheetPixels in
                    let name = page == 1 ? "filmstrip.png" : "filmstrip-\(page).png"
                    try Self.writePNG(sheetPixels, to: "\(dir)/\(name)")
                    preview.filmstrips.append("states/\(state.name)/\(name)")
                }
            }
            try AtomicFile.write(apng.finish(), to: "\(dir)/animation.png", durable: false)
            return preview
        } catch let error as RunnerError {
            throw error
        } catch {
            throw RunnerError.fixture(.fixtureStage(error, ref: ref, fixture: fixture))
        }
    }

    /// A rendered image as a PNG, renamed into place but not fsynced (a preview is made again by
    /// running it again).
    @discardableResult
    static func writePNG(_ image: FramePixels, to path: String) throws(RunnerError) -> [UInt8] {
        let png = PNGEncoder.encode(
            pixels: image.pixels.baseAddress!, width: image.width, height: image.height, stride: image.width)
        try AtomicFile.write(png, to: path, durable: false)
        return png
    }

    /// `states/<state>/frames/NNN.png`, as the page names a frame.
    static func framePath(_ state: String, _ index: Int) -> String {
        "states/\(state)/frames/\(GoldenStore.frameName(index))"
    }

    /// `states/<state>/pixels/NNN.js`: the frame's PNG as a script for the page's pixel loupe.
    static func pixelsPath(_ state: String, _ index: Int) -> String {
        "states/\(state)/pixels/\(GoldenStore.frameName(index).replacingOccurrences(of: ".png", with: ".js"))"
    }

    /// The page's pixel loupe reads a frame's pixels from `pixels/NNN.js`, a script that hands it
    /// the PNG as a data: URL: a page opened from disk cannot read the pixels of its own images (a
    /// canvas that draws a file:// image is tainted), but it can load scripts beside it.
    static func writePixelsScript(_ png: [UInt8], state: String, index: Int, into staging: String) throws(RunnerError) {
        let call =
            "layoutsnapPixels(\"\(framePath(state, index))\", \"data:image/png;base64,\(Data(png).base64EncodedString())\");\n"
        try AtomicFile.write(
            Array(call.utf8), to: "\(staging)/\(pixelsPath(state, index).dropFirst("states/".count))", durable: false)
    }

    /// "#7 · 116.7 ms · p 0.42": a contact sheet cell's label.
    static func label(_ frame: LayoutFrame) -> String {
        "#\(frame.index) · \(String(format: "%.1f", frame.time * 1000)) ms · p \(String(format: "%.2f", frame.progress))"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    func pageData(
        fixture: Fixture, layout: FixtureLayout, states: [StatePreview], golden: [String: StateMotion]? = nil,
        timelineFilmstrips: [String] = []
    )
        -> JSONOutput
    {
        let stateObjects = zip(layout.states, states).map { state, preview -> JSONOutput in
            let frames = zip(state.frames, preview.overlays).map { frame, overlay -> JSONOutput in
                guard case .object(var members) = LayoutJSON.json(frame) else { return .null }
                members.append(("image", .string(Self.framePath(state.name, frame.index))))
                members.append(("pixels", .string(Self.pixelsPath(state.name, frame.index))))
                if zoom != nil {
                    members.append(
                        ("zoomed", .string("states/\(state.name)/zoom/\(GoldenStore.frameName(frame.index))")))
                }
                if case .object(let o) = overlay.json, let lines = o.first(where: { $0.0 == "lines" }) {
                    members.append(lines)
                }
                return .object(members)
            }
            var object: [(String, JSONOutput)] = [("name", .string(state.name))]
            if let note = state.note { object.append(("note", .string(note))) }
            if let motion = state.motion { object.append(("curve", .string(motion.summary))) }
            if state.interrupted { object.append(("interrupted", .bool(true))) }
            object += [
                ("animation", .string("states/\(state.name)/animation.png")),
                ("filmstrips", .array(preview.filmstrips.map { .string($0) })),
                ("frames", .array(frames)),
            ]
            // Every track that moves, for the plots under the viewer (and the golden's with
            // --against).
            object.append(
                ("motion", Self.motionJSON(state, times: state.frames.map(\.time), golden: golden, name: state.name)))
            return .object(object)
        }
        return .object([
            ("fixture", .string(fixture.id)),
            ("file", .string(ref.displayPath)),
            ("kind", .string(fixture.kind.rawValue)),
            (
                "canvas",
                .object([
                    ("width", .number(fixture.canvas.width)), ("height", .number(fixture.canvas.height)),
                    ("scale", .number(fixture.canvas.scale)),
                ])
            ),
            ("fps", .number(fixture.fps)),
            ("appearance", .string(fixture.appearance.rawValue)),
            ("holdLastFrame", .number(Self.holdLastFrame)),
            ("overlayBaked", .bool(bakeOverlay)),
            ("zoom", .int(zoom ?? 1)),
            ("against", against.map { .string($0) } ?? .null),
            ("timeline", timelineJSON(layout.states, filmstrips: timelineFilmstrips)),
            ("states", .array(stateObjects)),
        ])
    }
}
