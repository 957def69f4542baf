import ArgumentParser
import Foundation
import LayoutSnapBenchmarks
import LayoutSnapCore
import LayoutSnapRunner

/// `layoutsnap-bench`: the performance figures of docs/performance.md, outside the product. Build everything in
/// release first (`swift build -c release`): the figures that time whole processes run the
/// `layoutsnap` binary beside this one.
@main
struct LayoutSnapBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layoutsnap-bench",
        abstract:
            "Measure layoutsnap: render, verify and record throughput, PNG, diff against blazediff, generation and memory.",
        subcommands: [
            Bench.self, DiffSideBySide.self, CausesCommand.self, PageLoad.self, CacheCommand.self, ThemeCommand.self,
            StartCommand.self, PeakOfCommand.self,
        ],
        defaultSubcommand: Bench.self)
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure render, verify and record throughput on fixtures (build with -c release first).")

    @Argument(help: "Fixture files or folders (default: Fixtures/).")
    var paths: [String] = []

    @Option(help: "The goldens folder to verify against.")
    var goldens: String = "Goldens"

    @Option(help: "Runs per measurement; the fastest counts.")
    var repeats: Int = 3

    @Option(help: "Fixtures to generate for the generation figure.")
    var generate: Int = 10_000

    @Option(help: "Generated fixtures to record and then verify, unchanged, for the peak-memory figure.")
    var verifyGenerated: Int = 1_000

    @Option(help: "Failing frames for the causes figure (attribution and grouping).")
    var causeFrames: Int = 10_000

    @Option(
        help:
            "Generated fixtures whose verify's peak memory is compared with that of a tenth as many (memory flat in the suite's size); 0 skips it."
    )
    var memoryFixtures: Int = 10_000

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be 1 or more") }
        guard causeFrames >= 1 else { throw ValidationError("--cause-frames must be 1 or more") }
        guard (1...FixtureGenerator.maxCount).contains(generate) else {
            throw ValidationError("--generate must be from 1 to \(FixtureGenerator.maxCount)")
        }
        guard (1...FixtureGenerator.maxCount).contains(verifyGenerated) else {
            throw ValidationError("--verify-generated must be from 1 to \(FixtureGenerator.maxCount)")
        }
        guard memoryFixtures == 0 || (1...FixtureGenerator.maxCount).contains(memoryFixtures) else {
            throw ValidationError("--memory-fixtures must be 0 (skip) or from 1 to \(FixtureGenerator.maxCount)")
        }
    }

    @Option(
        help: "The layoutsnap binary whose whole-process times are measured (default: the one beside this program).")
    var layoutsnap: String?

    func run() throws {
        try Diagnostics.run {
            let executable = try BenchBinaries.layoutsnap(layoutsnap)
            let refs = try FixtureDiscovery.discover(paths: paths)
            let bench = Benchmark(refs: refs, goldens: goldens, repeats: repeats)
            let f = try bench.run { FileHandle.standardError.write(Data("bench: \($0)…\n".utf8)) }
            func fps(_ seconds: Double) -> String { String(format: "%.1f frames/s", Double(f.frames) / seconds) }
            func ms(_ seconds: Double) -> String { String(format: "%.2f ms/frame", seconds * 1000 / Double(f.frames)) }
            let mp = f.megapixels / Double(f.frames)
            Diagnostics.out(
                "layoutsnap-bench: \(f.fixtures) fixtures, \(f.states) states, \(f.frames) frames, \(String(format: "%.2f", mp)) MP/frame"
            )
            Diagnostics.out("render only        \(fps(f.renderSeconds))  (\(ms(f.renderSeconds)))")
            Diagnostics.out(
                "verify, unchanged  \(fps(f.verifySeconds))  (\(ms(f.verifySeconds)))  = \(String(format: "%.2f", f.verifySeconds / f.renderSeconds))x render [target ≤ 1.5x]; \(f.comparedFrames) frames passed"
            )
            Diagnostics.out(
                "verify, lints on   \(fps(f.verifyLintSeconds))  = \(String(format: "%.2f", f.verifyLintSeconds / f.verifySeconds))x lints off [target ≤ 1.1x]; \(f.lintFindings) findings not ignored"
            )
            Diagnostics.out("record, all new    \(fps(f.recordSeconds))  (\(ms(f.recordSeconds)))")
            Diagnostics.out(
                "PNG encode         \(String(format: "%.2f", f.encodeSeconds * 1000 / f.megapixels)) ms/MP [target ≤ 15]; \(f.encodedBytes / 1024) KiB vs Cairo's default \(f.cairoBytes / 1024) KiB (\(String(format: "%.0f", 100 * Double(f.encodedBytes) / Double(max(f.cairoBytes, 1))))%)"
            )
            Diagnostics.out(
                "                   \(f.framesLargerThanCairo) frames larger than Cairo's; zlib level 1 + filter None: \(String(format: "%.2f", f.zlibFastSeconds * 1000 / f.megapixels)) ms/MP, \(f.zlibFastBytes / 1024) KiB"
            )
            Diagnostics.out(
                "verify, 2 jobs     \(fps(f.verifyTwoJobsSeconds))  = \(String(format: "%.2f", f.verifyOneJobSeconds / f.verifyTwoJobsSeconds))x one job [target ≥ 1.7x]"
            )
            Diagnostics.out(
                "Pango layouts      \(f.layoutsCreated) for \(f.states) states and \(f.frames) frames (laid out once per fixture, not per frame)"
            )
            Diagnostics.out("peak memory        \(String(format: "%.0f", f.peakMemoryMB)) MB")
            FileHandle.standardError.write(Data("bench: chat scale…\n".utf8))
            let chat = ChatScaleBenchmark(repeats: repeats)
            let short = try chat.run(messages: 10)
            let long = try chat.run(messages: 5000)
            for c in [short, long] {
                Diagnostics.out(
                    "chat, \(String(format: "%4d", c.messages)) messages \(String(format: "%.2f", c.perFrameMs)) ms/frame over \(c.frames) keyboard frames (layout + render, 786 x 1704 px); messages laid out once in \(String(format: "%.1f", c.firstLayoutMs)) ms"
                )
            }
            Diagnostics.out(
                "chat, 5000 vs 10   \(String(format: "%.2f", long.perFrameMs / short.perFrameMs))x per frame [target ≤ 1.5x]"
            )
            FileHandle.standardError.write(Data("bench: variants…\n".utf8))
            if let v = try VariantBenchmark(refs: refs, repeats: repeats).run() {
                Diagnostics.out(
                    "variants, verify   \(v.frames) frames as variants \(String(format: "%.1f", Double(v.frames) / v.variantSeconds)) frames/s, as standalone fixtures \(String(format: "%.1f", Double(v.frames) / v.standaloneSeconds)) frames/s = \(String(format: "%.2f", v.standaloneSeconds / v.variantSeconds))x [target ≥ 1.0x, within noise]"
                )
            } else {
                Diagnostics.out("variants, verify   none of these fixtures declares variants")
            }
            printCauses(CauseBenchmark(frames: causeFrames, repeats: repeats).run())
            let motion = try MotionBenchmark(repeats: repeats).run()
            Diagnostics.out(
                "motion diff        \(motion.frames)-frame state, \(motion.tracks) tracks (\(motion.kinds.joined(separator: ", "))): \(String(format: "%.2f", motion.milliseconds)) ms [target < 5 ms]"
            )
            FileHandle.standardError.write(Data("bench: diff engine…\n".utf8))
            let d = try DiffBenchmark(repeats: repeats, executable: executable).run()
            func mps(_ ms: Double) -> String { String(format: "%.0f MP/s (%.2f ms)", d.megapixels / (ms / 1000), ms) }
            Diagnostics.out(
                "diff, identical    \(String(format: "%.1f", d.megapixels)) MP pair, one thread: \(mps(d.identicalMs)) [target ≥ 6000 MP/s]"
            )
            Diagnostics.out(
                "diff, \(d.differentPixels) differ   \(String(format: "%.1f", d.megapixels)) MP pair, AA detection on (\(d.antialiasedPixels) anti-aliased): \(mps(d.differentMs)) [target ≥ 1500 MP/s]"
            )
            Diagnostics.out(
                "layoutsnap diff    1 MP PNG pair, whole process: \(String(format: "%.1f", d.processMs)) ms [target < 60 ms]"
            )
            printSideBySide(d.sideBySide, peerMissing: d.peerMissing)
            if let note = BenchBinaries.runtimeNote(executable) { Diagnostics.out(note) }
            let g = try GenerationBenchmark(
                executable: executable, peakOf: BenchBinaries.this, generateCount: generate,
                verifyCount: verifyGenerated,
                memoryCounts: memoryFixtures == 0 ? [] : [max(1, memoryFixtures / 10), memoryFixtures]
            )
            .run { FileHandle.standardError.write(Data("bench: \($0)…\n".utf8)) }
            Diagnostics.out(
                "generate           \(g.generated) fixtures (\(g.generatedBytes / 1_000_000) MB of JSON) in \(String(format: "%.2f", g.generateSeconds)) s [target < 10 s for 10000]"
            )
            Diagnostics.out(
                "generated, verify  \(g.verified) fixtures, \(g.frames) frames unchanged in \(String(format: "%.1f", g.verifySeconds)) s (recorded in \(String(format: "%.1f", g.recordSeconds)) s), exit \(g.verifyExit); peak memory \(String(format: "%.0f", g.verifyPeakMB)) MB [target < 300 MB for 1000]"
            )
            if g.memory.count == 2 {
                let (small, large) = (g.memory[0], g.memory[1])
                for m in g.memory {
                    Diagnostics.out(
                        "memory, verify     \(m.fixtures) generated fixtures, \(m.frames) frames (scale 0.25, 5 fps) in \(String(format: "%.1f", m.seconds)) s, exit \(m.exit): peak \(String(format: "%.0f", m.peakMB)) MB"
                    )
                }
                Diagnostics.out(
                    "memory, flat       \(large.fixtures) vs \(small.fixtures) fixtures: \(String(format: "%.2f", large.peakMB / max(small.peakMB, 1)))x the peak [target < 1.3x]"
                )
            }
            return g.verifyExit == 0 && g.memory.allSatisfy({ $0.exit == 0 }) ? 0 : 2
        }
    }
}

