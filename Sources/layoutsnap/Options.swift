import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// Options every batch command shares (SPEC §2).
struct BatchOptions: ParsableArguments {
    @Argument(help: "Fixture files or folders (default: Fixtures/).")
    var paths: [String] = []

    @Option(help: "The goldens folder.")
    var goldens: String = "Goldens"

    @Option(help: "Only fixtures whose id matches this glob (`posts/*`, `**/long-*`).")
    var filter: String?

    @Option(help: "Fixtures rendered in parallel (default: all cores).")
    var jobs: Int = BatchRunner.defaultJobs

    @Option(help: "Seconds a fixture may take (layout and every frame) before it is stopped with an error; the batch goes on.")
    var timeout: Double = Watchdog.defaultSeconds

    @Option(help: "Run only part I of N of the fixtures (2/4): each fixture is in exactly one part, parts balanced by frames.",
            transform: { text throws in try Shard.parse(text).get() })
    var shard: Shard?

    @OptionGroup var render: RenderOverrideOptions

    @Flag(help: "Print only errors and the summary line.")
    var quiet = false

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    func validate() throws {
        try ArgumentChecks.jobs(jobs)
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The run covers every fixture: no PATH arguments and no filter (orphans of unknown
    /// fixtures can only be judged then).
    var coversWholeSet: Bool { paths.isEmpty && filter == nil && shard == nil }

    var overrides: FixtureOverrides { render.overrides }

    /// The fixtures this run covers: those under the paths that match the filter, and of those
    /// this shard's part (already decoded, to weigh them: passed on to the runner).
    func discover() throws -> (refs: [FixtureRef], decoded: [Result<Fixture, FixtureError>]?) {
        let refs = try FixtureDiscovery.discover(paths: paths, filter: filter)
        guard let shard else { return (refs, nil) }
        let selection = Sharding.select(refs, shard: shard, overrides: overrides, jobs: jobs)
        if !quiet {
            Diagnostics.err("shard \(shard): \(selection.refs.count) of \(selection.totalFixtures) fixtures, about \(Int(selection.frames)) of \(Int(selection.totalFrames)) frames")
        }
        return (selection.refs, selection.decoded)
    }

    /// Runs the discovered fixtures through `handler`.
    func run(_ fixtures: (refs: [FixtureRef], decoded: [Result<Fixture, FixtureError>]?), handler: some FrameHandler,
             label: String) throws -> [FixtureResult] {
        let progress = ProgressBar(label: label, enabled: !quiet && !noProgress)
        return try BatchRunner(jobs: jobs, overrides: overrides, timeout: timeout)
            .run(fixtures.refs, decoded: fixtures.decoded, handler: handler, progress: progress.update)
    }
}

/// `--device`, `--scale`, `--fps`: what every command that renders or lays out can override.
struct RenderOverrideOptions: ParsableArguments {
    @Option(help: "Render with this device preset instead of the fixture's (canvas size and scale).")
    var device: String?

    @Option(help: "Pixels per point, instead of the fixture's.")
    var scale: Double?

    @Option(help: "Frames per second of animations, instead of the fixture's.")
    var fps: Double?

    func validate() throws {
        if let device, Device.named(device) == nil {
            throw ValidationError("unknown device \"\(device)\"; expected one of: \(Device.allNames.joined(separator: ", "))")
        }
        if let scale, !Limits.scale.contains(scale) { throw ValidationError("--scale must be from 0.25 to 8") }
        if let fps, !Limits.fps.contains(fps) { throw ValidationError("--fps must be from 1 to 240") }
    }

    var overrides: FixtureOverrides {
        FixtureOverrides(device: device.flatMap(Device.named), scale: scale, fps: fps)
    }
}

/// `--junit` and `--json`: the extra copies of a run's results, for verify and merge-reports.
struct ResultFileOptions: ParsableArguments {
    @Option(help: "Also write JUnit XML here.")
    var junit: String?

    @Option(help: "Also write results.json here.")
    var json: String?

    func write(_ results: RunResults) throws {
        if let junit { try AtomicFile.write(Array(JUnitWriter.xml(results).utf8), to: junit) }
        if let json { try AtomicFile.write([UInt8](ResultsJSON.encode(results)), to: json) }
    }
}

/// The checks of arguments that several commands take.
enum ArgumentChecks {
    /// A `--seed`: a whole number from 0 to 2^64 - 1.
    static func seed(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else {
            throw ValidationError("--seed must be a whole number from 0 to \(UInt64.max), found \"\(text)\"")
        }
        return value
    }

    static func jobs(_ jobs: Int) throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
    }
}
