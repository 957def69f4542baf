import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract:
            "Preview a fixture's frames: per state a filmstrip contact sheet and an animated PNG, and a page that plays the states as one timeline, with a scrubber, overlays and motion plots; --compare puts another fixture or other options beside it.",
        discussion: "Open OUT/index.html in a browser. Nothing is compared and nothing is written to the goldens.")

    @Argument(help: "The fixture file.", completion: .file(extensions: ["json"]))
    var fixture: String

    @Option(help: "The output folder (default: .layoutsnap/preview/<fixture id>).")
    var out: String?

    @Flag(
        help:
            "Render again when the fixture or its images change; the open page reloads at the same time, or shows a broken edit's error (Ctrl-C stops)."
    )
    var watch = false

    @Flag(
        help:
            "Also draw the overlays (element rects with ids, line boxes, baselines) into the filmstrips and animations, and show them on the page from the start."
    )
    var overlay = false

    @OptionGroup var render: RenderOverrideOptions

    @Option(help: "light or dark, instead of the fixture's.", completion: .list(Appearance.allCases.map(\.rawValue)))
    var appearance: String?

    @Option(
        help: ArgumentHelp(
            "Post cards: \(CurveOverride.forms) (quote the parentheses).", valueName: "curve"),
        transform: { text throws in (text: text, curve: try CurveOverride.parse(text).get()) })
    var curve: (text: String, curve: CurveOverride)?

    @Option(
        help: "Post cards with a timing curve: the animation's duration in seconds (a spring settles when it settles).")
    var duration: Double?

    @Option(help: "States rendered in parallel (default: all cores).")
    var jobs: Int = BatchRunner.defaultJobs

    @Option(
        help: "One of the fixture's variants (its name: `iphone-se+AX3`), instead of the fixture as written.",
        completion: Completions.variants)
    var variant: String?

    @Option(
        name: .customLong("against"),
        help: ArgumentHelp(
            "Plot each track of the goldens' layout.json of this fixture under the new one.", valueName: "goldens"))
    var against: String?

    @Option(
        help: ArgumentHelp(
            "Also write the motion as a file to share: gif (written by layoutsnap), mp4 or webm (by ffmpeg, found on PATH), at the fixture's fps and the preview's scale (--scale).",
            valueName: "format"),
        completion: .list(PreviewExport.Format.allCases.map(\.rawValue)))
    var export: String?

    @Option(
        help: ArgumentHelp(
            "The one state to export (default: every state, one after another).", valueName: "state"),
        completion: Completions.states)
    var exportState: String?

    @Option(
        help: ArgumentHelp(
            "Where --export writes (default: OUT/export/<state or all-states>.<format>).", valueName: "path"),
        completion: .file())
    var exportOut: String?

    @Option(
        help: ArgumentHelp(
            "A comparison's export: B's frame beside A's at the same time (default) or at the same progress of the motion.",
            valueName: "time|progress"),
        completion: .list(PreviewExport.Pairing.allCases.map(\.rawValue)))
    var exportPairing: String?

    @Option(
        help: ArgumentHelp(
            "Also render every frame at N times the device scale (2 to 8), so the page zooms up to Nx on re-rendered detail, not enlarged pixels.",
            valueName: "N"))
    var zoom: Int?

    @Flag(
        help:
            "Then serve the preview on 127.0.0.1 (printing its address with a token), where the page zooms to 8x by rendering the region in view on demand (Ctrl-C stops)."
    )
    var serve = false

    @Option(help: "With --serve: the port on 127.0.0.1 (default 0: a free one, printed).")
    var port: Int?

    @OptionGroup(title: "Compare") var compare: CompareOptions

    @Flag(help: "Print only errors.")
    var quiet = false

    func validate() throws {
        try ArgumentChecks.jobs(jobs)
        try compare.check()
        if let appearance, Appearance(rawValue: appearance) == nil {
            throw ValidationError("--appearance must be light or dark, found \"\(appearance)\"")
        }
        if let duration, !Limits.animationDuration.contains(duration) {
            throw ValidationError("--duration must be from 0 to 60 seconds")
        }
        if let export, PreviewExport.Format(rawValue: export) == nil {
            throw ValidationError(
                "--export must be \(PreviewExport.Format.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(export)\""
            )
        }
        if let zoom, !(2...8).contains(zoom) { throw ValidationError("--zoom must be from 2 to 8, found \(zoom)") }
        if export == nil, exportState != nil || exportOut != nil || exportPairing != nil {
            throw ValidationError("--export-state, --export-out and --export-pairing go with --export gif|mp4|webm")
        }
        if let exportPairing {
            guard PreviewExport.Pairing(rawValue: exportPairing) != nil else {
                throw ValidationError("--export-pairing must be time or progress, found \"\(exportPairing)\"")
            }
            guard compare.given else {
                throw ValidationError(
                    "--export-pairing pairs a comparison's frames: give --compare or a --compare-* option")
            }
        }
        if let port {
            guard serve else { throw ValidationError("--port goes with --serve") }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        }
        if export != nil, watch {
            throw ValidationError("--export writes one file; leave out --watch (export again after an edit)")
        }
    }

    var overrides: FixtureOverrides {
        var o = render.overrides
        o.appearance = appearance.flatMap(Appearance.init(rawValue:))
        o.curve = curve?.curve
        o.duration = duration
        return o
    }

    func run() throws {
        try Diagnostics.run {
            let ref = try FixtureDiscovery.single(
                fixture, variant: variant, project: try ProjectSettings.load())
            var builder = PreviewBuilder(
                ref: ref, output: out ?? ".layoutsnap/preview/\(ref.id)", overrides: overrides,
                bakeOverlay: overlay, watching: watch, jobs: jobs, against: against,
                export: export.flatMap(PreviewExport.Format.init(rawValue:)).map {
                    PreviewExport(
                        format: $0, state: exportState, path: exportOut,
                        pairing: exportPairing.flatMap(PreviewExport.Pairing.init(rawValue:)) ?? .time)
                }, zoom: zoom)
            if compare.given {
                builder.compare = try compare.comparison(fixture: fixture, overrides: overrides, variant: variant)
                builder.compareLabel = CompareOptions.label(
                    ref.id,
                    [
                        ("appearance", appearance), ("curve", curve?.text), ("duration", duration.map { "\($0) s" }),
                        ("device", render.device),
                    ])
            }
            // The port is taken before anything is rendered: a port in use is said at once.
            let server = try serve ? PreviewServer(folder: builder.output, port: UInt16(port ?? 0)) : nil
            guard watch else {
                guard let summary = try build(builder) else { return .error }
                guard let server else { return .passed }
                if let layout = summary.layout { server.update(layout, compared: summary.comparedLayout) }
                Diagnostics.out("Preview: \(server.url) (Ctrl-C stops)")
                server.serve()
                return .passed
            }
            if let server { Thread.detachNewThread { server.serve() } }
            try PreviewWatcher(fixture: ref.path).run(
                build: {
                    let summary = try build(builder)
                    if let server, let summary, let layout = summary.layout {
                        server.update(layout, compared: summary.comparedLayout)
                    }
                    return summary?.inputs
                },
                watching: { inputs in
                    // After the first build, as without --watch (the address is printed even with --quiet).
                    if let server { Diagnostics.out("Preview: \(server.url) (Ctrl-C stops)") }
                    if !quiet {
                        Diagnostics.out(
                            "Watching \(inputs.map(PreviewWatcher.display).joined(separator: ", ")) (Ctrl-C stops)")
                    }
                },
                changed: { files in
                    if !quiet {
                        Diagnostics.out("changed: \(files.map(PreviewWatcher.display).joined(separator: ", "))")
                    }
                })
            return .passed
        }
    }

    /// One build, reported; nil when the fixture could not be previewed (the error is printed).
    private func build(_ builder: PreviewBuilder) throws -> PreviewBuilder.Summary? {
        let started = DispatchTime.now()
        do {
            let summary = try builder.build()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            if !quiet {
                Diagnostics.out(
                    "preview of \(builder.ref.id): \(Plural.count(summary.states, "state")), \(Plural.count(summary.frames, "frame")) in \(String(format: "%.2f", seconds)) s"
                )
                for motion in summary.motions { Diagnostics.out("  \(motion)") }
                if let exported = summary.exported { Diagnostics.out(exported.summary) }
                Diagnostics.out("Open \(summary.page)")
            }
            return summary
        } catch {
            // A fixture error is the user's to fix; the other kinds (disk, fonts) stop the run.
            guard case .fixture = error else { throw error }
            Diagnostics.printError(error.description)
            if watch { try builder.writeFailure(error.description) }
            return nil
        }
    }
}