/// The side-by-side table alone: `layoutsnap diff` against blazediff, and against another
/// layoutsnap binary (`--baseline`, say a build of main) in the same interleaved rounds.
struct DiffSideBySide: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Time `layoutsnap diff` on 1 MP and 8 MP pairs beside blazediff's compare() (and a baseline binary).")

    @Option(help: "Runs per measurement; the fastest counts.")
    var repeats: Int = 10

    @OptionGroup var binaries: BinaryOptions

    @Option(help: "Write the PNG pairs here and keep them (default: a temporary folder, removed).")
    var keep: String?

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be 1 or more") }
    }

    func run() throws {
        try Diagnostics.run {
            let (executable, baseline) = (try binaries.executable(), binaries.baseline)
            let dir = keep ?? NSTemporaryDirectory() + "/layoutsnap-diff-side-by-side-\(getpid())"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { if keep == nil { try? FileManager.default.removeItem(atPath: dir) } }
            let side = try DiffBenchmark(repeats: repeats, executable: executable).sideBySide(
                in: dir, baseline: baseline)
            printSideBySide(side.figures, peerMissing: side.peerMissing)
            for binary in [executable] + (baseline.map { [$0] } ?? []) {
                if let note = BenchBinaries.runtimeNote(binary) { Diagnostics.out(note) }
            }
            return 0
        }
    }
}

