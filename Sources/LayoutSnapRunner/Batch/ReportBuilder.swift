import Foundation
import LayoutSnapSystem
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapReport

/// Turns a verify run into the report folder (docs/report.md): `results.json`, `index.html`, and the
/// images a reader needs: actual and diff images of frames that are not plain passes (written by
/// the verify handler) and, for every state with such a frame, each frame's golden copied in, so
/// the page can scrub the whole animation from disk with no other folder.
public struct ReportBuilder: Sendable {
    public let reportDirectory: String
    public let goldens: String
    /// What a lint finding is: a warning (`--lint warn`) or a failure (`--lint error`).
    public var lintSeverity = Severity.warning

    /// The `expected/` files this builder's entries name, when the earlier report's are kept
    /// (`clearPrevious(keepingExpected:)`): what `sweepExpected` leaves.
    private let named = LockedValue<Set<String>>([])

    public init(reportDirectory: String, goldens: String) {
        self.reportDirectory = reportDirectory
        self.goldens = goldens
    }

    /// Removes what an earlier verify left in the report folder, and only that: only when the
    /// folder holds a layoutsnap results.json, so `--report .` or a folder of the user's own never
    /// loses an `actual/` or `diff/` that layoutsnap did not write.
    ///
    /// The folders are renamed out of the way at once and removed on another thread while the run
    /// goes on (removing thousands of linked goldens was a twentieth of a warm run);
    /// `Clearing.wait` waits for that. A folder left by a run that was killed meanwhile goes with
    /// the next clearing.
    ///
    /// With `keepingExpected`, `expected/` stays where it is: its files are links to goldens, and
    /// a run that shows the same frames (a warm run of fixtures with lint findings shows every
    /// frame of their states) finds each already linked to its golden and keeps it, instead of
    /// making thousands of folders and links again after removing as many (on this machine's
    /// ext4, over half of such a run's CPU, most of it the kernel's). `sweepExpected` then removes
    /// what this run's entries do not name. Kept only where there is no `expected/` yet, or where
    /// it is a folder (not a link to one, which would take this run's links and its sweep
    /// elsewhere) and the folder's results.json is layoutsnap's (`Clearing.sweepsExpected`).
    /// What the kept folder holds that layoutsnap never writes there, a symbolic link above all
    /// (a linked folder would have a golden's link replace a file wherever it leads), goes
    /// before the run.
    @discardableResult
    public func clearPrevious(keepingExpected: Bool = false) -> Clearing {
        let ours = Self.isLayoutsnapResults(reportDirectory + "/results.json")
        let there = SystemCall.status(reportDirectory + "/expected", followsLinks: false)
        let keeps = keepingExpected && (there == nil || (ours && there!.st_mode & S_IFMT == S_IFDIR))
        let clearing = Clearing(sweepsExpected: keeps, found: keeps && there != nil ? inventory() : ([], []))
        guard ours else { return clearing }
        let fm = FileManager.default
        var doomed: [String] = []
        for name in (try? fm.contentsOfDirectory(atPath: reportDirectory)) ?? []
        where name.hasPrefix(Self.clearingPrefix) {
            doomed.append(reportDirectory + "/" + name)
        }
        for item in ["actual", "expected", "diff"] where !(item == "expected" && clearing.sweepsExpected) {
            let path = reportDirectory + "/" + item
            let aside = "\(reportDirectory)/\(Self.clearingPrefix)\(getpid())-\(item)"
            if (try? Posix.rename(path, aside)) != nil {
                doomed.append(aside)
            } else {
                try? fm.removeItem(atPath: path)
            }
        }
        for item in ["index.html", "results.json"] { try? fm.removeItem(atPath: reportDirectory + "/" + item) }
        guard !doomed.isEmpty else { return clearing }
        let paths = doomed
        clearing.group.enter()
        DispatchQueue.global(qos: .utility).async {
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
            clearing.group.leave()
        }
        return clearing
    }

    /// What an earlier report's folders are renamed to while they are removed.
    static let clearingPrefix = ".layoutsnap-clearing-"

    /// An earlier report being removed in the background.
    public final class Clearing: Sendable {
        let group = DispatchGroup()
        /// Whether `expected/` was kept, for `sweepExpected` to finish.
        public let sweepsExpected: Bool
        /// The kept folder's files and folders (relative to the report), as the run found them.
        let found: (files: [String], folders: [String])

        init(sweepsExpected: Bool = false, found: (files: [String], folders: [String]) = ([], [])) {
            self.sweepsExpected = sweepsExpected
            self.found = found
        }

        /// Returns when the earlier report's files are gone.
        public func wait() { group.wait() }
    }

