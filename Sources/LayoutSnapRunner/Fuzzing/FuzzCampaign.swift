import Foundation
import LayoutSnapSystem
import LayoutSnapCore
import LayoutSnapReport

/// `layoutsnap fuzz`: runs hostile fixtures through the whole pipeline in worker processes of this
/// same binary (`fuzz --worker`), so that a crash or a hang costs one case, not the campaign.
/// Workers report each case on a line; a worker that dies or stays silent too long is replaced,
/// and the case it was on (always the one after its last line, since cases run in order) is
/// written to the findings folder, ready to become a regression fixture.
public struct FuzzCampaign: Sendable {
    public struct Options: Sendable {
        public var executable: String
        public var paths: [String]
        public var seed: UInt64 = 1
        public var from = 0
        public var cases = 10_000
        public var jobs = 1
        /// The per-case watchdog (seconds), as `--timeout` on render.
        public var timeout = 20.0
        /// Seconds without a word from a worker before its case counts as a hang.
        public var hangSeconds = 60.0
        /// Where crashing, hanging and unclear cases are written; nil: nowhere.
        public var findings: String?

        public init(executable: String, paths: [String]) {
            self.executable = executable
            self.paths = paths
        }
    }

    /// Crashes, hangs and unclear errors fail a campaign; stopped cases (the watchdog's) are kept
    /// too, since a fixture that needs more than the timeout is worth a look.
    public enum FindingKind: String, Sendable { case crash, hang, unclear, stopped }

    public struct Finding: Sendable {
        public var kind: FindingKind
        public var index: Int
        public var mutations: String
        public var base: String
        public var detail: String
        /// Where the case was written, when there is a findings folder.
        public var file: String?
    }

    public struct Figures: Sendable {
        public var counts: [FuzzOutcome.Kind: Int] = [:]
        public var frames = 0
        public var findings: [Finding] = []
        /// For each mutation, how its cases ended: an outcome's name, or "crash" or "hang".
        public var byMutation: [String: [String: Int]] = [:]
        public var seconds = 0.0

        public var crashes: Int { findings.count { $0.kind == .crash } }
        public var hangs: Int { findings.count { $0.kind == .hang } }
        public var unclear: Int { findings.count { $0.kind == .unclear } }
        public var total: Int { counts.values.reduce(0, +) + crashes + hangs }
    }

    public let options: Options
    let bases: FuzzBases
    let mutator: FixtureMutator

    public init(options: Options) throws(RunnerError) {
        self.options = options
        bases = try FuzzBases.load(paths: options.paths)
        mutator = FixtureMutator(bases: bases.trees, seed: options.seed)
    }