/// The report page with thousands of failing frames, loaded in headless Chromium.
struct PageLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract:
            "Time the report page to interactive in headless Chromium with many failing frames (causes and attributions)."
    )

    @Option(help: "Failing frames in the report.")
    var frames: Int = 5000

    @Option(help: "Loads; the fastest counts.")
    var repeats: Int = 3

    @Option(help: "Chromium (default: LAYOUTSNAP_CHROMIUM, else chromium on PATH).")
    var chromium: String?

    @Option(help: "Write the report here and keep it (default: a temporary folder, removed).")
    var keep: String?

    func validate() throws {
        guard frames >= 1 else { throw ValidationError("--frames must be 1 or more") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be 1 or more") }
    }

    func run() throws {
        try Diagnostics.run {
            guard let browser = chromium ?? PageBenchmark.findChromium() else {
                throw ValidationError(
                    "no chromium found: install it (bash .ci/install), set LAYOUTSNAP_CHROMIUM or pass --chromium")
            }
            let f = try PageBenchmark(failingFrames: frames, repeats: repeats, chromium: browser).run(keep: keep)
            Diagnostics.out(
                "report page        \(f.frames) failing frames, \(f.causes) causes, index.html \(String(format: "%.1f", Double(f.htmlBytes) / 1_048_576)) MiB: "
                    + "interactive at \(String(format: "%.0f", f.interactiveMs)) ms (JSON.parse \(String(format: "%.0f", f.parseMs)) ms) [target < 2000 ms]; "
                    + "chromium --dump-dom \(String(format: "%.2f", f.processSeconds)) s")
            return 0
        }
    }
}

