// The parsed JSON tree. Every value remembers where it came from so that
// later, semantic errors ("expected a number") can point at the exact spot
// in the user's file, not just at a path.

/// A location in the parsed input.
///
/// - `line` is 1-based. `\n`, `\r\n` and a lone `\r` each end a line.
/// - `column` is 1-based and counts **Unicode scalars** (not bytes) from the
///   start of the line, so a line like `{"名前": x}` reports the `x` at the
///   column a person would count. A tab counts as one column. A leading UTF-8
///   byte order mark is not counted.
/// - `offset` is the 0-based **byte** offset into the input (including any
///   BOM), which is what tools that slice the raw buffer need.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// "line 3, column 7"
    public var description: String { "line \(line), column \(column)" }
}

/// A JSON value together with the position of its first character.
public struct JSONNode: Sendable, Equatable {
    public var value: JSONValue
    public var position: SourcePosition

    public init(value: JSONValue, position: SourcePosition) {
        self.value = value
        self.position = position
    }
}

/// A JSON value. Objects are kept as an ordered member list (source order),
/// because the order matters for deterministic output and for reporting the
/// *first* offending member; lookups go through `ObjectReader`.
///
/// Note: `.number(-0.0) == .number(0.0)` (IEEE equality), but the sign of a
/// parsed `-0` is preserved in the stored `Double`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// The kind of value with its article, ready to drop into an error
    /// message: "expected a number, found \(typeName)".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    /// Position of the key's opening quote.
    public var keyPosition: SourcePosition
    public var value: JSONNode

    public init(key: String, keyPosition: SourcePosition, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

extension JSONNode {
    /// Shorthand for `value.typeName`.
    public var typeName: String { value.typeName }
}
