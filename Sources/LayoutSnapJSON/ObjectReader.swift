// Hand-written typed decoding with good errors. Codable would report
// "keyNotFound" with coding paths and no line numbers, and silently ignores
// misspelled fields; here every error carries the JSON path and the source
// position, and `finish()` rejects unknown fields with a suggestion.

import Synchronization

/// A semantic (not syntax) error found while reading a parsed document.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: JSONPath
    /// Where in the source the problem is; nil when there is no such place.
    public var position: SourcePosition?
    public var message: String

    public init(path: JSONPath, position: SourcePosition?, message: String) {
        self.path = path
        self.position = position
        self.message = message
    }

    /// "$.steps[1].at: expected a number, found a string (line 4, column 12)"
    public var description: String {
        if let position {
            return "\(path): \(message) (\(position))"
        }
        return "\(path): \(message)"
    }
}

/// A parsed node together with its path, with typed accessors that throw
/// `JSONDecodingError`s naming that path and the node's position.
public struct JSONElement: Sendable, Equatable {
    public let node: JSONNode
    public let path: JSONPath

    public init(_ node: JSONNode, path: JSONPath = .root) {
        self.node = node
        self.path = path
    }

    public var value: JSONValue { node.value }
    public var position: SourcePosition { node.position }
    public var isNull: Bool { node.value == .null }
    /// "null", "a boolean", "a number", "a string", "an array", "an object".
    public var typeName: String { node.value.typeName }

    /// An error at this element, for callers' own validation
    /// (`throw el.error("expected one of \"linear\", \"ease\"")`).
    public func error(_ message: String) -> JSONDecodingError {
        JSONDecodingError(path: path, position: node.position, message: message)
    }

    private func mismatch(_ expected: String) -> JSONDecodingError {
        error("expected \(expected), found \(typeName)")
    }

    /// The string, in Unicode's stream-safe form (StreamSafe: long runs of combining marks get an
    /// invisible joiner every 30 marks, so no later string operation is quadratic).
    public func string() throws(JSONDecodingError) -> String {
        guard case .string(let s) = node.value else { throw mismatch("a string") }
        return StreamSafe.apply(s)
    }

    public func bool() throws(JSONDecodingError) -> Bool {
        guard case .bool(let b) = node.value else { throw mismatch("a boolean") }
        return b
    }

    /// A finite number (parsed documents only contain finite numbers; this
    /// also guards hand-built nodes).
    /// A number as an error message shows it: exactly, unless it is absurdly large or small
    /// (`1e+300`, not three hundred digits).
    public static func describe(_ d: Double) -> String {
        d != 0 && (abs(d) >= 1e15 || abs(d) < 1e-6) ? "\(d)" : JSONWriter.formatNumber(d)
    }

    public func double() throws(JSONDecodingError) -> Double {
        guard case .number(let d) = node.value else { throw mismatch("a number") }
        guard d.isFinite else { throw error("expected a finite number") }
        return d
    }

    /// An integral number within `Int32` range (so it is safe to use as a
    /// count or index on any platform). `2.0` is accepted, `2.5` is not.
    public func int() throws(JSONDecodingError) -> Int {
        guard case .number(let d) = node.value else { throw mismatch("a whole number") }
        guard d.isFinite, d.rounded(.towardZero) == d else {
            throw error("expected a whole number, found \(Self.describe(d))")
        }
        guard d >= Double(Int32.min), d <= Double(Int32.max) else {
            throw error(
                "expected a whole number between \(Int32.min) and \(Int32.max), found \(Self.describe(d))")
        }
        return Int(d)
    }

    public func array() throws(JSONDecodingError) -> [JSONElement] {
        guard case .array(let items) = node.value else { throw mismatch("an array") }
        return items.enumerated().map { JSONElement($1, path: path.appending(index: $0)) }
    }

    public func object() throws(JSONDecodingError) -> ObjectReader {
        guard case .object(let members) = node.value else { throw mismatch("an object") }
        return ObjectReader(members: members, path: path, position: node.position)
    }
}

/// Reads the members of one JSON object and remembers which keys were asked
/// for, so `finish()` can reject fields the program doesn't understand
/// (usually typos) instead of silently ignoring them.
///
///     let o = try element.object()
///     let kind = try o.required("kind").string()
///     let fps = try o.optional("fps")?.double() ?? 60
///     try o.finish()
///
/// It is a class so `let o` works at call sites and the bookkeeping is
/// shared by all references; the bookkeeping is behind a mutex, so the type
/// is genuinely `Sendable`.
public final class ObjectReader: Sendable {
    /// Path of the object itself.
    public let path: JSONPath
    /// Position of the object's `{`.
    public let position: SourcePosition
    /// The members in source order.
    public let members: [JSONMember]
    /// First occurrence of each key. (Parsed objects have no duplicates.)
    private let indexByKey: [String: Int]

    private struct Bookkeeping {
        var used: [Bool]
        /// Every key the program asked for, present or not, for "did you
        /// mean" suggestions.
        var asked: [String] = []
    }
    private let bookkeeping: Mutex<Bookkeeping>

    public init(members: [JSONMember], path: JSONPath, position: SourcePosition) {
        self.members = members
        self.path = path
        self.position = position
        var index: [String: Int] = [:]
        for (n, member) in members.enumerated() where index[member.key] == nil {
            index[member.key] = n
        }
        indexByKey = index
        bookkeeping = Mutex(Bookkeeping(used: Array(repeating: false, count: members.count)))
    }

