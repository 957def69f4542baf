import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapReport
import LayoutSnapSystem

/// `accept`: promotes the actual frames of an earlier verify (its report folder) to goldens
/// without rendering again. Each promoted file is decoded first (a broken or foreign file is
/// never accepted), written atomically, and entered in the manifest with its hashes. A frame
/// whose golden is missing or unreadable is accepted like any other (verify writes its actual
/// frame too), which heals the golden; one the report has no usable actual frame for is named
/// with the `record` command that writes it (`Outcome.toRecord`).
///
/// Whole fixtures (`accept [ids]`), or single frames (`accept --approvals`, `review`): a frame
/// approved by itself is written only while the golden on disk still has the hash verify read
/// (docs/review.md), so an approval never overwrites a golden it was not shown.
public struct GoldenAcceptance: Sendable {
    /// A frame or file that was not accepted, and why.
    public struct Refusal: Sendable, Equatable, CustomStringConvertible {
        /// The golden key (`cards/x/initial/000.png`).
        public var golden: String
        public var reason: String

        public init(golden: String, reason: String) {
            self.golden = golden
            self.reason = reason
        }

        public var description: String { "\(golden): \(reason)" }
    }

    /// One frame a reviewer approved.
    public struct Approval: Sendable, Equatable {
        public var golden: String
        /// The golden's hash the reviewer was shown (approvals.json's `goldenHash`, nil: no
        /// golden); `.report` when the approval comes from the results themselves (the server).
        public var seen: Seen

        public enum Seen: Sendable, Equatable {
            case report
            case hash(String?)
        }

        public init(golden: String, seen: Seen = .report) {
            self.golden = golden
            self.seen = seen
        }
    }

    /// What to accept.
    public enum Selection: Sendable {
        /// Every frame that did not pass in these fixtures (ids or globs; empty: all).
        case fixtures([String])
        /// These frames, each only while its golden is as verify read it. A state whose frames
        /// were paired by motion goes whole: approving one of its frames approves all of them.
        /// `approvedBefore`: frames approved earlier in the same review, which count towards a
        /// fixture's layout.json (written once every frame of it that did not pass is approved).
        case frames([Approval], approvedBefore: Set<String> = [])
    }

    public struct Outcome: Sendable {
        public var accepted: [String] = []
        public var layouts: [String] = []
        /// Goldens past the new last frame of a state whose timing changed, deleted.
        public var removed: [String] = []
        /// Frames that were asked for and not accepted.
        public var problems: [Refusal] = []
        /// The fixture files (as verify named them) of frames refused because the report has no
        /// usable actual frame for them: `record` renders and writes those.
        public var toRecord: [String] = []
        /// The folder the frames went into.
        public var goldens = ""

        /// Problems are bad input (exit 2); the one function from a run to its exit code.
        public var outcome: LayoutSnapReport.Outcome { problems.isEmpty ? .passed : .error }

        /// What accept prints after its refusals: `20 frames accepted into Goldens/, 1 layout.json
        /// updated`, then, for frames the report had no actual frame for, the `record` command that
        /// writes them (`--goldens` when the folder is not `defaultGoldens`, where record writes).
        public func lines(defaultGoldens: String) -> [String] {
            var summary = Plural.count(accepted.count, "frame") + " accepted into \(goldens)/"
            if !layouts.isEmpty { summary += ", \(layouts.count) layout.json updated" }
            if !removed.isEmpty {
                summary += ", \(Plural.count(removed.count, "golden frame")) the new motion no longer has removed"
            }
            var lines = [summary]
            if !toRecord.isEmpty {
                let options = goldens == defaultGoldens ? "" : " --goldens \(TerminalText.shellQuoted(goldens))"
                let files = toRecord.map(TerminalText.shellQuoted).joined(separator: " ")
                lines.append(
                    "The frames above that the report has no actual image for are rendered and written by record: "
                        + "layoutsnap record \(files)\(options)")
            }
            return lines
        }
    }

    public let resultsPath: String
    /// The goldens folder to write; nil takes the one the verify run checked (results.json's
    /// `goldens`), else `Goldens`.
    public let goldensOption: String?
    /// Accept even though `CI` is set.
    public let allowCI: Bool

    public init(resultsPath: String, goldens: String? = nil, allowCI: Bool = false) {
        self.resultsPath = resultsPath
        self.goldensOption = goldens
        self.allowCI = allowCI
    }

