// Paths name a location in a document the way a user would look for it,
// independently of the line/column (which is not known for values that were
// never in the file, e.g. a missing field).

/// A JSONPath-style location: `$`, `$.steps[1].expand`, `$["odd key"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document root, `$`.
    public static let root = JSONPath()

    public func appending(key: String) -> JSONPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    /// Whether this path is `other` or lies inside it.
    public func starts(within other: JSONPath) -> Bool { components.starts(with: other.components) }

    public func appending(index: Int) -> JSONPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    /// `$` for the root; identifier-like keys use dot notation, all other
    /// keys use a bracketed JSON string (`$["odd key"]`, `$["1st"]`).
    public var description: String {
        var out = "$"
        for component in components {
            switch component {
            case .index(let n):
                out += "[\(n)]"
            case .key(let k) where Self.isIdentifier(k):
                out += ".\(k)"
            case .key(let k):
                out += "[\(quoted(k))]"
            }
        }
        return out
    }

    /// ASCII identifiers only (`[A-Za-z_][A-Za-z0-9_]*`), so the dot form is
    /// always unambiguous to read back.
    static func isIdentifier(_ s: String) -> Bool {
        var first = true
        for b in s.utf8 {
            let isLetter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
            let isDigit = b >= 0x30 && b <= 0x39
            if !(isLetter || (!first && isDigit)) { return false }
            first = false
        }
        return !first
    }
}

extension JSONNode {
    /// Where the value at `path` (as `JSONPath` writes it: `$.steps[1].at`) starts in the
    /// source, or nil when the document has no such value: for errors found after decoding,
    /// which know only the path.
    public func position(at path: String) -> SourcePosition? {
        func walk(_ node: JSONNode, _ here: JSONPath) -> SourcePosition? {
            let written = here.description
            if written == path { return node.position }
            guard path.hasPrefix(written) else { return nil }
            switch node.value {
            case .object(let members):
                for member in members {
                    if let found = walk(member.value, here.appending(key: member.key)) { return found }
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    if let found = walk(item, here.appending(index: index)) { return found }
                }
            default: break
            }
            return nil
        }
        return walk(self, .root)
    }
}