    /// The keys in source order.
    public var keys: [String] { members.map(\.key) }

    /// Whether the key is present (`null` counts as present). Does not mark
    /// the key as read.
    public func contains(_ key: String) -> Bool { indexByKey[key] != nil }

    /// The member's value; throws "missing required field" at the object's
    /// path when absent.
    public func required(_ key: String) throws(JSONDecodingError) -> JSONElement {
        guard let element = optional(key) else {
            // `"txt"` where `"text"` is required: the misspelling is the mistake, where it is.
            if let n = misspelling(of: key) {
                bookkeeping.withLock { $0.used[n] = true }
                throw unknownField(n, suggesting: key)
            }
            throw JSONDecodingError(
                path: path, position: position, message: "missing required field \(quoted(key))")
        }
        return element
    }

    /// The error for an unread member that looks like a misspelling of one of `candidates`
    /// (`"receve"` for a step's `receive`), now marked as read; nil when none does. One edit at
    /// most: the object's other keys may not have been read yet, and "file" is two from "size".
    public func misspelling(among candidates: [String]) -> JSONDecodingError? {
        let used = bookkeeping.withLock { $0.used }
        for n in members.indices where !used[n] {
            if let meant = Self.suggestion(for: members[n].key, among: candidates, present: indexByKey, within: 1) {
                bookkeeping.withLock { $0.used[n] = true }
                return unknownField(n, suggesting: meant)
            }
        }
        return nil
    }

    /// An unread member one edit from `key` (see `misspelling(among:)`).
    private func misspelling(of key: String) -> Int? {
        let used = bookkeeping.withLock { $0.used }
        return members.indices.first { n in
            !used[n] && Self.suggestion(for: members[n].key, among: [key], present: indexByKey, within: 1) == key
        }
    }

    private func unknownField(_ n: Int, suggesting suggestion: String?) -> JSONDecodingError {
        let member = members[n]
        var message = "unknown field \(quoted(member.key))"
        if let suggestion { message += "; did you mean \(quoted(suggestion))?" }
        return JSONDecodingError(path: path.appending(key: member.key), position: member.keyPosition, message: message)
    }

    /// The member's value, or nil when the key is absent. A present `null`
    /// is returned as an element (check `isNull`), so "explicitly null" and
    /// "absent" stay distinguishable.
    public func optional(_ key: String) -> JSONElement? {
        let index = indexByKey[key]
        bookkeeping.withLock { state in
            state.asked.append(key)
            if let index { state.used[index] = true }
        }
        guard let index else { return nil }
        return JSONElement(members[index].value, path: path.appending(key: key))
    }

    /// Throws for the first member (in source order) that was never asked for: `unknown field
    /// "colour"; did you mean "color"?` (or, without a close key, the fields allowed here),
    /// reported at the member's key. While errors are being collected (`DecodingErrors`), every
    /// such member is recorded instead, and decoding goes on.
    public func finish() throws(JSONDecodingError) {
        let (used, asked) = bookkeeping.withLock { ($0.used, $0.asked) }
        FieldRecorder.current?.record(path: path, asked: asked)
        for n in members.indices where !used[n] {
            var error = unknownField(
                n, suggesting: Self.suggestion(for: members[n].key, among: asked, present: indexByKey))
            if !error.message.hasSuffix("?") {
                var allowed: [String] = []
                for key in asked where !allowed.contains(key) { allowed.append(key) }
                error.message += "; allowed here: " + allowed.sorted().joined(separator: ", ")
            }
            guard let collector = DecodingErrors.current, collector.record(error) else { throw error }
        }
    }

    /// The closest asked-for key within edit distance 2. Keys that are
    /// themselves present are less likely to be what was meant, so absent
    /// ones win ties. A candidate must also differ in fewer characters than
    /// the unknown key has, so "x" never suggests "y".
    static func suggestion(
        for key: String, among asked: [String], present: [String: Int], within maxDistance: Int = 2
    ) -> String? {
        var best: (key: String, distance: Int, isPresent: Bool)?
        var seen = Set<String>()
        for candidate in asked where seen.insert(candidate).inserted {
            let d = editDistance(key, candidate)
            guard d <= maxDistance, d < key.count else { continue }
            let isPresent = present[candidate] != nil
            if let b = best, (b.distance, b.isPresent ? 1 : 0) <= (d, isPresent ? 1 : 0) { continue }
            best = (candidate, d, isPresent)
        }
        return best?.key
    }

    /// Optimal-string-alignment distance (Levenshtein plus adjacent
    /// transpositions, so "fsp" is one edit from "fps"), over characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

/// Collects, path by path (indices as `[*]`), the keys decoders asked for in the objects they
/// finished: how the schema test sees what the decoders read (see SchemaNode.swift). Off unless a
/// test sets `FieldRecorder.$current`.
public final class FieldRecorder: Sendable {
    @TaskLocal public static var current: FieldRecorder?

    private let fields = Mutex<[String: Set<String>]>([:])

    public init() {}

    func record(path: JSONPath, asked: [String]) {
        let key = SchemaPaths.normalized(path)
        fields.withLock { $0[key, default: []].formUnion(asked) }
    }

    public var fieldsByPath: [String: Set<String>] { fields.withLock { $0 } }
}