    /// The verify run's results, read from `resultsPath`.
    public func load() throws(RunnerError) -> RunResults {
        guard let data = FileManager.default.contents(atPath: resultsPath) else {
            throw RunnerError.usage(
                "\(resultsPath): cannot be read (run layoutsnap verify first; it writes .layoutsnap/report/results.json)"
            )
        }
        do {
            return try ResultsJSON.decode(data)
        } catch {
            throw RunnerError.input(
                Diagnostic(
                    .error, .input, file: resultsPath, path: error.path,
                    message: "not a layoutsnap results file: \(error.message)"))
        }
    }

    /// `ids` are fixture ids or globs; empty accepts every fixture in the results. Holds the
    /// goldens folder's lock while it writes.
    public func run(ids: [String]) throws(RunnerError) -> Outcome {
        try run(.fixtures(ids))
    }

    /// Accepts `selection` from the results at `resultsPath`.
    public func run(_ selection: Selection) throws(RunnerError) -> Outcome {
        try refuseUnderCI()
        return try run(selection, results: try load())
    }

    /// The same against results already read (the review server keeps them in memory).
    public func run(_ selection: Selection, results: RunResults) throws(RunnerError) -> Outcome {
        try refuseUnderCI()
        let goldens = goldensFolder(results)
        try OutputPaths.existingFolder(goldens, option: "--goldens")
        var outcome = try accept(selection, results: results, goldens: goldens)
        outcome.goldens = goldens
        return outcome
    }

    /// The goldens folder it writes for these results.
    public func goldensFolder(_ results: RunResults) -> String { goldensOption ?? results.goldens ?? "Goldens" }

    /// Whether it may write at all: not when `CI` is set, unless allowed.
    public var refusedUnderCI: Bool {
        if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, !allowCI { return true }
        return false
    }

    private func refuseUnderCI() throws(RunnerError) {
        if refusedUnderCI { throw RunnerError.refusedUnderCI }
    }

    /// A frame accept writes: one that did not pass (its golden differs, is missing or cannot be
    /// read), or was compared with another golden frame (its state's timing changed; its own
    /// golden still has the old motion's frame). A removed golden frame has no actual image to
    /// write, nor has a frame that could not be rendered or written (`error`).
    public static func acceptable(_ frame: FrameEntry) -> Bool {
        frame.pairing != .removed
            && ([.failed, .missing, .unreadable, .similar].contains(frame.status) || frame.pairedWith != nil)
    }

    /// The frames a reviewer may approve, by golden key, with their fixture's id: those accept
    /// writes, and the removed golden frames of a state accepted whole.
    public static func approvable(in results: RunResults) -> [String: (fixture: String, frame: FrameEntry)] {
        var frames: [String: (fixture: String, frame: FrameEntry)] = [:]
        // (Frames only similar, or paired by motion within its tolerance, leave a fixture passed.)
        for fixture in results.fixtures.noteworthy {
            for state in fixture.states {
                for frame in state.frames
                where acceptable(frame) || frame.pairing == .removed && state.motion?.repaired == true {
                    if frames[frame.golden] == nil || frame.pairing != .removed {
                        frames[frame.golden] = (fixture.id, frame)
                    }
                }
            }
        }
        return frames
    }

    /// The approved frames by fixture id, and the approvals that name no frame accept could write
    /// (or were made against another verify run's hash).
    private func resolve(_ approvals: [Approval], in results: RunResults) -> (
        wanted: [String: Set<String>], refused: [Refusal]
    ) {
        let frames = Self.approvable(in: results)
        var wanted: [String: Set<String>] = [:]
        var refused: [Refusal] = []
        func shown(_ hash: String?) -> String { hash ?? "none (no golden)" }
        for approval in approvals {
            guard let (fixture, frame) = frames[approval.golden] else {
                refused.append(
                    Refusal(
                        golden: approval.golden,
                        reason: "not a frame that \(resultsPath) lists as not passed: there is nothing to approve"))
                continue
            }
            if case .hash(let seen) = approval.seen, seen != frame.goldenHash {
                refused.append(
                    Refusal(
                        golden: approval.golden,
                        reason:
                            "approved with golden hash \(shown(seen)), but \(resultsPath) has \(shown(frame.goldenHash)): the approval is of another verify run"
                    ))
                continue
            }
            wanted[fixture, default: []].insert(approval.golden)
        }
        return (wanted, refused)
    }