/// One line per pair: layoutsnap's whole process, the baseline's, blazediff's call and the ratio.
func printSideBySide(_ figures: [DiffBenchmark.PeerFigure], peerMissing: String?) {
    for s in figures {
        let name = s.name.padding(toLength: 13, withPad: " ", startingAt: 0)
        var line =
            "diff \(name)  \(String(format: "%.1f", s.megapixels)) MP, \(s.differentPixels) px differ: layoutsnap diff \(String(format: "%.1f", s.layoutsnapMs)) ms (whole process)"
        if let before = s.baselineMs {
            line +=
                ", baseline \(String(format: "%.1f", before)) ms (\(String(format: "%.2f", s.layoutsnapMs / before))x)"
        }
        if let peer = s.blazediffMs {
            line +=
                ", blazediff compare() \(String(format: "%.1f", peer)) ms = \(String(format: "%.2f", s.layoutsnapMs / peer))x [target ≤ \(String(format: "%.1f", s.target))x]"
        }
        Diagnostics.out(line)
    }
    if let why = peerMissing { Diagnostics.out("diff, blazediff    not measured: \(why) (pip install blazediff)") }
}

/// The programs the benchmark runs.
enum BenchBinaries {
    /// A line for the output when `path` loads the Swift runtime as shared libraries: then every
    /// process pays about 4 ms to load and relocate them, which the whole-process figures show
    /// (docs/performance.md's come from a `--static-swift-stdlib` build). nil for a static build, whose
    /// bytes hold no such name (checked on this project's static and plain release builds: the
    /// library's name is in the plain one's list of needed libraries, nowhere in the static one).
    static func runtimeNote(_ path: String) -> String? {
        guard let bytes = FileManager.default.contents(atPath: path),
            bytes.range(of: Data("libswiftCore.so".utf8)) != nil
        else { return nil }
        return "note: \(path) loads the Swift runtime as shared libraries (about 4 ms more per process); "
            + "the README's whole-process figures are from swift build -c release --static-swift-stdlib"
    }

    /// This program (it runs its own `peak-of`).
    static var this: String { Bundle.main.executablePath ?? CommandLine.arguments[0] }

    /// `layoutsnap`: the one named, or the one beside this program.
    static func layoutsnap(_ named: String?) throws -> String {
        let path =
            named ?? URL(fileURLWithPath: this).deletingLastPathComponent().appendingPathComponent("layoutsnap").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ValidationError(
                "no layoutsnap binary at \(path): build it first (swift build -c release), or name one with --layoutsnap"
            )
        }
        return path
    }
}

