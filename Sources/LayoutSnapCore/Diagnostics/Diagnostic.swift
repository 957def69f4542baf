/// A problem found anywhere from decoding to golden I/O, as data: how bad it is, what it is
/// about, where (file, line, column, JSON path) and what it says. Rendered as text in one place
/// (`description`, and the command line's `error:` / `warning:` prefix), carried typed into
/// results.json, and classified by its category, never by reading its message.
public struct Diagnostic: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of problem it is: what decides how a run (or the fuzz harness) treats it.
    public enum Category: String, Sendable, Hashable, Codable {
        /// The fixture cannot be used: invalid JSON, a wrong field, a limit passed, a layout rule
        /// that cannot be met. Names the file and the JSON path (line and column when known).
        case fixture
        /// The fixture ran past `--timeout` and was stopped.
        case watchdog
        /// A golden cannot be used or written.
        case golden
        /// Drawing failed (Cairo, Pango, an image the fixture names).
        case render
        /// A file outside the goldens could not be read or written.
        case io
        /// A file the user gave besides the fixtures (layoutsnap.json, approvals.json, a
        /// results.json to merge) cannot be used: names the file and the place in it.
        case input
        /// Fonts, libraries or threads: nothing the fixture can change.
        case environment
    }

    public var severity: Severity
    public var category: Category
    /// The file as the user named it (a fixture, a golden, an output).
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// The JSON path inside the file (`$.steps[1].at`).
    public var path: String?
    public var message: String
    /// The same file's other errors, in source order, when one reading found several (a fixture
    /// with a typo in one field and a wrong value in another); nil when there are none.
    public var also: [Diagnostic]?
    /// The variant it arose in, when it arises only there, and where that variant was declared:
    /// `c@AX5 (from layoutsnap.json defaults.variants[1])`. nil for the fixture as written.
    public var variant: String?

    public init(
        _ severity: Severity = .error, _ category: Category, file: String? = nil, line: Int? = nil, column: Int? = nil,
        path: String? = nil, message: String
    ) {
        self.severity = severity
        self.category = category
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// The same problem, filed under another category.
    public func with(category: Category) -> Diagnostic {
        var copy = self
        copy.category = category
        copy.also = also?.map { $0.with(category: category) }
        return copy
    }

    /// True when it says where: a JSON path, or a line and column, in a named file.
    public var isLocated: Bool { file != nil && (path != nil || line != nil) }

    /// `Fixtures/posts/x.json:4:12: $.steps[1].at: expected a number, found a string`: the
    /// compiler-style prefix lets editors and CI annotations jump to the place.
    public var description: String {
        var s = ""
        if let file {
            s = file
            if let line { s += ":\(line)" }
            if let column { s += ":\(column)" }
            s += ": "
        }
        if let path { s += "\(path): " }
        if let variant { s += "in \(variant): " }
        return s + message
    }
}

extension FixtureError {
    /// The decoding error as a diagnostic of the fixture, carrying the file's other errors.
    public var diagnostic: Diagnostic {
        var d = Diagnostic(.error, .fixture, file: file, line: line, column: column, path: path, message: message)
        if !further.isEmpty { d.also = further.map(\.diagnostic) }
        return d
    }
}

extension Diagnostic {
    /// This diagnostic and the ones it carries, each once, in source order.
    public var all: [Diagnostic] {
        var first = self
        first.also = nil
        return [first] + (also ?? [])
    }
}

extension Diagnostic {
    /// The same problem, not tied to a variant.
    public var withoutVariant: Diagnostic {
        var d = self
        d.variant = nil
        return d
    }

    /// One diagnostic per cause, in first-met order: a mistake in a file is met by the fixture and
    /// each of its variants, and a limit only some variants reach by each of them; either is said
    /// once, naming the variants it arose in.
    public static func byCause(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var order: [Diagnostic] = []
        var variants: [Diagnostic: [String]] = [:]
        var fromBase: Set<Diagnostic> = []
        for d in diagnostics {
            let key = d.withoutVariant
            if variants[key] == nil { order.append(key) }
            if let variant = d.variant {
                if variants[key]?.contains(variant) != true { variants[key, default: []].append(variant) }
            } else {
                variants[key] = variants[key] ?? []
                fromBase.insert(key)
            }
        }
        return order.map { key in
            var d = key
            // Met by the fixture as written too: the variants add nothing to say.
            if !fromBase.contains(key), let names = variants[key], !names.isEmpty {
                d.variant = names.joined(separator: ", ")
            }
            return d
        }
    }
}
