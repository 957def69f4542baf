// The results of one `layoutsnap verify` run. The property names are the
// results.json schema: renaming one is a breaking change for every consumer
// (CI scripts, the HTML report, older reports on disk).
//
// Optional properties that are nil are omitted from the JSON (not `null`).

/// Everything one `layoutsnap verify` run found.
public struct RunResults: Codable, Sendable, Equatable {
    /// Always "layoutsnap".
    public var tool: String
    public var version: String
    /// "verify".
    public var command: String
    public var durationSeconds: Double
    public var summary: Summary
    /// Human-readable differences between the environment the goldens were
    /// recorded in and this one; empty when they match.
    public var environmentDifferences: [String]
    public var fixtures: [FixtureEntry]
    /// `2/4` when the run was one shard of a split suite (`--shard`); a merged report lists the
    /// shards it joined (`1/4,2/4,3/4,4/4`). Absent for a whole run.
    public var shard: String?

    public init(
        tool: String = "layoutsnap",
        version: String,
        command: String = "verify",
        durationSeconds: Double,
        summary: Summary,
        environmentDifferences: [String] = [],
        fixtures: [FixtureEntry],
        shard: String? = nil
    ) {
        self.tool = tool
        self.version = version
        self.command = command
        self.durationSeconds = durationSeconds
        self.summary = summary
        self.environmentDifferences = environmentDifferences
        self.fixtures = fixtures
        self.shard = shard
    }
}

/// Counts over the whole run. `passed`…`missing` count frames, `errors`
/// counts unreadable frames plus fixtures that could not be used, `frames`
/// is the total number of frames compared.
public struct Summary: Codable, Sendable, Equatable {
    public var passed: Int
    public var similar: Int
    public var failed: Int
    public var missing: Int
    public var errors: Int
    public var frames: Int

    public init(passed: Int = 0, similar: Int = 0, failed: Int = 0, missing: Int = 0, errors: Int = 0, frames: Int = 0) {
        self.passed = passed
        self.similar = similar
        self.failed = failed
        self.missing = missing
        self.errors = errors
        self.frames = frames
    }

    /// The exit code the counts imply (SPEC §2), as `BatchSummary.exitCode` gives it for a run:
    /// 2 for errors, else 1 for failed or missing frames, else 0.
    public var exitCode: Int32 { errors > 0 ? 2 : (failed + missing > 0 ? 1 : 0) }
}

public struct FixtureEntry: Codable, Sendable, Equatable {
    /// "posts/long-body".
    public var id: String
    /// "Fixtures/posts/long-body.json".
    public var file: String
    /// Set when the fixture could not be used at all:
    /// "file:line:col: $.path: message".
    public var error: String?
    public var states: [StateEntry]

    public init(id: String, file: String, error: String? = nil, states: [StateEntry] = []) {
        self.id = id
        self.file = file
        self.error = error
        self.states = states
    }
}

public struct StateEntry: Codable, Sendable, Equatable {
    /// "initial", "01-expand".
    public var name: String
    public var frames: [FrameEntry]

    public init(name: String, frames: [FrameEntry]) {
        self.name = name
        self.frames = frames
    }
}

public struct FrameEntry: Codable, Sendable, Equatable {
    public var index: Int
    /// Seconds since the state's step.
    public var time: Double
    public var progress: Double
    public var status: FrameStatus
    /// "2210 pixels differ (0.41%)", "size differs: golden 390x500, actual 390x520", …
    public var message: String?
    /// Key below the goldens folder: "posts/x/01-expand/007.png".
    public var golden: String
    /// Path, relative to the report folder, of the expected image copied into it.
    public var expected: String?
    /// Path, relative to the report folder, of the actual frame.
    public var actual: String?
    /// Path, relative to the report folder, of the diff image.
    public var diff: String?
    public var metrics: DiffMetrics?
    /// "body.y +4.00", "card.height -12.50".
    public var layoutChanges: [String]

    public init(
        index: Int,
        time: Double,
        progress: Double,
        status: FrameStatus,
        message: String? = nil,
        golden: String,
        expected: String? = nil,
        actual: String? = nil,
        diff: String? = nil,
        metrics: DiffMetrics? = nil,
        layoutChanges: [String] = []
    ) {
        self.index = index
        self.time = time
        self.progress = progress
        self.status = status
        self.message = message
        self.golden = golden
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.metrics = metrics
        self.layoutChanges = layoutChanges
    }
}

public enum FrameStatus: String, Codable, Sendable, CaseIterable {
    case passed, similar, failed, missing, unreadable

    /// True for the statuses that fail a run: failed, missing, unreadable.
    public var isFailure: Bool {
        switch self {
        case .passed, .similar: false
        case .failed, .missing, .unreadable: true
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let status = FrameStatus(rawValue: raw) else {
            let known = FrameStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown frame status \"\(raw)\" (expected one of: \(known))"
            )
        }
        self = status
    }
}

public struct DiffMetrics: Codable, Sendable, Equatable {
    public var differentPixels: Int
    /// differentPixels / (width * height), 0…1.
    public var ratio: Double
    public var maxChannelDifference: Int
    /// Bounding boxes of the differing areas, each [x, y, w, h].
    public var regions: [[Int]]
    public var width: Int
    public var height: Int

    public init(differentPixels: Int, ratio: Double, maxChannelDifference: Int, regions: [[Int]] = [], width: Int, height: Int) {
        self.differentPixels = differentPixels
        self.ratio = ratio
        self.maxChannelDifference = maxChannelDifference
        self.regions = regions
        self.width = width
        self.height = height
    }
}
