/// `layoutsnap.json`, the project's settings (looked up from the working directory upward, like
/// playwright.config): defaults for the command line, which overrides every one of them.
/// Folders are relative to the file's own folder.

import LayoutSnapJSON

public struct ProjectConfig: Sendable, Equatable {
    public var fixtures: [String]?
    public var goldens: String?
    public var report: String?
    public var jobs: Int?
    public var timeout: Double?
    /// `terminal` or `github`.
    public var reporter: String?
    /// `lint.mode`: verify's `--lint` when the flag is not given.
    public var lintMode: LintMode?
    /// `defaults`: fixture fields every fixture of the project has unless it writes its own.
    public var defaults = FixtureDefaults()
    /// `cache`: verify's result cache (docs/cache.md).
    public var cache = Cache()
    /// `fonts`: the project's font files by family name (BrandFont).
    public var fonts: [BrandFont] = []

    /// The brand families, each once, in the order written: the names a text's `FontSpec.family`
    /// may give besides the bundled Inter (a theme's text styles are checked against them).
    public var fontFamilies: [String] {
        var families: [String] = []
        for font in fonts where !families.contains(font.family) { families.append(font.family) }
        return families
    }

    public init() {}

    /// layoutsnap.json's `cache`: every field optional, each the default of a flag.
    public struct Cache: Sendable, Equatable {
        /// `local: false` is `--no-cache`.
        public var local: Bool?
        public var folder: String?
        public var maxMegabytes: Int?
        public var remote: String?
        public var upload: CacheUpload?
        public var audit: Double?

        public init() {}

        static let fields: [SchemaField] = [
            SchemaField("local", .boolean, "Keep results in a local folder (default true; false is --no-cache)."),
            SchemaField("folder", .nonEmptyString, "The local folder (default .layoutsnap/cache; --cache)."),
            SchemaField(
                "maxMegabytes", .integer(1...1_048_576),
                "The local folder's bound; least recently used entries go first (default 512)."),
            SchemaField(
                "remote", .nonEmptyString,
                "A Bazel remote cache HTTP server, http://HOST[:PORT][/PATH] (--remote-cache); auth headers only on the command line."
            ),
            SchemaField(
                "upload", .enumeration(CacheUpload.self),
                "always: results rendered here are uploaded; never: only read (--remote-cache-upload)."),
            SchemaField(
                "audit", .number(0...1),
                "The share of cache hits rendered anyway and compared (default 0.02; --cache-audit)."),
        ]

        static func decode(_ element: JSONElement) throws(JSONDecodingError) -> Cache {
            let o = try element.object()
            var c = Cache()
            c.local = try o.optional("local")?.bool()
            c.folder = try o.optional("folder")?.string()
            if c.folder?.isEmpty == true { throw o.optional("folder")!.error("a folder may not be empty") }
            c.maxMegabytes = try o.optional("maxMegabytes")?.int(in: 1...1_048_576, what: "megabytes")
            c.remote = try o.optional("remote")?.string()
            c.upload = try o.enumeration("upload", CacheUpload.self)
            c.audit = try o.double("audit", in: 0...1, what: "a share of hits")
            try o.finish()
            return c
        }
    }

    /// The fields `decode` reads, for schema/config.schema.json (a test keeps the two equal).
    static let fields: [SchemaField] = [
        SchemaField("$schema", .string, "This schema, for editors."),
        SchemaField(
            "fixtures", .oneOf([.nonEmptyString, .array(.nonEmptyString, minItems: 1)]),
            "The fixture folder(s) or files a command takes when it is given none (default Fixtures)."),
        SchemaField("goldens", .nonEmptyString, "The goldens folder (default Goldens)."),
        SchemaField(
            "report", .nonEmptyString,
            "verify's report folder, and where accept reads results.json (default .layoutsnap/report)."),
        SchemaField("jobs", .integer(1...1024), "Fixtures rendered in parallel (default: all cores)."),
        SchemaField(
            "timeout", .number(above: 0, upTo: 86_400),
            "Seconds a fixture may take before it is stopped with an error (default 120)."),
        SchemaField(
            "reporter", .enumeration(reporters), "verify's reporter (default: github when GITHUB_ACTIONS=true)."),
        SchemaField(
            "lint",
            .object([
                SchemaField(
                    "mode", .enumeration(LintMode.self),
                    "verify's layout lints when --lint is not given: warn (default), error (a finding fails the run) or off."
                )
            ]),
            "Layout lints for the project; the findings every fixture accepts are defaults.lint.ignore."),
        SchemaField(
            "cache", .object(Cache.fields),
            "verify's result cache: a local folder and a shared Bazel remote cache (docs/cache.md)."),
        SchemaField(
            "theme", .ref("theme"),
            "The project's theme over the built-in design: colours, geometry, text styles and motion (docs/themes.md)."),
        SchemaField(
            "themes", .leaf([("type", "object"), ("additionalProperties", .object([("$ref", "#/$defs/theme")]))]),
            "More themes by name, each over the project's; a fixture's theme or a variant names one."),
        SchemaField(
            "fonts", BrandFont.schema,
            "The project's font files by family name: a path (relative to this file's folder), {\"file\", \"face\"} or an array of them (TTF, OTF, TTC, variable fonts). Loaded into layoutsnap's private fontconfig only, under this name; their bytes are part of the rendering environment."
        ),
        SchemaField(
            "defaults", .object(FixtureDefaults.fields),
            "Fixture fields every fixture has unless it writes its own, as if written in it; a fixture's tolerance or variants replace these whole (\"variants\": [] for none)."
        ),
    ]