/// The binaries a side-by-side command times: `--layoutsnap` (this build) and `--baseline`.
struct BinaryOptions: ParsableArguments {
    @Option(help: "The layoutsnap binary to time (default: the one beside this program).")
    var layoutsnap: String?

    @Option(help: "Another layoutsnap binary (say a build of main), timed in the same rounds.")
    var baseline: String?

    func validate() throws {
        if let baseline, !FileManager.default.isExecutableFile(atPath: baseline) {
            throw ValidationError("--baseline: no executable at \(baseline)")
        }
    }

    func executable() throws -> String { try BenchBinaries.layoutsnap(layoutsnap) }
}

/// Errors become one line on stderr and exit status 2; results go to stdout.
enum Diagnostics {
    static func run(_ body: () throws -> Int32) throws {
        let code: Int32
        do {
            code = try body()
        } catch let error as ValidationError {
            throw error
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            code = 2
        }
        if code != 0 { throw ExitCode(code) }
    }

    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// `layoutsnap-bench causes`: attribution and grouping of failing frames alone.
struct CausesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "causes",
        abstract: "Time the attribution and grouping of many failing frames into causes (docs/review.md).")

    @Option(help: "Failing frames.")
    var frames: Int = 10_000

    @Option(help: "Pixels per point of the 393 x 852 pt canvas.")
    var scale: Double = 3

    @Option(help: "Runs per measurement; the fastest counts.")
    var repeats: Int = 3

    func run() throws {
        guard frames >= 1, scale > 0, scale <= 4, repeats >= 1 else {
            throw ValidationError("--frames and --repeats must be 1 or more, --scale 0 to 4")
        }
        printCauses(CauseBenchmark(frames: frames, scale: scale, repeats: repeats).run())
    }
}

func printCauses(_ c: CauseBenchmark.Figures) {
    let total = c.attributionSeconds + c.groupingSeconds
    Diagnostics.out(
        "causes             \(c.frames) failing frames of \(c.width) x \(c.height) px: attribution \(String(format: "%.0f", c.attributionSeconds * 1000)) ms (\(String(format: "%.1f", c.attributionSeconds * 1e6 / Double(c.frames))) µs/frame), grouping \(String(format: "%.0f", c.groupingSeconds * 1000)) ms, together \(String(format: "%.2f", total)) s [target < 1 s]; results.json's causes \(String(format: "%.0f", c.resultsSeconds * 1000)) ms"
    )
    for cause in c.causes.prefix(3) { Diagnostics.out("                   cause: \(cause)") }
}

