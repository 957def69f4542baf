import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Preview a fixture's frames: per state a filmstrip contact sheet and an animated PNG, and a page that plays the states as one timeline, with a scrubber, overlays and motion plots.",
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
        transform: { text throws in try CurveOverride.parse(text).get() })
    var curve: CurveOverride?

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
            "Also render every frame at N times the device scale (2 to 8), so the page zooms up to Nx on re-rendered detail, not enlarged pixels.",
            valueName: "N"))
    var zoom: Int?

    @Flag(help: "Print only errors.")
    var quiet = false

    func validate() throws {
        try ArgumentChecks.jobs(jobs)
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
        if export == nil, exportState != nil || exportOut != nil {
            throw ValidationError("--export-state and --export-out go with --export gif|mp4|webm")
        }
        if export != nil, watch {
            throw ValidationError("--export writes one file; leave out --watch (export again after an edit)")
        }
    }

    var overrides: FixtureOverrides {
        var o = render.overrides
        o.appearance = appearance.flatMap(Appearance.init(rawValue:))
        o.curve = curve
        o.duration = duration
        return o
    }

    func run() throws {
        try Diagnostics.run {
            let ref = try FixtureDiscovery.single(
                fixture, variant: variant, project: try ProjectSettings.load())
            let builder = PreviewBuilder(
                ref: ref, output: out ?? ".layoutsnap/preview/\(ref.id)", overrides: overrides,
                bakeOverlay: overlay, watching: watch, jobs: jobs, against: against,
                export: export.flatMap(PreviewExport.Format.init(rawValue:)).map {
                    PreviewExport(format: $0, state: exportState, path: exportOut)
                }, zoom: zoom)
            guard watch else {
                let summary = try build(builder)
                return summary == nil ? .error : .passed
            }
            try PreviewWatcher(fixture: ref.path).run(
                build: { try build(builder)?.inputs },
                watching: { inputs in
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
