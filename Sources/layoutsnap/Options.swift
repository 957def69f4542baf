import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// Options every batch command shares (docs/outcomes.md).
struct BatchOptions: ParsableArguments {
    @Argument(
        help: "Fixture files or folders (default: layoutsnap.json's fixtures, else Fixtures/).",
        completion: .file(extensions: ["json"]))
    var paths: [String] = []

    @Option(help: "The goldens folder (default: layoutsnap.json's goldens, else Goldens).", completion: .directory)
    var goldens: String?

    @Option(help: "Only fixtures whose id matches this glob (`posts/*`, `**/long-*`).")
    var filter: String?

    @Option(
        help: "Only the fixtures' variants of this name (`iphone-se+AX3`, or a variant's own name).",
        completion: Completions.variants)
    var variant: String?

    @Option(help: "Fixtures rendered in parallel (default: layoutsnap.json's jobs, else all cores).")
    var jobs: Int?

    @Option(
        help:
            "Seconds a fixture may take (layout and every frame) before it is stopped with an error; the batch goes on (default 120)."
    )
    var timeout: Double?

    @Option(
        help:
            "Run only part I of N of the fixtures (2/4): each fixture is in exactly one part, parts balanced by frames.",
        transform: { text throws in try Shard.parse(text).get() })
    var shard: Shard?

    @OptionGroup var render: RenderOverrideOptions

    @Flag(help: "Print only errors and the summary line.")
    var quiet = false

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    func validate() throws {
        if let jobs { try ArgumentChecks.jobs(jobs) }
        if let timeout {
            guard timeout > 0, timeout.isFinite else {
                throw ValidationError("--timeout must be a positive number of seconds")
            }
        }
    }

    /// What the runner library is asked to cover: the flags, else the project's layoutsnap.json,
    /// else the defaults.
    func settings(_ project: ProjectSettings) -> BatchSettings {
        let c = project.config
        var settings = BatchSettings(
            paths: paths.isEmpty && project.file != nil ? project.fixtures : paths, goldens: goldens ?? project.goldens,
            filter: filter,
            jobs: jobs ?? c.jobs ?? BatchRunner.defaultJobs, timeout: timeout ?? c.timeout ?? Watchdog.defaultSeconds,
            shard: shard, overrides: render.overrides)
        settings.variant = variant
        settings.defaults = c.defaults
        settings.project = project
        return settings
    }

    /// Every property at its default (`Verify.unparsed`).
    static func unparsed() -> BatchOptions {
        var options = BatchOptions()
        options.paths = []
        options.goldens = nil
        options.filter = nil
        options.variant = nil
        options.jobs = nil
        options.timeout = nil
        options.shard = nil
        options.render = RenderOverrideOptions()
        options.render.device = nil
        options.render.scale = nil
        options.render.fps = nil
        options.quiet = false
        options.noProgress = false
        return options
    }

    /// A progress bar on stderr for `label` (only on a terminal, and not with --quiet or --no-progress).
    func progress(_ label: String) -> @Sendable (Int, Int) -> Void {
        let bar = ProgressBar(label: label, enabled: !quiet && !noProgress)
        return { bar.update($0, $1) }
    }
}

/// `--device`, `--scale`, `--fps`: what every command that renders or lays out can override.
struct RenderOverrideOptions: ParsableArguments {
    @Option(
        help: "Render with this device preset instead of the fixture's (canvas size and scale).",
        completion: .list(Device.allNames))
    var device: String?

    @Option(help: "Pixels per point, instead of the fixture's.")
    var scale: Double?

    @Option(help: "Frames per second of animations, instead of the fixture's.")
    var fps: Double?

    func validate() throws {
        if let device, Device.named(device) == nil {
            throw ValidationError(
                "unknown device \"\(device)\"; expected one of: \(Device.allNames.joined(separator: ", "))")
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

    var files: ResultFiles { ResultFiles(junit: junit, json: json) }
}

/// The result cache's flags (docs/cache.md), for verify and record; each overrides
/// layoutsnap.json's `cache`.
struct CacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The local result cache folder (default .layoutsnap/cache).", valueName: "dir"))
    var cache: String?

    @Flag(help: "No local result cache: every fixture is rendered (a --remote-cache is still used).")
    var noCache = false

    @Option(
        help: ArgumentHelp(
            "A shared result cache speaking the Bazel remote cache HTTP protocol (bazel-remote, nginx WebDAV).",
            valueName: "http://host[:port][/path]"))
    var remoteCache: String?

    @Option(
        help: ArgumentHelp(
            "A header sent with every remote cache request, such as \"Authorization: Bearer $TOKEN\" (repeatable).",
            valueName: "name: value"))
    var remoteCacheHeader: [String] = []

    @Option(help: "always: upload results rendered here; never: only read (for untrusted pull requests).")
    var remoteCacheUpload: CacheUpload?

    @Option(
        help: ArgumentHelp(
            "Seconds a remote cache connection or request may take before the cache counts as down (default 5).",
            valueName: "seconds"))
    var remoteCacheTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "The share of cache hits rendered anyway and compared; a disagreement fails the run (default 0.02).",
            valueName: "rate"))
    var cacheAudit: Double?

    func validate() throws {
        if let cacheAudit, !(0...1).contains(cacheAudit) {
            throw ValidationError("--cache-audit must be from 0 to 1, found \(cacheAudit)")
        }
        if noCache && cache != nil { throw ValidationError("--cache and --no-cache: give one") }
        if let remoteCacheTimeout, !(0.01...600).contains(remoteCacheTimeout) {
            throw ValidationError(
                "--remote-cache-timeout must be from 0.01 to 600 seconds, found \(remoteCacheTimeout)")
        }
    }

    /// Every property at its default (`Verify.unparsed`).
    static func unparsed() -> CacheOptions {
        var options = CacheOptions()
        options.cache = nil
        options.noCache = false
        options.remoteCache = nil
        options.remoteCacheHeader = []
        options.remoteCacheUpload = nil
        options.remoteCacheTimeout = nil
        options.cacheAudit = nil
        return options
    }

    func settings(_ project: ProjectSettings) -> CacheSettings {
        let c = project.config.cache
        var s = CacheSettings()
        s.folder = noCache || (cache == nil && c.local == false) ? nil : cache ?? project.cacheFolder
        if let mb = c.maxMegabytes { s.maxBytes = mb << 20 }
        s.remote = remoteCache ?? c.remote
        s.remoteHeaders = remoteCacheHeader
        s.upload = remoteCacheUpload ?? c.upload ?? .always
        s.auditRate = cacheAudit ?? c.audit ?? 0.02
        if let seconds = remoteCacheTimeout { s.remoteTimeoutMilliseconds = Int32((seconds * 1000).rounded()) }
        return s
    }
}

extension CacheUpload: ExpressibleByArgument {}

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