    public var baseCount: Int { bases.refs.count }

    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws(RunnerError) -> Figures {
        if let dir = options.findings {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw RunnerError.write("fuzz: cannot create \(dir): \(error.localizedDescription)")
            }
        }
        let start = DispatchTime.now()
        let tally = Tally(total: options.cases, progress: progress)
        let jobs = max(1, min(options.jobs, options.cases))
        let group = DispatchGroup()
        for job in 0..<jobs {
            // Contiguous slices: a worker's cases run in order, which is how a death is placed.
            let lower = options.from + options.cases * job / jobs
            let upper = options.from + options.cases * (job + 1) / jobs
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                self.drive(lower..<upper, tally: tally)
            }
            thread.start()
        }
        group.wait()
        if let failure = tally.failure { throw RunnerError.environment(failure) }
        var figures = tally.figures
        figures.findings.sort { $0.index < $1.index }
        figures.seconds = Stopwatch.seconds(since: start)
        return figures
    }

    /// Keeps a worker going over `range` until every case is accounted for.
    func drive(_ range: Range<Int>, tally: Tally) {
        var next = range.lowerBound
        while next < range.upperBound {
            // The same PATH arguments as the campaign's: the worker finds the same bases in the
            // same order, so case i is the same case on both sides.
            let arguments =
                ["fuzz"] + options.paths + [
                    "--worker", "--seed", String(options.seed), "--from", String(next), "--cases",
                    String(range.upperBound - next),
                    "--timeout", String(options.timeout),
                ]
            let child: StreamingChild
            do {
                child = try StreamingChild(options.executable, arguments)
            } catch {
                tally.fail("fuzz: cannot start a worker: \(error.description)")
                return
            }
            var stalled = false
            var reported = 0
            lines: while true {
                switch child.readLine(timeout: options.hangSeconds) {
                case .line(let line):
                    guard let report = WorkerLine(line) else { continue }
                    tally.add(report)
                    reported += 1
                    if report.kind == .unclear {
                        record(.unclear, index: report.index, detail: report.message, tally: tally)
                    }
                    if report.kind == .stopped {
                        record(.stopped, index: report.index, detail: report.message, tally: tally)
                    }
                    next = report.index + 1
                case .timedOut:
                    stalled = true
                    child.kill()
                    break lines
                case .end:
                    break lines
                }
            }
            let ending = try? child.wait()
            if !stalled, reported == 0, let status = ending?.exitStatus {
                // Exited by itself before its first case: the worker could not run at all (its
                // arguments, its bases); starting another would fail the same way.
                tally.fail("fuzz: a worker exited with status \(status) before its first case: \(child.stderrHead)")
                return
            }
            if stalled && next < range.upperBound {
                record(
                    .hang, index: next,
                    detail:
                        "no result after \(Int(options.hangSeconds)) s (the watchdog allows \(options.timeout) s); the worker was killed",
                    tally: tally)
                next += 1
            } else if !stalled && next < range.upperBound {
                record(
                    .crash, index: next,
                    detail:
                        "the worker \(ending.map { $0.signal == nil ? "\($0) before its last case" : "\($0)" } ?? "could not be waited for")\n\(child.stderrHead)",
                    tally: tally)
                next += 1
            }
        }
    }

    func record(_ kind: FindingKind, index: Int, detail: String, tally: Tally) {
        let fuzzCase = mutator.makeCase(index)
        var finding = Finding(
            kind: kind, index: index, mutations: fuzzCase.summary, base: bases.refs[fuzzCase.base].id, detail: detail)
        if let dir = options.findings {
            let stem = "\(dir)/\(kind.rawValue)-\(options.seed)-\(index)"
            let replay =
                "layoutsnap fuzz \(options.paths.joined(separator: " ")) --seed \(options.seed) --from \(index) --cases 1"
            let note = """
                \(kind.rawValue) in case \(index) of seed \(options.seed): \(fuzzCase.summary) applied to \(finding.base)
                \(detail)

                replay: \(replay)
                keep it: copy \(stem).json into Tests/Regressions/ (the regression test renders every file there)

                """
            do {
                try AtomicFile.write(fuzzCase.bytes, to: stem + ".json", durable: false)
                try AtomicFile.write(Array(note.utf8), to: stem + ".txt", durable: false)
                finding.file = stem + ".json"
            } catch {
                finding.detail += "\n(the case could not be written: \(error.description))"
            }
        }
        tally.add(finding)
    }

    /// The figures, shared by the driving threads.
    final class Tally: Sendable {
        private struct State {
            var value = Figures()
            var done = 0
            /// The campaign cannot go on (no worker can start); the first reason is kept.
            var failure: String?
        }

        private let state = LockedValue(State())
        let total: Int
        let progress: (@Sendable (Int, Int) -> Void)?

        init(total: Int, progress: (@Sendable (Int, Int) -> Void)?) {
            self.total = total
            self.progress = progress
        }

        var figures: Figures { state.withLock { $0.value } }
        var failure: String? { state.withLock { $0.failure } }

        func fail(_ message: String) { state.withLock { if $0.failure == nil { $0.failure = message } } }

        func add(_ report: WorkerLine) {
            state.withLock { s in
                s.value.counts[report.kind, default: 0] += 1
                s.value.frames += report.frames
                for m in report.mutations.split(separator: "+") {
                    s.value.byMutation[String(m), default: [:]][report.kind.rawValue, default: 0] += 1
                }
                s.done += 1
                progress?(s.done, total)
            }
        }

        func add(_ finding: Finding) {
            state.withLock { s in
                s.value.findings.append(finding)
                if finding.kind == .crash || finding.kind == .hang {
                    for m in finding.mutations.split(separator: "+") {
                        s.value.byMutation[String(m), default: [:]][finding.kind.rawValue, default: 0] += 1
                    }
                    s.done += 1
                    progress?(s.done, total)
                }
            }
        }
    }

    // MARK: The worker's side

    /// `fuzz --worker`: runs cases `from..<from + cases` in order, a line each on stdout.
    /// `LAYOUTSNAP_FAULT_FUZZ_CRASH=N` and `LAYOUTSNAP_FAULT_FUZZ_HANG=N` make case N crash or hang,
    /// so the tests can show what the campaign does with them.
    public static func work(paths: [String], seed: UInt64, from: Int, cases: Int, timeout: Double) throws(RunnerError) {
        let worker = try FuzzWorker(bases: FuzzBases.load(paths: paths), seed: seed, timeout: timeout)
        let environment = ProcessInfo.processInfo.environment
        let crashAt = environment["LAYOUTSNAP_FAULT_FUZZ_CRASH"].flatMap(Int.init)
        let hangAt = environment["LAYOUTSNAP_FAULT_FUZZ_HANG"].flatMap(Int.init)
        for index in from..<(from + cases) {
            if index == crashAt {
                // A real invalid write, as a crash in C would be (raise() can be resumed).
                UnsafeMutablePointer<Int>(bitPattern: 0x10)!.pointee = 1
            }
            if index == hangAt { while true { sleep(60) } }
            let (fuzzCase, outcome) = worker.run(index)
            let line = WorkerLine(
                index: index, kind: outcome.kind, frames: outcome.frames, mutations: fuzzCase.summary,
                message: outcome.message
            ).text
            // One write per line, so the parent never sees half a report from a worker that dies.
            let bytes = Array(line.utf8)
            do {
                try bytes.withUnsafeBytes { buffer in try SystemCall.writeAll(1, buffer) }
            } catch {
                exit(Outcome.orphanedWorkerExitCode)  // the parent is gone or its pipe is broken
            }
        }
    }
}

