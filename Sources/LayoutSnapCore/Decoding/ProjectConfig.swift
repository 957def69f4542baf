/// `layoutsnap.json`, the project's settings (looked up from the working directory upward, like
/// playwright.config): defaults for the command line, which overrides every one of them.
/// Folders are relative to the file's own folder.
public struct ProjectConfig: Sendable, Equatable {
    public var fixtures: [String]?
    public var goldens: String?
    public var report: String?
    public var jobs: Int?
    public var timeout: Double?
    /// `terminal` or `github`.
    public var reporter: String?

    public init() {}

    /// Every key the file may have, in the order `layoutsnap config` prints them: the decoder
    /// reads exactly these, and schema/config.schema.json must list exactly these (a test checks).
    public static let fields = ["$schema", "fixtures", "goldens", "report", "jobs", "timeout", "reporter"]

    public static let fileName = "layoutsnap.json"
    public static let reporters = ["terminal", "github"]

    public static func decode(bytes: [UInt8], file: String) throws(FixtureError) -> ProjectConfig {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(file: file, line: error.position.line, column: error.position.column, message: "invalid JSON: \(error.message)")
        }
        do {
            return try decode(JSONElement(root))
        } catch {
            throw FixtureError(file: file, path: error.path.description, line: error.position?.line, column: error.position?.column, message: error.message)
        }
    }

    static func decode(_ element: JSONElement) throws(JSONDecodingError) -> ProjectConfig {
        let o = try element.object()
        var c = ProjectConfig()
        _ = try o.optional("$schema")?.string()
        if let e = o.optional("fixtures") {
            if case .string = e.value {
                c.fixtures = [try e.string()]
            } else {
                var folders: [String] = []
                for item in try e.array() { folders.append(try item.string()) }
                if folders.isEmpty { throw e.error("expected a folder or a non-empty array of folders") }
                c.fixtures = folders
            }
        }
        c.goldens = try o.optional("goldens")?.string()
        c.report = try o.optional("report")?.string()
        if let e = o.optional("jobs") {
            let jobs = try e.int()
            guard (1...1024).contains(jobs) else { throw e.error("expected a number of jobs from 1 to 1024, found \(jobs)") }
            c.jobs = jobs
        }
        c.timeout = try o.double("timeout", in: 0.001...86_400, what: "seconds")
        if let e = o.optional("reporter") {
            let name = try e.string()
            guard reporters.contains(name) else { throw e.error("unknown reporter \"\(name)\"; expected one of: \(reporters.joined(separator: ", "))") }
            c.reporter = name
        }
        for folder in [c.goldens, c.report].compactMap({ $0 }) + (c.fixtures ?? []) where folder.isEmpty {
            throw element.error("a folder may not be empty")
        }
        try o.finish()
        return c
    }
}
