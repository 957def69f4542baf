/// The outcome of one fixture in a batch.
public struct FixtureResult: Sendable {
    public var ref: FixtureRef
    /// Why the fixture could not be used (bad input: exit 2), naming the file and JSON path.
    public var error: String?
    public var frames: [FrameResult]
    /// Notes from the handler ("layout.json written").
    public var notes: [String]

    public init(ref: FixtureRef, error: String? = nil, frames: [FrameResult] = [], notes: [String] = []) {
        self.ref = ref; self.error = error; self.frames = frames; self.notes = notes
    }

    public func count(_ status: FrameStatus) -> Int { frames.reduce(0) { $0 + ($1.status == status ? 1 : 0) } }
}

/// Counts over a whole batch and the exit code they imply (SPEC §2).
public struct BatchSummary: Sendable, Equatable {
    public var passed = 0, similar = 0, failed = 0, missing = 0, unreadable = 0, recorded = 0, unchanged = 0, rendered = 0
    public var writeErrors = 0
    public var fixtureErrors = 0

    public init(_ results: [FixtureResult]) {
        for r in results {
            if r.error != nil { fixtureErrors += 1 }
            for f in r.frames {
                switch f.status {
                case .passed: passed += 1
                case .similar: similar += 1
                case .failed: failed += 1
                case .missing: missing += 1
                case .unreadable: unreadable += 1
                case .recorded: recorded += 1
                case .unchanged: unchanged += 1
                case .rendered: rendered += 1
                case .error: writeErrors += 1
                }
            }
        }
    }

    /// 2 for bad input (a fixture or golden that could not be used, a write that failed), else 1
    /// for a difference or a missing golden, else 0. The highest applicable code wins.
    public var exitCode: Int32 {
        if fixtureErrors > 0 || unreadable > 0 || writeErrors > 0 { return 2 }
        if failed > 0 || missing > 0 { return 1 }
        return 0
    }
}