    /// The files and folders of a kept `expected/`, read once before the run (readdir, not
    /// FileManager's enumerator: this walk is on every verify's path); anything else in it (a
    /// symbolic link, a name that is not UTF-8) is removed now.
    private func inventory() -> (files: [String], folders: [String]) {
        var files: [String] = []
        var folders: [String] = []
        func walk(_ relative: String) {
            guard case .success(let entries) = SystemCall.folderEntries(reportDirectory + "/" + relative) else {
                return
            }
            for entry in entries {
                let path = relative + "/" + entry.name
                if entry.isUTF8 && entry.isFolder {
                    walk(path)
                    folders.append(path)
                } else if entry.isUTF8,
                    let info = SystemCall.status(reportDirectory + "/" + path, followsLinks: false),
                    info.st_mode & S_IFMT == S_IFREG
                {
                    files.append(path)
                } else {
                    try? FileManager.default.removeItem(atPath: reportDirectory + "/" + path)
                }
            }
        }
        walk("expected")
        return (files, folders)
    }

    /// Removes a kept `expected/` whole (a run that stopped before its results); nothing when
    /// `clearing` did not keep it, which is when the folder may not be layoutsnap's.
    public func removeExpected(_ clearing: Clearing) {
        guard clearing.sweepsExpected else { return }
        try? FileManager.default.removeItem(atPath: reportDirectory + "/expected")
    }

    /// Removes every file of a kept `expected/` that this builder's entries do not name, and the
    /// folders left empty; nothing when `clearing` did not keep it. Every file this run put there
    /// is named, so the earlier files (`Clearing.found`) are all there is to look at.
    public func sweepExpected(_ clearing: Clearing) {
        guard clearing.sweepsExpected else { return }
        let keep = named.withLock { $0 }
        for file in clearing.found.files where !keep.contains(file) {
            try? FileManager.default.removeItem(atPath: reportDirectory + "/" + file)
        }
        // Deepest first (the walk lists a folder after what it holds); one that still holds
        // something stays.
        for folder in clearing.found.folders { _ = rmdir(reportDirectory + "/" + folder) }
        _ = rmdir(reportDirectory + "/expected")
    }

    /// Whether `path` is a results.json layoutsnap wrote, told from its ends without reading it
    /// whole (a 10,000-fixture report is 25 MB, and decoding it took more memory than the run):
    /// it opens as a JSON object and, its keys being sorted, closes with `"tool" : "layoutsnap"`
    /// and the version.
    static func isLayoutsnapResults(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return false }
        try? handle.seek(toOffset: 0)
        guard let head = try? handle.read(upToCount: 64),
            head.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{")
        else {
            return false
        }
        try? handle.seek(toOffset: size > 4096 ? size - 4096 : 0)
        guard let tail = try? handle.readToEnd() else { return false }
        // JSON's whitespace is these four bytes; by bytes, not by Characters, which took a few
        // hundred microseconds of every run for 4 KB.
        let text = tail.filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return text.range(of: Data("\"tool\":\"layoutsnap\"".utf8)) != nil
    }

    /// The run as one value: every fixture's frames with their verdicts, plus the run's
    /// findings. Report images (expected copies) are placed for verify's states that need them.
    public func results(
        _ fixtures: [FixtureResult], command: RunResults.Command = .verify, findings: [Finding] = [],
        environmentDifferences: [String] = [], durationSeconds: Double, version: String,
        fixturesRoot: String? = nil
    ) -> RunResults {
        results(
            entries: FixtureEntries(fixtures.map { entry($0, command: command) }), command: command, findings: findings,
            environmentDifferences: environmentDifferences, durationSeconds: durationSeconds, version: version,
            fixturesRoot: fixturesRoot)
    }

    /// The run as one value, from fixture entries made as each fixture finished.
    public func results(
        entries: FixtureEntries, command: RunResults.Command, findings: [Finding] = [],
        environmentDifferences: [String] = [], durationSeconds: Double, version: String,
        fixturesRoot: String? = nil
    ) -> RunResults {
        RunResults(
            tool: "layoutsnap", version: version, command: command, durationSeconds: durationSeconds,
            environmentDifferences: environmentDifferences, fixtures: entries, findings: findings,
            fixturesRoot: fixturesRoot, goldens: goldens.isEmpty ? nil : goldens)
    }

    /// One fixture's entry in the run's results, made as soon as the fixture is done so its
    /// frame results need not be kept (a verify of 10,000 fixtures keeps only these). For verify,
    /// the goldens of every state with a frame that is not a plain pass are copied into the
    /// report. Safe to call from any thread.
    public func entry(_ f: FixtureResult, command: RunResults.Command) -> FixtureEntry {
        var states: [StateEntry] = []
        var byState: [(String, [FrameResult])] = []
        for frame in f.frames {
            if byState.last?.0 == frame.state {
                byState[byState.count - 1].1.append(frame)
            } else {
                byState.append((frame.state, [frame]))
            }
        }
        var motion: [String: MotionReport] = [:]
        for case .motion(let reports) in f.notes { motion.merge(reports) { a, _ in a } }
        for (name, frames) in byState {
            // A state with lint findings shows its frames too: the report draws the findings over them.
            let showImages = command == .verify && frames.contains { $0.status != .passed || !$0.lints.isEmpty }
            states.append(
                StateEntry(
                    name: name, frames: frames.map { entry($0, showImages: showImages) }, motion: motion[name],
                    durationSeconds: Self.rounded(frames.reduce(0) { $0 + $1.seconds })))
        }
        var fixture = FixtureEntry(
            id: f.ref.id, file: f.ref.displayPath, diagnostic: f.error, states: states,
            durationSeconds: f.error == nil ? Self.rounded(f.seconds) : nil)
        if f.cached { fixture.cached = true }
        // The report draws lint findings and attributed elements (in points) over the frames with it.
        if let canvas = f.canvas, f.frames.contains(where: { !$0.lints.isEmpty || $0.attribution != nil }) {
            fixture.canvas = [canvas.width, canvas.height]
        }
        return fixture
    }

