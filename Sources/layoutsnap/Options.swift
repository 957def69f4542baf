import ArgumentParser
import Foundation
import LayoutSnapCore
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

    @Option(help: "Run only part I of N of the fixtures (2/4): each fixture is in exactly one part, parts balanced by frames.")
    var shard: String?

    @OptionGroup var render: RenderOverrideOptions

    @Flag(help: "Print only errors and the summary line.")
    var quiet = false

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        if let shard, case let .failure(error) = Shard.parse(shard) { throw ValidationError(error.message) }
    }

    /// The run covers every fixture: no PATH arguments and no filter (orphans of unknown
    /// fixtures can only be judged then).
    var coversWholeSet: Bool { paths.isEmpty && filter == nil && shard == nil }

    var parsedShard: Shard? { shard.flatMap { try? Shard.parse($0).get() } }

    var overrides: FixtureOverrides { render.overrides }

    /// The fixtures this run covers: those under the paths that match the filter, and of those
    /// this shard's part (already decoded, to weigh them: passed on to the runner).
    func discover() throws -> (refs: [FixtureRef], decoded: [Result<Fixture, FixtureError>]?) {
        let refs = try FixtureDiscovery.discover(paths: paths, filter: filter)
        guard let shard = parsedShard else { return (refs, nil) }
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
