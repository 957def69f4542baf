import Foundation
import LayoutSnapCore
import LayoutSnapRunner
import LayoutSnapSystem

/// The result cache's figures (docs/cache.md), whole processes of the `layoutsnap` binary side by
/// side in interleaved rounds (each in a shuffled order), the fastest of each counting: the bundled suite cold with 1 and 2
/// jobs, cold with the cache on (an empty folder each round), warm from the local folder, and,
/// when Debian's nginx is installed, cold and warm against a WebDAV server on loopback (and warm
/// through a relay that puts it 10 ms away); then a large generated suite recorded once and
/// verified warm, unchanged and with one fixture changed.
public struct CacheBenchmark {
    public let executable: String
    public let peakOf: String
    public let repeats: Int
    /// Generated fixtures for the large-suite figures (0 skips them).
    public let generated: Int
    public let fixtures: [String]
    public let goldens: String
    /// Another layoutsnap (say the previous build), timed in the same rounds on the bundled
    /// suite, each configuration right after this one's, with caches of its own.
    public let baseline: String?

    public init(
        executable: String, peakOf: String, repeats: Int, generated: Int, fixtures: [String] = [],
        goldens: String = "Goldens", baseline: String? = nil
    ) {
        self.baseline = baseline
        self.executable = executable
        self.peakOf = peakOf
        self.repeats = repeats
        self.generated = generated
        self.fixtures = fixtures
        self.goldens = goldens
    }

    public struct Figures: Sendable {
        public var frames = 0
        /// Seconds, fastest of the rounds, by configuration name.
        public var seconds: [String: Double] = [:]
        /// Seconds of every round, in round order, by configuration name: each line's ratio to
        /// another within the same rounds (`pairedRatio`).
        public var roundSeconds: [String: [Double]] = [:]
        /// The baseline's, by the same names.
        public var baselineSeconds: [String: Double] = [:]
        /// CPU seconds of each round, by configuration name: steadier than the wall time on a
        /// loud machine, whose steal and contention lengthen a run more than its work.
        public var cpuSeconds: [String: [Double]] = [:]
        /// The CPU nginx took in each `cold, remote` round, in seconds: on loopback the server's
        /// work shares the run's two cores.
        public var serverCPUSeconds: [Double] = []
        public var warmCached = 0
        public var remote = false
        /// Whether the server's files were on tmpfs (`NginxWebDAV.start`).
        public var serverOnTmpfs = false
        public var generatedFixtures = 0
        public var generatedFrames = 0
        public var generatedRecordSeconds = 0.0
        public var generatedWarmSeconds = 0.0
        public var generatedWarmCached = 0
        public var generatedOneChangedSeconds = 0.0
        public var generatedOneChangedOwnSeconds = 0.0
        public var failures: [String] = []
    }