/// `layoutsnap-bench cache`: the result cache's targets (docs/cache.md), whole processes side by side.
struct ThemeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Time verify of the bundled suite with every theme token spelt out at its default, against without.")

    @Option(help: "Rounds; the fastest of each counts.")
    var repeats: Int = 5

    @Option(help: "The layoutsnap binary to time (default: the one beside this program).")
    var layoutsnap: String?

    func run() throws {
        try Diagnostics.run {
            guard repeats >= 1 else { throw RunnerError.usage("--repeats must be 1 or more") }
            let f = try ThemeBenchmark(
                executable: try BenchBinaries.layoutsnap(layoutsnap), peakOf: BenchBinaries.this, repeats: repeats
            ).run { FileHandle.standardError.write(Data("bench: \($0)…\n".utf8)) }
            Diagnostics.out("layoutsnap-bench theme: the bundled suite, --no-cache, fastest of \(repeats) rounds")
            Diagnostics.out(String(format: "without a theme     %6.3f s", f.without))
            Diagnostics.out(
                String(
                    format: "with %d tokens      %6.3f s  = %.3fx without [target ≤ 1.02x]", f.tokens, f.with,
                    f.with / f.without))
            Diagnostics.out("last run: \(f.passed)")
            for failure in f.failures { FileHandle.standardError.write(Data("failed: \(failure)\n".utf8)) }
            return f.failures.isEmpty ? 0 : 1
        }
    }
}

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract:
            "Time verify cold with 1 and 2 jobs, with the cache on, warm from the local folder and from nginx on loopback, and a large generated suite warm."
    )

    @Argument(help: "Fixture files or folders (default: Fixtures/).")
    var paths: [String] = []

    @Option(help: "The goldens folder to verify against.")
    var goldens: String = "Goldens"

    @Option(
        help:
            "Rounds; the fastest of each configuration counts, and the lines with a target also give the rounds' own ratios."
    )
    var repeats: Int = 5

    @Option(help: "Generated fixtures for the large-suite figures (0 skips them).")
    var generated: Int = 10_000

    @OptionGroup var binaries: BinaryOptions

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be 1 or more") }
        guard generated == 0 || (1...FixtureGenerator.maxCount).contains(generated) else {
            throw ValidationError("--generated must be 0 (skip) or from 1 to \(FixtureGenerator.maxCount)")
        }
    }

    func run() throws {
        try Diagnostics.run {
            let (executable, baseline) = (try binaries.executable(), binaries.baseline)
            let f = try CacheBenchmark(
                executable: executable, peakOf: BenchBinaries.this, repeats: repeats, generated: generated,
                fixtures: paths, goldens: goldens, baseline: baseline
            ).run { FileHandle.standardError.write(Data("bench: \($0)…\n".utf8)) }
            func s(_ name: String) -> Double { f.seconds[name] ?? .nan }
            func median(_ values: [Double]) -> Double {
                let sorted = values.sorted()
                return sorted.isEmpty ? .nan : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
            }
            /// The CPU of `name`'s runs against that of the cold 2-job runs, medians of the rounds.
            func cpu(_ name: String) -> String {
                guard let mine = f.cpuSeconds[name], let cold = f.cpuSeconds["cold, 2 jobs"] else { return "" }
                return String(format: "; CPU %.3f s against %.3f s (medians)", median(mine), median(cold))
            }
            /// `name`'s time over `other`'s within each round: the median and quartiles.
            func paired(_ name: String, over other: String, percent: Bool = false) -> String {
                guard let r = CacheBenchmark.pairedRatio(f, name, over: other) else { return "" }
                return percent
                    ? String(
                        format: "; rounds' own %.1f%% (%.1f to %.1f%%)", 100 * r.median, 100 * r.lower, 100 * r.upper)
                    : String(format: "; rounds' own %.2fx (%.2f to %.2fx)", r.median, r.lower, r.upper)
            }
            func line(_ name: String, _ value: Double, _ note: String) {
                Diagnostics.out(
                    "\(name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(String(format: "%6.3f s", value))  \(note)"
                )
            }
            Diagnostics.out(
                "layoutsnap-bench cache: the bundled suite, \(f.frames) frames, fastest of \(repeats) rounds")
            line("cold, 1 job", s("cold, 1 job"), "")
            line(
                "cold, 2 jobs", s("cold, 2 jobs"),
                String(format: "= %.2fx 1 job [target ≤ 0.55x]", s("cold, 2 jobs") / s("cold, 1 job"))
                    + paired("cold, 2 jobs", over: "cold, 1 job"))
            line(
                "2 suites at once", s(CacheBenchmark.pair),
                String(
                    format: "two 1-job runs side by side: each %.2fx its time alone, so 2 jobs can reach %.2fx at best",
                    s(CacheBenchmark.pair) / s("cold, 1 job"), s(CacheBenchmark.pair) / 2 / s("cold, 1 job"))
                    + (CacheBenchmark.pairedRatio(f, CacheBenchmark.pair, over: "cold, 1 job").map {
                        String(
                            format: "; by the rounds' own, %.2fx (%.2f to %.2fx)", $0.median / 2, $0.lower / 2,
                            $0.upper / 2)
                    } ?? ""))
            line(
                "cold, cache on", s("cold, cache on"),
                String(format: "= %.2fx without [target ≤ 1.05x]", s("cold, cache on") / s("cold, 2 jobs"))
                    + paired("cold, cache on", over: "cold, 2 jobs") + cpu("cold, cache on"))
            line(
                "warm, local", s("warm, local"),
                String(
                    format: "= %.1f%% of cold [target ≤ 5%%]; %d of %d frames from cache",
                    100 * s("warm, local") / s("cold, 2 jobs"),
                    f.warmCached, f.frames) + paired("warm, local", over: "cold, 2 jobs", percent: true))
            if f.seconds[CacheBenchmark.audited] != nil {
                line(
                    CacheBenchmark.audited, s(CacheBenchmark.audited),
                    "a warm run of one small fixture alone, its hit rendered to check it (--cache-audit 1)")
            }
            if f.remote {
                line(
                    "cold, remote", s("cold, remote"),
                    String(
                        format:
                            "= %.2fx without [target ≤ 1.05x] (nginx WebDAV on 127.0.0.1\(f.serverOnTmpfs ? ", its files on tmpfs" : ""))",
                        s("cold, remote") / s("cold, 2 jobs"))
                        + paired("cold, remote", over: "cold, 2 jobs") + cpu("cold, remote")
                        + (f.serverCPUSeconds.isEmpty
                            ? "" : String(format: ", nginx's own %.1f ms", 1000 * median(f.serverCPUSeconds))))
                line(
                    "warm, remote", s("warm, remote"),
                    String(format: "= %.1f%% of cold [target ≤ 5%%]", 100 * s("warm, remote") / s("cold, 2 jobs"))
                        + paired("warm, remote", over: "cold, 2 jobs", percent: true))
                line(
                    CacheBenchmark.newMachine, s(CacheBenchmark.newMachine),
                    String(
                        format:
                            "= %.1f%% of cold (warm, remote with an empty XDG_CACHE_HOME each round, as a CI machine that starts empty)",
                        100 * s(CacheBenchmark.newMachine) / s("cold, 2 jobs"))
                        + paired(CacheBenchmark.newMachine, over: "cold, 2 jobs", percent: true))
                if f.seconds[CacheBenchmark.busyUserCache] != nil {
                    line(
                        CacheBenchmark.busyUserCache, s(CacheBenchmark.busyUserCache),
                        String(
                            format:
                                "= %.1f%% of cold (warm, remote, after %d other checkouts verified into the user's cache)",
                            100 * s(CacheBenchmark.busyUserCache) / s("cold, 2 jobs"), CacheBenchmark.otherCheckouts))
                }
                if f.seconds[CacheBenchmark.farRemote] != nil {
                    line(
                        CacheBenchmark.farRemote, s(CacheBenchmark.farRemote),
                        String(
                            format: "= %.1f%% of cold (warm, remote with %d ms of round trip added by a relay)",
                            100 * s(CacheBenchmark.farRemote) / s("cold, 2 jobs"), CacheBenchmark.farMilliseconds))
                }
                if f.seconds[CacheBenchmark.farCold] != nil {
                    line(
                        CacheBenchmark.farCold, s(CacheBenchmark.farCold),
                        String(
                            format: "= %.2fx without (cold, remote with %d ms of round trip added by a relay)",
                            s(CacheBenchmark.farCold) / s("cold, 2 jobs"), CacheBenchmark.farMilliseconds))
                }
            } else {
                Diagnostics.out("remote             nginx is not installed: no remote figures")
            }
            if let baseline {
                // The same configurations of the baseline, each run right after this build's.
                func b(_ name: String) -> Double { f.baselineSeconds[name] ?? .nan }
                Diagnostics.out("baseline \(baseline), in the same rounds:")
                for name in [
                    "cold, 1 job", "cold, 2 jobs", "cold, cache on", "warm, local", CacheBenchmark.audited,
                    "cold, remote", "warm, remote",
                    CacheBenchmark.newMachine, CacheBenchmark.busyUserCache, CacheBenchmark.farRemote,
                    CacheBenchmark.farCold,
                ] where f.baselineSeconds[name] != nil {
                    line(
                        name, b(name),
                        String(format: "this build %.3f s = %.2fx the baseline", s(name), s(name) / b(name)))
                }
                Diagnostics.out(
                    String(
                        format: "baseline's ratios: 2 jobs %.2fx 1 job, cache on %.2fx without, warm %.1f%% of cold",
                        b("cold, 2 jobs") / b("cold, 1 job"), b("cold, cache on") / b("cold, 2 jobs"),
                        100 * b("warm, local") / b("cold, 2 jobs")))
            }
            if f.generatedFixtures > 0 {
                line(
                    "generated, warm", f.generatedWarmSeconds,
                    "\(f.generatedFixtures) fixtures, \(f.generatedFrames) frames (scale 0.25, 5 fps), \(f.generatedWarmCached) from cache [target < 3 s]; recorded in \(String(format: "%.1f", f.generatedRecordSeconds)) s"
                )
                line(
                    "one changed", f.generatedOneChangedSeconds,
                    String(
                        format: "= %.2f s + its own verify %.3f s [target < 3 s + its own]",
                        f.generatedOneChangedSeconds - f.generatedOneChangedOwnSeconds, f.generatedOneChangedOwnSeconds)
                )
            }
            for failure in f.failures.prefix(5) { Diagnostics.out("unexpected: \(failure)") }
            return 0
        }
    }
}

