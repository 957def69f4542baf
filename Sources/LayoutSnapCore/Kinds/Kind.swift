/// One kind of fixture, and all that layoutsnap knows about it: its name, its fields (decoder and
/// schema), its generator and its lint policy. The kind's content (`KindContent`) lays itself out.
/// Everything of a kind lives in its folder `Kinds/<Kind>/`; the rest of the tool reaches kinds
/// only through these two protocols and `KindRegistry` (docs/adding-a-kind.md).

import LayoutSnapJSON

public protocol Kind: Sendable {
    /// `kind` in fixture files, `--kind` of `generate`, and the folder of generated fixtures.
    var name: String { get }
    /// The kind's own fields, beside the common ones: the decoder reads them and the JSON Schema
    /// is written from them (`SchemaTests` fails while the two disagree).
    var fields: [SchemaField] { get }
    /// Schema definitions the kind's fields refer to by `.ref(name)` (names unique across kinds).
    var schemaDefinitions: [(name: String, node: SchemaNode)] { get }
    /// Reads the kind's own fields from the fixture's top-level object. Unknown fields are
    /// rejected afterwards, for every kind at once. `folder` is where the fixture lives: relative paths
    /// start there, and the files it names are read through it.
    func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> any KindContent
    /// A fixed random stream number for `generate` (never `hashValue`, which changes between runs).
    var generatorStream: UInt64 { get }
    /// A valid, varied fixture of this kind for `layoutsnap generate`, from `r` alone.
    func generate(_ r: inout SeededRandom) -> JSONOutput
    /// What the kind's elements mean to the layout lints.
    var lintPolicy: LintPolicy { get }
}

/// A decoded fixture's kind-specific part: it knows its kind and lays itself out.
public protocol KindContent: Sendable {
    var kind: FixtureKind { get }
    /// Every state and frame of `fixture` (whose content this is), by the kind's rules. Pure:
    /// text is measured through `measurer`. Right-to-left mirroring is applied afterwards by
    /// `LayoutEngine`, for every kind alike.
    func states(of fixture: Fixture, measurer: some TextMeasuring) throws -> [StateLayout]
    /// A rough count of the frames at `fps`, known before any layout: what the batch uses to
    /// start the most expensive fixtures first.
    func estimatedFrames(fps: Double) -> Double
    /// A rough count of the texts laid out besides the frames (a chat's messages), known before
    /// any layout: a fixture of many texts and few frames costs more than its frames say.
    var estimatedTexts: Double { get }
    /// The content with the fonts it names set in `theme` at `textSize` (explicit sizes keep
    /// their size and take the theme's family), and the theme's defaults for what the fixture
    /// leaves out. Required, so a new kind decides: a kind whose rules read `fixture.textSize`
    /// and `fixture.theme` themselves returns `self`.
    func at(_ textSize: ContentSizeCategory, theme: Theme) -> Self
    /// The files the content reads besides the fixture (images), with where the fixture names
    /// each: the path as written, line and column.
    var inputFiles: [InputFile] { get }
}

extension Kind {
    public var schemaDefinitions: [(name: String, node: SchemaNode)] { [] }
}

extension KindContent {
    public var inputFiles: [InputFile] { [] }
}

/// A file a fixture reads besides itself, and where the fixture names it.
public struct InputFile: Sendable, Hashable {
    /// Absolute path.
    public var path: String
    /// The path as the fixture writes it.
    public var written: String
    public var line: Int
    public var column: Int
    /// Where in the fixture it is named (`$.image.path`, `$.messages[2].image.path`).
    public var jsonPath: String

    public init(path: String, written: String, line: Int, column: Int, jsonPath: String) {
        self.path = path
        self.written = written
        self.line = line
        self.column = column
        self.jsonPath = jsonPath
    }
}

/// A kind as a value: compared and hashed by name, printed as its name.
public struct FixtureKind: Sendable, Hashable, CustomStringConvertible {
    public let definition: any Kind

    public init(_ definition: any Kind) { self.definition = definition }

    /// The registered kind of that name.
    public init?(rawValue: String) {
        guard let kind = KindRegistry.kinds.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }

    public var rawValue: String { definition.name }
    public var description: String { rawValue }
    /// Every registered kind, in the registry's order.
    public static var allCases: [FixtureKind] { KindRegistry.kinds }

    public static func == (a: FixtureKind, b: FixtureKind) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// The kinds layoutsnap knows, in the order `--kind all`, the schema and help texts list them.
/// Adding a kind is its folder plus one line here.
public enum KindRegistry {
    public static let kinds: [FixtureKind] = [
        .transcript,
        .composer,
        .chat,
        .post,
    ]
}
