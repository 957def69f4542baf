/// A fixture that cannot be used: which file, where in it, and what is wrong.

import LayoutSnapJSON

public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The JSON path (`$.steps[1].at`), nil for problems with the file as a whole.
    public var path: String?
    /// Line and column, when the problem has a place in the text.
    public var line: Int?
    public var column: Int?
    public var message: String
    /// The file's other errors, in source order, when decoding went on past this one.
    public var further: [FixtureError] = []

    public init(file: String, path: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public init(file: String, _ error: JSONDecodingError) {
        self.init(
            file: file, path: error.path.description, line: error.position?.line, column: error.position?.column,
            message: error.message)
    }

    /// The first of `errors` (source order), carrying the others.
    init(file: String, _ collected: DecodingErrors.Collected) {
        self.init(file: file, collected.errors[0])
        further = collected.errors.dropFirst().map { FixtureError(file: file, $0) }
    }

    /// `Fixtures/posts/x.json:4:12: $.steps[1].at: expected a number, found a string`: the
    /// compiler-style prefix lets editors and CI annotations jump to the place.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        s += ": "
        if let path { s += "\(path): " }
        return s + message
    }
}

extension FixtureError {
    /// Parses `bytes` and reads the document with `read`: a syntax or shape error becomes one that
    /// names `file`, the line and the JSON path (layoutsnap.json, approvals.json).
    public static func decoding<Value>(
        _ bytes: [UInt8], file: String,
        _ read: (JSONElement) throws(JSONDecodingError) -> Value
    ) throws(FixtureError) -> Value {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(
                file: file, line: error.position.line, column: error.position.column,
                message: "invalid JSON: \(error.message)")
        }
        do throws(DecodingErrors.Collected) {
            return try DecodingErrors.collecting(limit: Limits.maxErrorsPerFile) { () throws(JSONDecodingError) in
                try read(JSONElement(root))
            }
        } catch {
            throw FixtureError(file: file, error)
        }
    }
}
