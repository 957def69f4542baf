import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner
import LayoutSnapJSON

/// `layoutsnap config`: the settings a run here would use, and where each comes from.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Print the effective settings (from flags, layoutsnap.json or the defaults) and where each comes from.",
        discussion:
            "layoutsnap.json is looked up from the working directory upward; its folders are relative to its own folder; flags given to a command override it."
    )

    func run() throws {
        try Diagnostics.run {
            let project = try ProjectSettings.load()
            let c = project.config
            Diagnostics.out("config file: \(project.file ?? "none (no layoutsnap.json here or above)")")
            let rows: [(String, (value: String, source: String))] = [
                (
                    "fixtures",
                    project.pick(
                        nil, c.fixtures?.joined(separator: ", "), default: project.fixtures.joined(separator: ", "))
                ),
                ("goldens", project.pick(nil, c.goldens, default: project.goldens)),
                ("report", project.pick(nil, c.report, default: project.report)),
                ("jobs", project.pick(nil, c.jobs.map(String.init), default: "\(BatchRunner.defaultJobs) (all cores)")),
                ("timeout", project.pick(nil, c.timeout.map { "\($0) s" }, default: "\(Watchdog.defaultSeconds) s")),
                (
                    "reporter",
                    project.pick(nil, c.reporter, default: "\(Reporter.fromEnvironment.rawValue) (GITHUB_ACTIONS)")
                ),
            ]
            for (name, (value, source)) in rows {
                Diagnostics.out("\(name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)  [\(source)]")
            }
            let d = c.defaults
            Diagnostics.out("fixture defaults (a fixture's own field wins):")
            let defaults: [(String, (value: String, source: String))] = [
                ("device", project.pick(nil, d.device?.name, default: "\(Device.defaultName)")),
                ("scale", project.pick(nil, d.scale.map { JSONWriter.formatNumber($0) }, default: "the device's")),
                ("fps", project.pick(nil, d.fps.map { JSONWriter.formatNumber($0) }, default: "60")),
                ("tolerance", project.pick(nil, d.tolerance.map(Self.describe), default: "exact")),
                (
                    "variants",
                    project.pick(
                        nil, d.variants.map { $0.isEmpty ? "none" : $0.map(\.name).joined(separator: ", ") },
                        default: "none")
                ),
            ]
            for (name, (value, source)) in defaults {
                Diagnostics.out("  \(name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)  [\(source)]")
            }
            return .passed
        }
    }

    /// `threshold 0.1, maxDiffPixels 20, timing 2 frames`.
    static func describe(_ t: FixtureDefaults.DecodedTolerance) -> String {
        var parts: [String] = []
        if let p = t.pixels {
            parts += [
                "threshold \(JSONWriter.formatNumber(p.threshold))", "maxDiffPixels \(p.maxDiffPixels)",
                "maxDiffRatio \(JSONWriter.formatNumber(p.maxDiffRatio))",
            ]
            if p.includeAntialiasing { parts.append("includeAntialiasing") }
        } else {
            parts.append("exact pixels")
        }
        if t.timingFrames > 0 { parts.append("timing \(Plural.count(t.timingFrames, "frame"))") }
        return parts.joined(separator: ", ")
    }
}