    public func run(progress: (String) -> Void) throws(RunnerError) -> Figures {
        var f = Figures()
        let root = NSTemporaryDirectory() + "layoutsnap-bench-cache-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = fixtures + ["--goldens", goldens, "--no-progress"]
        // A fresh XDG_CACHE_HOME for each run of `newMachine`: no memo of the fonts' hashes or
        // faces, as on a CI machine that starts empty. Every other run has one per binary, kept
        // for the bench (a user who has verified this suite before): not the user's own, whose
        // memos hold whatever else this machine verified, and which the baseline would share.
        let homes = LockedValue(0)
        let ownHome = root + "/home"
        func busyHome(_ binary: String?) -> String { root + "/home-busy" + (binary == nil ? "" : "-baseline") }
        func verify(_ name: String, _ extra: [String], by binary: String? = nil) throws(RunnerError)
            -> ChildProcess.Outcome
        {
            var environment = Self.userCache(binary == nil ? ownHome : ownHome + "-baseline")
            if name == Self.newMachine {
                let n = homes.withLock { count in
                    count += 1
                    return count
                }
                environment = Self.userCache(root + "/home-\(n)")
            }
            if name == Self.busyUserCache { environment = Self.userCache(busyHome(binary)) }
            // `--cache-audit 0` but where a configuration gives its own: given twice, an option
            // takes verify off its fast path (FastPath), which would time argument-parser too.
            let audit = extra.contains("--cache-audit") ? [] : ["--cache-audit", "0"]
            let out = try ChildProcess.run(
                binary ?? executable, ["verify"] + base + audit + ["--report", root + "/report-" + name] + extra,
                peakOf: peakOf,
                environment: environment)
            if out.status != 0 { f.failures.append("\(name): exit \(out.status): \(out.stderrTail.suffix(300))") }
            return out
        }

        let server = NginxWebDAV.start(orIn: root + "/nginx")
        defer { server?.stop() }
        // The same server 10 ms away (`farRemote`).
        let far = server.flatMap { DelayingRelay(to: $0.port, delayMilliseconds: Self.farMilliseconds / 2) }
        defer { far?.stop() }
        f.remote = server != nil
        f.serverOnTmpfs = server?.onTmpfs ?? false
        // The warm stores, filled once.
        progress("filling the caches")
        _ = try verify("fill", ["--cache", root + "/warm"])
        if let server { _ = try verify("fill-remote", ["--no-cache", "--remote-cache", server.url]) }
        let defaultLayout =
            fixtures.isEmpty && goldens == "Goldens"
            && !FileManager.default.fileExists(atPath: ProjectConfig.fileName)
        // `audited`'s folder: the one fixture's entry alone, so that its rewrite at each audit
        // touches no other line's folder.
        let audited = defaultLayout ? Self.auditedFixture() : nil
        if let audited { _ = try verify("fill", ["--cache", root + "/audit", "--filter", audited]) }
        // The baseline's own: its keys differ (its build id is in them), its folder too.
        if let baseline {
            _ = try verify("fill", ["--cache", root + "/warm-baseline"], by: baseline)
            if let audited {
                _ = try verify("fill", ["--cache", root + "/audit-baseline", "--filter", audited], by: baseline)
            }
            if let server {
                _ = try verify("fill-remote", ["--no-cache", "--remote-cache", server.url], by: baseline)
            }
        }
        // `busyUserCache`'s user caches: the same suite verified from the server in other
        // checkouts first, as on a shared CI runner, then from this one. Only for the default
        // layout (Fixtures/ and Goldens/, no layoutsnap.json), which a copy keeps whole: the
        // runs keep the bench's working folder, so a copied subfolder or project file would
        // change the fixtures' ids or defaults.
        if let server, defaultLayout {
            progress("verifying \(Self.otherCheckouts) other checkouts into a user cache")
            let checkouts = (1...Self.otherCheckouts).map { root + "/checkout-\($0)" }
            for checkout in checkouts {
                try? FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
                for folder in ["Fixtures", "Goldens"] {
                    do {
                        try FileManager.default.copyItem(atPath: folder, toPath: checkout + "/" + folder)
                    } catch {
                        throw RunnerError.environment("bench: cannot copy \(folder) into \(checkout): \(error)")
                    }
                }
            }
            // A golden is remembered once it has been still for two seconds (`FileHashMemo`), and
            // a copy is new: without the wait, no checkout would leave a memo behind.
            Thread.sleep(forTimeInterval: 2.1)
            for (k, checkout) in checkouts.enumerated() {
                for binary in [nil] + (baseline.map { [$0] } ?? []) {
                    let out = try ChildProcess.run(
                        binary ?? executable,
                        [
                            "verify", checkout + "/Fixtures", "--goldens", checkout + "/Goldens", "--no-progress",
                            "--cache-audit", "0", "--report", checkout + "/report", "--no-cache", "--remote-cache",
                            server.url,
                        ], peakOf: peakOf, environment: Self.userCache(busyHome(binary)))
                    if out.status != 0 {
                        f.failures.append("checkout \(k + 1): exit \(out.status): \(out.stderrTail.suffix(300))")
                    }
                }
            }
            // Then this checkout, so that every timed round finds its own memo too: a memo for
            // each checkout in each user cache, or the line times something else.
            for binary in [nil] + (baseline.map { [$0] } ?? []) {
                _ = try verify(Self.busyUserCache, ["--no-cache", "--remote-cache", server.url], by: binary)
                let memos = busyHome(binary) + "/layoutsnap/golden-hashes"
                let written = ((try? FileManager.default.contentsOfDirectory(atPath: memos)) ?? []).filter {
                    $0.hasSuffix(".xxh3")
                }
                if written.count != Self.otherCheckouts + 1 {
                    f.failures.append(
                        "\(Self.busyUserCache): \(memos) holds \(written.count) goldens memos, not \(Self.otherCheckouts + 1)"
                    )
                }
            }
        }

        let coldFolders = LockedValue(0)
        var configurations: [(String, () -> [String])] = [
            ("cold, 1 job", { ["--no-cache", "--jobs", "1"] }),
            ("cold, 2 jobs", { ["--no-cache", "--jobs", "2"] }),
            (
                "cold, cache on",
                {
                    // A folder never used before each time, none removed until the bench ends: on
                    // an ext4 without a journal, a file made soon after many were deleted costs
                    // the kernel a scan past each deleted inode (`recently_deleted`), up to half a
                    // millisecond a file in `perf`. Removing the last round's folder just before
                    // the run charged that to the cache; a first run does not follow a deletion.
                    let n = coldFolders.withLock { count in
                        count += 1
                        return count
                    }
                    return ["--cache", root + "/cold-\(n)", "--jobs", "2"]
                }
            ),
            ("warm, local", { ["--cache", root + "/warm", "--jobs", "2"] }),
        ]
        if let audited {
            configurations.append(
                (
                    Self.audited,
                    { ["--cache", root + "/audit", "--jobs", "2", "--filter", audited, "--cache-audit", "1"] }
                ))
        }
        if let server {
            configurations.append(
                (
                    "cold, remote",
                    {
                        // A path of its own each round: the server holds nothing under it.
                        [
                            "--no-cache", "--remote-cache", server.url + "/\(UInt32.random(in: 0...UInt32.max))",
                            "--jobs", "2",
                        ]
                    }
                ))
            configurations.append(("warm, remote", { ["--no-cache", "--remote-cache", server.url, "--jobs", "2"] }))
            configurations.append((Self.newMachine, { ["--no-cache", "--remote-cache", server.url, "--jobs", "2"] }))
            if defaultLayout {
                configurations.append(
                    (Self.busyUserCache, { ["--no-cache", "--remote-cache", server.url, "--jobs", "2"] }))
            }
            if let far {
                let url = "http://127.0.0.1:\(far.port)/cache"
                configurations.append((Self.farRemote, { ["--no-cache", "--remote-cache", url, "--jobs", "2"] }))
                configurations.append(
                    (
                        Self.farCold,
                        {
                            // A path of its own each round, as `cold, remote`.
                            [
                                "--no-cache", "--remote-cache", url + "/\(UInt32.random(in: 0...UInt32.max))", "--jobs",
                                "2",
                            ]
                        }
                    ))
            }
        }
        // Each round takes the configurations in an order of its own (the same rounds in every
        // bench run): in a fixed order, each line always followed the same one, so whatever a
        // run leaves behind (its files' writeback, the host's state) fell on the same line in
        // every round.
        var order = SeededRandom(seed: 0x6c61_796f_7574)
        for round in 0..<repeats {
            var shuffled = configurations
            for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
                shuffled.swapAt(i, order.int(0...i))
            }
            for (name, arguments) in shuffled {
                progress("round \(round + 1) of \(repeats): \(name)")
                // With a baseline, which of the two goes first alternates: a run pays for what the
                // one before it left behind (the server's writes of a cold run, say).
                func baselineRun() throws(RunnerError) {
                    guard let baseline else { return }
                    let arguments = arguments().map {
                        $0 == root + "/warm" || $0 == root + "/audit" ? $0 + "-baseline" : $0
                    }
                    let before = try verify(name, arguments, by: baseline)
                    f.baselineSeconds[name] = min(f.baselineSeconds[name] ?? .infinity, before.seconds)
                }
                if round % 2 == 1 { try baselineRun() }
                let serverBefore = name == "cold, remote" ? server?.cpuSeconds : nil
                let out = try verify(name, arguments())
                if let serverBefore, let after = server?.cpuSeconds { f.serverCPUSeconds.append(after - serverBefore) }
                f.seconds[name] = min(f.seconds[name] ?? .infinity, out.seconds)
                f.roundSeconds[name, default: []].append(out.seconds)
                if let cpu = out.cpuSeconds { f.cpuSeconds[name, default: []].append(cpu) }
                if name != Self.audited,
                    let passed = out.stdoutLastLine.split(separator: " ").first.flatMap({ Int($0) })
                {
                    f.frames = passed
                }
                if name == "warm, local", let cached = Self.fromCache(out.stdoutLastLine) { f.warmCached = cached }
                if round % 2 == 0 { try baselineRun() }
            }
            // What two cores give this work at all: two whole one-job suites at once, each with
            // its own report. Half their time is the least a perfectly parallel 2-job run
            // could take; the machine's shared memory and caches set it, not layoutsnap.
            progress("round \(round + 1) of \(repeats): two one-job runs at once")
            let started = DispatchTime.now()
            let pair = LockedValue([ChildProcess.Outcome?](repeating: nil, count: 2))
            let (executable, peakOf) = (executable, peakOf)
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                let out = try? ChildProcess.run(
                    executable,
                    ["verify"] + base + [
                        "--cache-audit", "0", "--report", root + "/report-pair-\(k)", "--no-cache", "--jobs", "1",
                    ],
                    peakOf: peakOf, environment: Self.userCache(ownHome))
                pair.withLock { $0[k] = out }
            }
            let seconds = Stopwatch.seconds(since: started)
            for out in pair.withLock({ $0 }) where out?.status != 0 {
                f.failures.append("two one-job runs at once: \(out.map { "exit \($0.status)" } ?? "did not start")")
            }
            f.seconds[Self.pair] = min(f.seconds[Self.pair] ?? .infinity, seconds)
            f.roundSeconds[Self.pair, default: []].append(seconds)
        }
        if generated > 0 { try large(into: &f, root: root, progress: progress) }
        return f
    }

    /// The median and quartiles of `name`'s time over `other`'s, each round's runs against each
    /// other: the fastest of each line is one run, and here a line's fastest was often one lucky
    /// round (the same code's 1-job run took 0.71 to 1.20 s in one bench run, its CPU time moving
    /// as much), so the ratio of two fastest moves by ten points between runs with nothing changed.
    /// The rounds' own ratios share each round's state of the machine.
    public static func pairedRatio(_ f: Figures, _ name: String, over other: String) -> (
        median: Double, lower: Double, upper: Double
    )? {
        guard let mine = f.roundSeconds[name], let theirs = f.roundSeconds[other], !mine.isEmpty,
            mine.count == theirs.count
        else { return nil }
        let ratios = zip(mine, theirs).map { $0 / $1 }.sorted()
        func quantile(_ q: Double) -> Double {
            let at = q * Double(ratios.count - 1)
            let (low, high) = (Int(at.rounded(.down)), Int(at.rounded(.up)))
            return ratios[low] + (ratios[high] - ratios[low]) * (at - Double(low))
        }
        return (quantile(0.5), quantile(0.25), quantile(0.75))
    }

    /// The environment of a run whose user's cache (`UserCache`) is `folder`: the bench's own,
    /// never the user's.
    static func userCache(_ folder: String) -> [String: String] { ["XDG_CACHE_HOME": folder] }

    /// The figure of two one-job runs at once.
    public static let pair = "two 1-job runs at once"

    /// The figure of a warm run of one small fixture whose hit is audited (`--cache-audit 1`):
    /// the whole run, whose audit loads the libraries, sets up the fonts and renders the
    /// fixture. With the default rate of 0.02, most warm runs of the bundled suite draw one.
    public static let audited = "audited hit"

    /// The bundled suite's one-line transcript, else the first fixture of `Fixtures/` by id, as
    /// verify finds them, and one that `--filter` matches as itself (no pattern characters).
    static func auditedFixture() -> String? {
        guard let refs = try? FixtureDiscovery.discover(paths: []) else { return nil }
        // Not a folder that could not be read (its id ends in "/"), nor a variant.
        let ids = refs.filter { $0.problem == nil && $0.variant == nil }.map(\.id)
        if ids.contains("transcripts/one-line") { return "transcripts/one-line" }
        return ids.filter { id in !id.contains { "*?[]{}\\".contains($0) } }.sorted().first
    }

    /// The figure of a warm run from the remote store alone on a machine that never ran
    /// layoutsnap: the user's memos of the fonts empty.
    public static let newMachine = "warm, new machine"

    /// The figure of a warm run from the remote store alone whose user's cache also holds what
    /// `otherCheckouts` other checkouts of the suite left there (a shared CI runner, where each
    /// job checks out into a folder of its own): the goldens' memos (`UserGoldenMemos`).
    public static let otherCheckouts = 3
    public static let busyUserCache = "warm, \(otherCheckouts + 1) checkouts"

    /// The figure of a warm run from the same server with `farMilliseconds` of round trip
    /// between (`DelayingRelay`): a team's cache server across a network.
    public static let farRemote = "warm, 10 ms away"
    /// The figure of a cold run against that server: every lookup a miss, every entry put.
    public static let farCold = "cold, 10 ms away"
    public static let farMilliseconds = 10

    /// `732 passed (700 from cache), 0 failed` → 700.
    static func fromCache(_ line: String) -> Int? {
        guard let open = line.firstIndex(of: "(") else { return nil }
        return Int(line[line.index(after: open)...].prefix { $0.isNumber })
    }

    /// A generated suite at a quarter of the scale and 5 frames a second, recorded (which fills
    /// the cache), verified warm; then one fixture changed, verified warm, and that fixture alone
    /// verified cold (its own rendering).
    private func large(into f: inout Figures, root: String, progress: (String) -> Void) throws(RunnerError) {
        let folder = root + "/generated"
        let small = ["--scale", "0.25", "--fps", "5", "--no-progress", "--goldens", folder + "/goldens"]
        let cache = ["--cache", folder + "/cache", "--cache-audit", "0"]
        f.generatedFixtures = try GeneratedBatch.write(
            kinds: FixtureKind.allCases, count: generated, seed: 3, to: folder + "/fixtures"
        ).total
        progress("recording \(generated) generated fixtures (fills the cache)")
        let record = try ChildProcess.run(
            executable, ["record", folder + "/fixtures", "--allow-ci", "--quiet"] + small + cache, peakOf: peakOf,
            environment: Self.userCache(root + "/home"))
        guard record.status == 0 else {
            throw RunnerError.environment("bench: recording failed (exit \(record.status)): \(record.stderrTail)")
        }
        f.generatedRecordSeconds = record.seconds
        func verify(_ paths: [String], _ extra: [String]) throws(RunnerError) -> ChildProcess.Outcome {
            try ChildProcess.run(
                executable, ["verify"] + paths + small + ["--report", folder + "/report"] + extra, peakOf: peakOf,
                environment: Self.userCache(root + "/home"))
        }
        for round in 0..<repeats {
            progress("round \(round + 1) of \(repeats): \(generated) generated fixtures, warm")
            let warm = try verify([folder + "/fixtures"], cache)
            f.generatedWarmSeconds = round == 0 ? warm.seconds : min(f.generatedWarmSeconds, warm.seconds)
            f.generatedWarmCached = Self.fromCache(warm.stdoutLastLine) ?? 0
            if let passed = warm.stdoutLastLine.split(separator: " ").first.flatMap({ Int($0) }) {
                f.generatedFrames = passed
            }
        }
        // One fixture changed: its text, so its frames differ from its goldens (it fails, as it
        // would without a cache); every other fixture is a hit.
        let files =
            FileManager.default.enumerator(atPath: folder + "/fixtures")?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.sorted() ?? []
        guard let first = files.first else { return }
        let path = folder + "/fixtures/" + first
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let quote = text.range(of: "\"text\": \"") ?? text.range(of: "\"title\": \"")
                ?? text.range(of: "\"body\": \"")
        else { return }
        for round in 0..<repeats {
            // Another text each round: the changed fixture is a miss every time.
            let changed = text.replacingCharacters(in: quote, with: String(text[quote]) + "Changed \(round) ")
            try? changed.write(toFile: path, atomically: true, encoding: .utf8)
            progress("round \(round + 1) of \(repeats): one of \(generated) changed")
            let one = try verify([folder + "/fixtures"], cache)
            f.generatedOneChangedSeconds = round == 0 ? one.seconds : min(f.generatedOneChangedSeconds, one.seconds)
            let own = try verify([path], ["--no-cache"])
            f.generatedOneChangedOwnSeconds =
                round == 0 ? own.seconds : min(f.generatedOneChangedOwnSeconds, own.seconds)
        }
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// Debian's nginx serving a WebDAV folder with PUT on a free loopback port, as Bazel's
/// documentation configures it for its HTTP cache; nil when nginx is not installed.
final class NginxWebDAV {
    let pid: pid_t
    let port: UInt16
    /// Where its files are; removed at `stop` when on tmpfs (the bench's own folder goes anyway).
    let folder: String
    let onTmpfs: Bool
    var url: String { "http://127.0.0.1:\(port)/cache" }

    private init(pid: pid_t, port: UInt16, folder: String, onTmpfs: Bool) {
        self.pid = pid
        self.port = port
        self.folder = folder
        self.onTmpfs = onTmpfs
    }

    /// The server's files go on tmpfs (`/dev/shm`) where there is one, else in `fallback`. The
    /// server's disk is its own, not what the bench measures, and this machine's root, ext4
    /// without a journal, charged nginx's temporary files in a folder made for the bench up to
    /// 0.9 ms each to create (442 µs an `openat` on average in `strace`, against 14 µs in a
    /// folder months old): 18 to 33 ms of nginx's CPU a cold round in the bench (62 ms at the
    /// median for one started alike in another new folder), against 10 ms on tmpfs, on the two
    /// cores the run renders on.
    static func start(orIn fallback: String) -> NginxWebDAV? {
        let candidates = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        guard let nginx = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        let onTmpfs =
            mounts.split(separator: "\n").contains {
                let fields = $0.split(separator: " ")
                return fields.count > 2 && fields[1] == "/dev/shm" && fields[2] == "tmpfs"
            } && access("/dev/shm", W_OK) == 0
        if onTmpfs { sweepFoldersOfEndedBenches() }
        guard let (listener, port) = try? SystemCall.listenOnLoopback(port: 0) else { return nil }
        try? SystemCall.close(listener)
        let folder =
            onTmpfs ? "/dev/shm/\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : fallback
        try? FileManager.default.createDirectory(atPath: folder + "/store/cache", withIntermediateDirectories: true)
        let user = geteuid() == 0 ? "user root;" : ""
        let config = """
            daemon off; master_process off; worker_processes 1; \(user)
            pid \(folder)/nginx.pid; error_log \(folder)/error.log;
            events { worker_connections 256; }
            http {
              access_log off;
              client_body_temp_path \(folder)/body; proxy_temp_path \(folder)/proxy;
              fastcgi_temp_path \(folder)/fastcgi; uwsgi_temp_path \(folder)/uwsgi; scgi_temp_path \(folder)/scgi;
              server {
                listen 127.0.0.1:\(port);
                location /cache/ { root \(folder)/store; dav_methods PUT; create_full_put_path on; client_max_body_size 64m; }
              }
            }
            """
        let arguments = ["-p", folder, "-c", folder + "/nginx.conf", "-e", folder + "/error.log"]
        guard (try? config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)) != nil,
            let pid = try? Spawn.start(nginx, arguments, files: { _ in })
        else {
            if onTmpfs { try? FileManager.default.removeItem(atPath: folder) }
            return nil
        }
        let server = NginxWebDAV(pid: pid, port: port, folder: folder, onTmpfs: onTmpfs)
        for _ in 0..<300 {
            if let fd = try? SystemCall.connect(host: "127.0.0.1", port: port, milliseconds: 100) {
                try? SystemCall.close(fd)
                return server
            }
            usleep(10_000)
        }
        server.stop()
        return nil
    }

    static let prefix = "layoutsnap-bench-nginx-"

    /// Removes the tmpfs folders of benches that ended without stopping their server (killed):
    /// memory until the machine restarts otherwise. A folder's name starts with its bench's pid.
    static func sweepFoldersOfEndedBenches() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: "/dev/shm/" + name)
        }
    }

    /// The server's CPU time so far, every thread's, in seconds: its process CPU clock, in
    /// nanoseconds (`/proc/PID/stat` counts 10 ms ticks, about what a cold round costs it, and
    /// `schedstat` reads zero where the kernel keeps no scheduler statistics); nil when it cannot
    /// be read.
    var cpuSeconds: Double? {
        var clock = clockid_t()
        var time = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func stop() {
        kill(pid, SIGKILL)
        _ = try? Spawn.wait(pid)
        if onTmpfs { try? FileManager.default.removeItem(atPath: folder) }
    }
}