    /// Why `frame`'s golden can no longer be replaced: it is not the file verify compared with
    /// (its hash, or its absence); nil when it still is.
    private static func changedSinceVerify(_ frame: FrameEntry, goldens: String) -> Refusal? {
        let path = GoldenStore(goldens).path(frame.golden)
        if let outside = GoldenStore.outsideTarget(path, goldens: goldens) {
            return Refusal(
                golden: frame.golden, reason: "\(path) is a symbolic link to \(outside), outside \(goldens)/")
        }
        let now = GoldenTransaction.fileHash(path)
        guard now != frame.goldenHash else { return nil }
        let reason =
            switch (frame.goldenHash, now) {
            case (nil, _): "\(path) was created since verify, which found no golden"
            case (_, nil): "\(path) was removed since verify"
            case (let before?, let now?): "\(path) changed since verify (its hash is \(now), verify read \(before))"
            }
        return Refusal(golden: frame.golden, reason: reason + "; verify again and review the new result")
    }

    /// Why a new golden cannot be put where `frame`'s goes: a folder stands there (a rename cannot
    /// replace it), or the golden's own folder leads out of the goldens folder (the new file would
    /// be written outside it). nil when it can; a golden that is itself a link out is replaced by
    /// a file, as record replaces it.
    private static func unwritable(_ frame: FrameEntry, goldens: String) -> Refusal? {
        let path = GoldenStore(goldens).path(frame.golden)
        let folder = (path as NSString).deletingLastPathComponent
        if let outside = GoldenStore.outsideTarget(folder, goldens: goldens) {
            return Refusal(
                golden: frame.golden,
                reason: "its folder \(folder) leads out of \(goldens)/ (to \(outside)): make it a folder of its own")
        }
        // (lstat: a link to a folder is a link, which a rename replaces.)
        if (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeDirectory {
            return Refusal(
                golden: frame.golden, reason: "\(path) is a folder, not a golden: remove it, then accept again")
        }
        return nil
    }

    private func accept(_ selection: Selection, results: RunResults, goldens: String) throws(RunnerError) -> Outcome {
        var outcome = Outcome()
        // Frames mode: what each fixture is asked for. Nil: whole fixtures, those of `ids`.
        var wanted: [String: Set<String>]?
        var ids: [String] = []
        var approvedBefore = Set<String>()
        switch selection {
        case .fixtures(let given):
            ids = given
            for id in ids where !results.fixtures.contains(where: { FixtureDiscovery.matches(glob: id, $0.id) }) {
                throw RunnerError.usage("\(id): no fixture in \(resultsPath) matches it")
            }
        case .frames(let approvals, let before):
            approvedBefore = before
            let resolved = resolve(approvals, in: results)
            wanted = resolved.wanted
            outcome.problems = resolved.refused
            guard !resolved.wanted.isEmpty else { return outcome }
        }
        let report = (resultsPath as NSString).deletingLastPathComponent
        // Held to the end: no other record, accept or prune writes these goldens meanwhile.
        let lock = try GoldensLock.acquire(goldens: goldens)
        defer { withExtendedLifetime(lock) {} }
        let manifestPath = GoldenStore(goldens).manifestPath
        let before = try? GoldenManifest.load(path: manifestPath)
        var manifest = before ?? GoldenManifest(environment: nil, frames: [:])
        var staged: [String: GoldenManifest.Previous] = [:]
        GoldenTransaction.removeStale(goldens: goldens)
        // A write that fails (a full disk) takes back what was staged: nothing is left behind.
        var pending: [String] = []
        func stageOrUndo(_ bytes: [UInt8], key: String) throws(RunnerError) {
            do {
                try GoldenTransaction.stage(bytes, goldenPath: GoldenStore(goldens).path(key), goldens: goldens)
                pending.append(key)
            } catch {
                for key in pending { try? Posix.unlink(GoldenTransaction.pendingPath(GoldenStore(goldens).path(key))) }
                throw error
            }
        }

        for fixture in results.fixtures {
            let asked = wanted?[fixture.id]
            if wanted != nil
                ? asked == nil
                : !ids.isEmpty && !ids.contains(where: { FixtureDiscovery.matches(glob: $0, fixture.id) })
            {
                continue
            }
            var acceptedHere: [String] = []
            var removedAny = false
            for state in fixture.states {
                // A state whose timing changed (its frames paired by motion) is one motion: it is
                // accepted whole or not at all, whichever of its frames was approved.
                let repaired = state.motion?.repaired == true
                var frames = state.frames.filter(Self.acceptable)
                if let asked {
                    guard state.frames.contains(where: { asked.contains($0.golden) }) else { continue }
                    if !repaired { frames = frames.filter { asked.contains($0.golden) } }
                    // Checked under the lock: an approval replaces only the golden it was shown.
                    let checked =
                        repaired ? state.frames.filter { Self.acceptable($0) || $0.pairing == .removed } : frames
                    let stale = checked.compactMap { Self.changedSinceVerify($0, goldens: goldens) }
                    if let first = stale.first {
                        outcome.problems += stale
                        if repaired {
                            let named = Set(stale.map(\.golden))
                            outcome.problems += frames.filter { !named.contains($0.golden) }.map {
                                Refusal(
                                    golden: $0.golden,
                                    reason:
                                        "its state \(fixture.id)/\(state.name) is one motion, accepted whole, and \(first.reason)"
                                )
                            }
                            continue
                        }
                        frames.removeAll { frame in stale.contains { $0.golden == frame.golden } }
                    }
                }
                let problemsBefore = outcome.problems.count
                for frame in frames {
                    if let refusal = Self.unwritable(frame, goldens: goldens) {
                        outcome.problems.append(refusal)
                        continue
                    }
                    // Without a usable actual frame only a render can write the golden: record's.
                    func refuse(_ reason: String) {
                        outcome.problems.append(Refusal(golden: frame.golden, reason: reason))
                        if !outcome.toRecord.contains(fixture.file) { outcome.toRecord.append(fixture.file) }
                    }
                    guard let actual = frame.actual, frame.actual != frame.expected else {
                        refuse("the report has no actual frame")
                        continue
                    }
                    guard let bytes = FileManager.default.contents(atPath: report + "/" + actual).map({ [UInt8]($0) })
                    else {
                        refuse("\(report)/\(actual) is gone")
                        continue
                    }
                    let image: PixelImage
                    do {
                        image = try PNGDecoder.decode(bytes, maxPixels: Limits.maxGoldenPixels)
                    } catch {
                        refuse("\(report)/\(actual) is not usable: \(error.description)")
                        continue
                    }
                    staged[frame.golden] = GoldenTransaction.describe(
                        GoldenStore(goldens).path(frame.golden), key: frame.golden, manifest: before)
                    try stageOrUndo(bytes, key: frame.golden)
                    manifest.previous.removeValue(forKey: frame.golden)
                    manifest.frames[frame.golden] = GoldenManifest.Entry(
                        pixels: image.hashHex, file: bytes.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) },
                        width: image.width, height: image.height)
                    outcome.accepted.append(frame.golden)
                    acceptedHere.append(frame.golden)
                }
                // The whole new motion: its golden frames past the new last one go, only when every
                // frame of it was accepted (goldens half old and half new would be neither motion).
                // The manifest loses them with the rest; the files go after the commit (a kill in
                // between leaves orphans, which verify --check-orphans names).
                if let expectedCount = state.motion?.frames.first, repaired, outcome.problems.count == problemsBefore {
                    let actualCount = state.frames.filter { $0.pairing != .removed }.count
                    for index in actualCount..<max(actualCount, expectedCount) {
                        let key = GoldenStore.frameKey(fixture: fixture.id, state: state.name, index: index)
                        if manifest.frames.removeValue(forKey: key) != nil
                            || FileManager.default.fileExists(atPath: GoldenStore(goldens).path(key))
                        {
                            manifest.previous.removeValue(forKey: key)
                            outcome.removed.append(key)
                            removedAny = true
                        }
                    }
                }
            }
            // The fixture's layout.json describes all of its frames: it is written once every frame
            // of it that did not pass is approved (now, or earlier in the same review).
            let approved = approvedBefore.union(acceptedHere)
            let layoutKey = GoldenStore.layoutKey(fixture: fixture.id)
            if !acceptedHere.isEmpty || removedAny,
                fixture.states.allSatisfy({
                    $0.frames.allSatisfy { !Self.acceptable($0) || approved.contains($0.golden) }
                }),
                let layout = FileManager.default.contents(atPath: report + "/actual/" + layoutKey)
            {
                try stageOrUndo([UInt8](layout), key: layoutKey)
                outcome.layouts.append(layoutKey)
            }
        }
        if !outcome.accepted.isEmpty || !outcome.removed.isEmpty {
            try GoldenTransaction.commit(
                staged: staged, layouts: outcome.layouts, goldens: goldens, before: before, after: manifest)
        }
        for key in outcome.removed { try? Posix.unlink(GoldenStore(goldens).path(key)) }
        return outcome
    }
}