/// A worker's report of one case: `index<TAB>kind<TAB>frames<TAB>mutations<TAB>message`, one
/// line. The mutations travel with it so the parent never rebuilds a case (some are megabytes)
/// except to write a finding.
struct WorkerLine {
    var index: Int
    var kind: FuzzOutcome.Kind
    var frames: Int
    var mutations: String
    var message: String

    init(index: Int, kind: FuzzOutcome.Kind, frames: Int, mutations: String, message: String) {
        self.index = index
        self.kind = kind
        self.frames = frames
        self.mutations = mutations
        self.message = message
    }

    init?(_ line: String) {
        let parts = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let index = Int(parts[0]), let kind = FuzzOutcome.Kind(rawValue: String(parts[1])),
            let frames = Int(parts[2])
        else { return nil }
        self.init(index: index, kind: kind, frames: frames, mutations: String(parts[3]), message: String(parts[4]))
    }

    var text: String {
        // Only unclear and stopped cases need their message; others keep the pipe quiet.
        let keep = kind == .unclear || kind == .stopped
        let flat =
            keep
            ? String(message.prefix(2000)).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(
                of: "\t", with: " ") : ""
        return "\(index)\t\(kind.rawValue)\t\(frames)\t\(mutations)\t\(flat)\n"
    }
}