/// `layoutsnap-bench start`: whole processes that mostly start and end, in interleaved rounds.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Time --version, diff of a golden with itself and a warm verify as whole processes: "
            + "fastest, first quartile and median of interleaved rounds."
    )

    @Argument(help: "Fixture files or folders for the warm verify (default: Fixtures/).")
    var paths: [String] = []

    @Option(help: "The goldens folder (the warm verify's, and the largest PNG in it is diffed with itself).")
    var goldens: String = "Goldens"

    @Option(help: "Rounds; each runs every command once per binary.")
    var rounds: Int = 50

    @OptionGroup var binaries: BinaryOptions

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be 1 or more") }
    }

    func run() throws {
        try Diagnostics.run {
            let (executable, baseline) = (try binaries.executable(), binaries.baseline)
            let f = try StartBenchmark(
                executable: executable, peakOf: BenchBinaries.this, rounds: rounds, fixtures: paths, goldens: goldens,
                baseline: baseline
            ).run { FileHandle.standardError.write(Data("bench: \($0)…\n".utf8)) }
            func figures(_ t: StartBenchmark.Times) -> String {
                String(format: "%5.1f / %5.1f / %5.1f ms", t.fastest * 1000, t.firstQuartile * 1000, t.median * 1000)
            }
            func padded(_ name: String) -> String { name.padding(toLength: 18, withPad: " ", startingAt: 0) }
            Diagnostics.out(
                "layoutsnap-bench start: whole processes, \(rounds) interleaved rounds, "
                    + "fastest / first quartile / median")
            for binary in Set([executable] + (baseline.map { [$0] } ?? [])).sorted() {
                if let line = BenchBinaries.runtimeNote(binary) { Diagnostics.out(line) }
            }
            for name in f.names {
                guard let t = f.times[name] else { continue }
                let what =
                    switch name {
                    case StartBenchmark.diff: "\(f.diffed) against itself"
                    case StartBenchmark.warm: "2 jobs, --cache-audit 0: \(f.warmLine)"
                    default: ""
                    }
                Diagnostics.out("\(padded(name)) \(figures(t))" + (what.isEmpty ? "" : "  " + what))
            }
            if let baseline {
                Diagnostics.out("baseline \(baseline), in the same rounds:")
                for name in f.names {
                    guard let t = f.times[name], let b = f.baselineTimes[name] else { continue }
                    Diagnostics.out(
                        "\(padded(name)) \(figures(b))  "
                            + String(
                                format: "this build %.2fx the baseline's fastest, %.2fx its median",
                                t.fastest / b.fastest, t.median / b.median)
                            + (name == StartBenchmark.warm ? "; \(f.baselineWarmLine)" : ""))
                }
            }
            for failure in f.failures.prefix(5) { Diagnostics.out("unexpected: \(failure)") }
            if f.failures.count > 5 { Diagnostics.out("unexpected: … and \(f.failures.count - 5) more") }
            return f.failures.isEmpty ? 0 : 1
        }
    }
}
