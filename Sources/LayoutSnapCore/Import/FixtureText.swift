import LayoutSnapJSON

/// A fixture's JSON as people write them (the starter fixtures of `layoutsnap init`, the fixtures
/// `layoutsnap import` writes): one top-level field per line, each message or step of a list on a
/// line of its own, a final newline. Deterministic: members in the order given.
///
///     {
///       "kind": "chat",
///       "messages": [
///         {"id": "m1", "role": "user", "text": "Hi"}
///       ]
///     }
public enum FixtureText {
    public static func bytes(_ members: [(key: String, value: JSONOutput)]) -> [UInt8] {
        var out = "{\n"
        for (n, member) in members.enumerated() {
            out += "  " + inline(.string(member.key)) + ": "
            if case .array(let items) = member.value, items.contains(where: \.isContainer) {
                out += "[\n" + items.map { "    " + inline($0) }.joined(separator: ",\n") + "\n  ]"
            } else {
                out += inline(member.value)
            }
            out += n + 1 < members.count ? ",\n" : "\n"
        }
        return Array((out + "}\n").utf8)
    }

    /// `{"append": "Hello", "at": 1.5}`: on one line, a space after each colon and comma.
    public static func inline(_ value: JSONOutput) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .number(let d): return JSONWriter.formatNumber(d)
        case .string(let s):
            var bytes: [UInt8] = []
            JSONWriter.appendEscaped(s, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .array(let items): return "[" + items.map(inline).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { inline(.string($0.key)) + ": " + inline($0.value) }.joined(separator: ", ") + "}"
        }
    }
}

extension JSONOutput {
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
