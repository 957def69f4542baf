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

    @OptionGroup var render: RenderOverrideOptions

    @Flag(help: "Print only errors and the summary line.")
    var quiet = false

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
    }

    /// The run covers every fixture: no PATH arguments and no filter (orphans of unknown
    /// fixtures can only be judged then).
    var coversWholeSet: Bool { paths.isEmpty && filter == nil }

    var overrides: FixtureOverrides { render.overrides }

    func discover() throws -> [FixtureRef] {
        try FixtureDiscovery.discover(paths: paths, filter: filter)
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