/// `--compare FIXTURE` and `--compare-<option>`: side B of a comparison, another fixture or this
/// one with one or more options changed; every option not changed is A's.
struct CompareOptions: ParsableArguments {
    @Option(
        name: .customLong("compare"),
        help: ArgumentHelp(
            "Compare with another fixture file: shown beside or over this one, scrubbed together.",
            valueName: "fixture"),
        completion: .file(extensions: ["json"]))
    var fixture: String?

    @Option(
        name: .customLong("compare-variant"),
        help: "Compare with one of the fixture's variants (with --compare, of that one's).",
        completion: Completions.variants)
    var variant: String?

    @Option(
        name: .customLong("compare-appearance"), help: "Compare with the fixture in light or dark.",
        completion: .list(Appearance.allCases.map(\.rawValue)))
    var appearance: String?

    @Option(
        name: .customLong("compare-text-size"),
        help: "Compare with the fixture at this Dynamic Type size (Large, AX3, ...).",
        completion: .list(ContentSizeCategory.allCases.map(\.rawValue)))
    var textSize: String?

    @Option(
        name: .customLong("compare-device"), help: "Compare with the fixture on this device preset.",
        completion: .list(Device.allNames))
    var device: String?

    @Option(
        name: .customLong("compare-curve"),
        help: ArgumentHelp("Post cards: compare with this curve (the forms of --curve).", valueName: "curve"),
        completion: .list(["easeInOut", "easeIn", "easeOut", "linear", "spring"]))
    var curve: String?