    private func entry(_ f: FrameResult, showImages: Bool) -> FrameEntry {
        var expected: String?
        var actual = f.actualPath.map { relative($0) }
        // A frame paired by motion is shown beside the golden it was compared with; a new frame
        // has none.
        let compared = f.pairedWith.map { GoldenStore.frameKey(goldenKey: f.goldenKey, index: $0) } ?? f.goldenKey
        if showImages, f.status != .missing || f.pairedWith != nil, f.pairing != .new {
            let target = "expected/" + compared
            if copyGolden(compared, to: reportDirectory + "/" + target) {
                expected = target
                named.withLock { _ = $0.insert(target) }
            }
            // A frame that passed looks exactly like its golden.
            if actual == nil && f.status == .passed { actual = expected }
        }
        return FrameEntry(
            index: f.index, time: f.time, progress: f.progress, status: f.status, message: f.detail,
            golden: f.goldenKey, expected: expected, actual: actual, diff: f.diffPath.map { relative($0) },
            metrics: f.comparison?.figures,
            layoutChanges: f.layoutChanges, pairedWith: f.pairedWith, pairing: f.pairing,
            lints: f.lints.isEmpty ? nil : f.lints.map { LintEntry($0, severity: lintSeverity) },
            attribution: f.status.outcome == .failed ? f.attribution : nil,
            goldenHash: f.status == .passed && f.pairedWith == nil ? nil : f.goldenHash)
    }

    /// Links `golden` at `path`, making the folder or replacing an older file there once; false
    /// when the two are on different disks (or linking fails otherwise): then it is copied.
    private func linkGolden(_ golden: String, to path: String) -> Bool {
        for _ in 0..<2 {
            do throws(SystemError) {
                try Posix.link(golden, path)
                return true
            } catch {
                switch error.code {
                case ENOENT:
                    guard FileManager.default.fileExists(atPath: golden) else { return false }
                    try? FileManager.default.createDirectory(
                        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                case EEXIST: try? Posix.unlink(path)
                default: return false
                }
            }
        }
        return false
    }

    /// Milliseconds are all a time needs.
    static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    private func copyGolden(_ key: String, to path: String) -> Bool {
        let golden = GoldenStore(goldens).path(key)
        // Already linked by an earlier run into a kept `expected/`: the same file, left as it is.
        if let there = SystemCall.status(path, followsLinks: false), let source = SystemCall.status(golden),
            there.st_dev == source.st_dev, there.st_ino == source.st_ino
        {
            return true
        }
        // A hard link when the report is on the goldens' disk: no bytes read or written (a run
        // of cache hits with lint findings shows thousands of goldens). Safe because nothing
        // writes a report or golden file in place: every writer replaces files by rename, which
        // gives the name a new file and leaves the other name's alone.
        if linkGolden(golden, to: path) { return true }
        guard let data = FileManager.default.contents(atPath: golden) else { return false }
        // Not fsynced: the report is made again by the next run, and a verify that passes
        // because of lint findings copies thousands of these.
        return (try? AtomicFile.write([UInt8](data), to: path, durable: false)) != nil
    }

    private func relative(_ path: String) -> String {
        path.hasPrefix(reportDirectory + "/") ? String(path.dropFirst(reportDirectory.count + 1)) : path
    }

    /// Writes results.json and index.html into the report folder.
    public func write(_ results: RunResults) throws(RunnerError) {
        do {
            // Encoded once for both files (the report's slowest part on a run of cache hits);
            // results.json alone when the page cannot be made, so accept still has it.
            guard HTMLReport.canWrite else {
                try ResultFiles.write(reportDirectory + "/results.json", durable: false) { emit in
                    try ResultsJSON.write(results, emit)
                }
                return try HTMLReport.write(results, to: URL(fileURLWithPath: reportDirectory))
            }
            try ResultFiles.write(reportDirectory + "/results.json", durable: false) { emitPretty in
                try HTMLReport.write(results, to: URL(fileURLWithPath: reportDirectory)) { emitCompact in
                    try ResultsJSON.writeBoth(results, compact: emitCompact, pretty: emitPretty)
                }
            }
        } catch let error as RunnerError {
            throw error
        } catch {
            throw RunnerError.environment("cannot write the report in \(reportDirectory): \(error)")
        }
    }
}