    /// The settings `layoutsnap config` prints, in order.
    public static var fieldNames: [String] { fields.map(\.name) }

    public static let document = JSONSchemaDocument(
        id: "https://layoutsnap.dev/schema/config.schema.json", title: "layoutsnap.json",
        description:
            "layoutsnap's project settings, looked up from the working directory upward. Folders are relative to this file's folder; flags given to a command override every setting. Generated by `layoutsnap schema config`.",
        root: .object(fields),
        definitions: FixtureSchema.definitions.filter { FixtureDefaults.definitionsUsed.contains($0.name) })

    public static let fileName = "layoutsnap.json"
    public static let reporters = ["terminal", "github"]

    public static func decode(bytes: [UInt8], file: String) throws(FixtureError) -> ProjectConfig {
        var config = try FixtureError.decoding(bytes, file: file, decode)
        // Its variants say they come from here when a fixture fails only in one of them.
        config.defaults.variants = config.defaults.variants?.map { v in
            var v = v
            v.origin?.file = file
            return v
        }
        return config
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
            guard (1...1024).contains(jobs) else {
                throw e.error("expected a number of jobs from 1 to 1024, found \(jobs)")
            }
            c.jobs = jobs
        }
        if let e = o.optional("timeout") {
            let seconds = try e.double()
            guard seconds > 0, seconds <= 86_400 else {
                throw e.error("expected seconds above 0 and at most 86400, found \(JSONElement.describe(seconds))")
            }
            c.timeout = seconds
        }
        if let e = o.optional("reporter") {
            let name = try e.string()
            guard reporters.contains(name) else {
                throw e.error("unknown reporter \"\(name)\"; expected one of: \(reporters.joined(separator: ", "))")
            }
            c.reporter = name
        }
        if let e = o.optional("lint") {
            let lint = try e.object()
            c.lintMode = try lint.enumeration("mode", LintMode.self)
            try lint.finish()
        }
        if let e = o.optional("cache") { c.cache = try Cache.decode(e) }
        if let e = o.optional("fonts") { c.fonts = try BrandFont.decodeAll(e) }
        var themes = ThemeBook()
        themes.families = c.fontFamilies + BrandFont.bundledFamilies
        if let e = o.optional("theme") { themes.project = try ThemePatch.decode(e, families: themes.families) }
        if let e = o.optional("themes") {
            let named = try e.object()
            for key in named.keys {
                let item = named.optional(key)!
                guard key != ThemeBook.defaultName else {
                    throw item.error(
                        "\"default\" is the project's own theme (layoutsnap.json's \"theme\"); name this one otherwise")
                }
                guard FixtureVariant.isValidName(key) else {
                    throw item.error(
                        "a theme's name is a variant's folder name in the goldens: use 1 to 100 of a-z, A-Z, 0-9, '.', '_', '+' and '-'"
                    )
                }
                themes.named[key] = try ThemePatch.decode(item, families: themes.families)
            }
            try named.finish()
        }
        c.defaults.themes = themes
        if let e = o.optional("defaults") { c.defaults = try FixtureDefaults.decode(e, themes: themes) }
        for folder in [c.goldens, c.report].compactMap({ $0 }) + (c.fixtures ?? []) where folder.isEmpty {
            throw element.error("a folder may not be empty")
        }
        try o.finish()
        return c
    }
}

/// Whether a run uploads what it renders to the remote cache.
public enum CacheUpload: String, Sendable, CaseIterable {
    /// Results rendered here are uploaded.
    case always
    /// Only read: for untrusted pull requests.
    case never
}