    @Option(
        name: .customLong("compare-duration"),
        help: "Post cards with a timing curve: compare with this duration in seconds.")
    var duration: Double?

    @Option(
        name: .customLong("compare-goldens"),
        help: ArgumentHelp(
            "Compare with the fixture's recorded golden frames in this goldens folder.", valueName: "goldens"),
        completion: .directory)
    var goldens: String?

    var given: Bool {
        goldens != nil || fixture != nil || variant != nil || appearance != nil || textSize != nil || device != nil
            || curve != nil
            || duration != nil
    }

    /// The values' own checks, as A's options have them.
    func check() throws {
        if goldens != nil,
            fixture != nil || variant != nil || appearance != nil || textSize != nil || device != nil
                || curve != nil || duration != nil
        {
            throw ValidationError(
                "--compare-goldens compares with the frames as they were recorded; leave out the other --compare options"
            )
        }
        if let appearance, Appearance(rawValue: appearance) == nil {
            throw ValidationError("--compare-appearance must be light or dark, found \"\(appearance)\"")
        }
        if let textSize, ContentSizeCategory.named(textSize) == nil {
            throw ValidationError(
                "--compare-text-size: unknown text size \"\(textSize)\"; expected one of: \(ContentSizeCategory.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if let device, Device.named(device) == nil {
            throw ValidationError(
                "--compare-device: unknown device \"\(device)\"; expected one of: \(Device.allNames.joined(separator: ", "))"
            )
        }
        if let curve, case .failure(let error) = CurveOverride.parse(curve) {
            let message = error.message.replacingOccurrences(of: "--curve", with: "--compare-curve")
            throw ValidationError(message.hasPrefix("--compare-curve") ? message : "--compare-curve: " + message)
        }
        if let duration, !Limits.animationDuration.contains(duration) {
            throw ValidationError("--compare-duration must be from 0 to 60 seconds")
        }
    }

    /// Side B: the fixture (`--compare`, else A's) and variant (`--compare-variant`, else A's when
    /// the fixture is A's), with A's overrides and each given here in their place.
    func comparison(fixture file: String, overrides: FixtureOverrides, variant own: String?) throws
        -> PreviewComparison
    {
        if let goldens { return PreviewComparison(.goldens(goldens), label: "goldens \(goldens)") }
        let project = try ProjectSettings.load()
        let found = Result { () throws(RunnerError) in
            try FixtureDiscovery.single(
                fixture ?? file, variant: variant ?? (fixture == nil ? own : nil), project: project)
        }
        if case .failure(.usage(let message)) = found {
            throw RunnerError.usage((fixture != nil ? "--compare: " : "--compare-variant: ") + message)
        }
        let other = try found.get()
        var o = overrides
        if let appearance { o.appearance = Appearance(rawValue: appearance) }
        if let textSize { o.textSize = ContentSizeCategory.named(textSize) }
        if let device { o.device = Device.named(device) }
        if let curve { o.curve = try CurveOverride.parse(curve).get() }
        if let duration { o.duration = duration }
        let label = Self.label(
            other.id,
            [
                ("appearance", appearance), ("text size", textSize.flatMap(ContentSizeCategory.named)?.rawValue),
                ("device", device), ("curve", curve), ("duration", duration.map { "\($0) s" }),
            ])
        return PreviewComparison(ref: other, overrides: o, label: label)
    }

    /// "posts/card · curve easeIn · duration 0.6 s": a side's fixture and the options it was given.
    static func label(_ id: String, _ options: [(String, String?)]) -> String {
        ([id] + options.compactMap { name, value in value.map { "\(name) \($0)" } }).joined(separator: " · ")
    }
}
