import Foundation
import LayoutSnapJSON

/// The field table of a kind's page in docs/fixtures/ (`docs/fixtures/<kind>.md`), written from
/// the same `Kind.fields` the decoder is held to and the JSON Schema is written from, so the page
/// cannot describe a field the decoder does not read. The table sits between the markers
/// `<!-- fields:<kind> begin -->` and `<!-- fields:<kind> end -->`; `DocsFieldTableTests` fails
/// while a page's table is not `markdown(kind)`, and rewrites it when `LAYOUTSNAP_UPDATE_DOCS=1`.
public enum FieldTable {
    /// The marker lines around a kind's table.
    public static func markers(_ kind: FixtureKind) -> (begin: String, end: String) {
        ("<!-- fields:\(kind.rawValue) begin -->", "<!-- fields:\(kind.rawValue) end -->")
    }

    /// The Markdown table of `kind`'s own fields: one row per field, and one per field of an
    /// object it holds (`image.path`, `steps[].expand`), with the type and range the schema allows
    /// and the schema's description.
    public static func markdown(_ kind: FixtureKind) -> String {
        var rows: [String] = []
        let definitions = Dictionary(
            (FixtureSchema.definitions + kind.definition.schemaDefinitions).map { ($0.name, $0.node) },
            uniquingKeysWith: { first, _ in first })
        for field in kind.definition.fields { append(field, prefix: "", to: &rows, definitions: definitions) }
        return (["| field | type, range | meaning |", "|---|---|---|"] + rows).joined(separator: "\n") + "\n"
    }

    /// `text` with the table between `kind`'s markers replaced by `markdown(kind)`; nil when the
    /// markers are missing or out of order.
    public static func replacingTable(in text: String, kind: FixtureKind) -> String? {
        let (begin, end) = markers(kind)
        guard let b = text.range(of: begin), let e = text.range(of: end, range: b.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[..<b.upperBound]) + "\n" + markdown(kind) + String(text[e.lowerBound...])
    }

    static func append(
        _ field: SchemaField, prefix: String, required: Bool = false, to rows: inout [String],
        definitions: [String: SchemaNode]
    ) {
        let name = prefix + field.name
        let type = type(field.node, definitions: definitions) + (required ? ", required" : "")
        // A description is plain text: its `*` and `_` are shown, not taken for emphasis.
        let meaning = (field.description ?? "").replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(
            of: "_", with: "\\_")
        rows.append("| `\(name)` | \(cell(type)) | \(cell(meaning)) |")
        switch resolved(field.node, definitions) {
        case .object(let fields, let needed, _, _):
            for f in fields {
                append(f, prefix: name + ".", required: needed.contains(f.name), to: &rows, definitions: definitions)
            }
        case .array(let items, _, _):
            if case .object(let fields, let needed, _, _) = resolved(items, definitions) {
                for f in fields {
                    append(
                        f, prefix: name + "[].", required: needed.contains(f.name), to: &rows, definitions: definitions)
                }
            }
        default:
            break
        }
    }

    /// The node a `.ref` names (a definition may name another), else the node itself.
    static func resolved(_ node: SchemaNode, _ definitions: [String: SchemaNode]) -> SchemaNode {
        var node = node
        for _ in 0..<4 {
            guard case .ref(let name) = node, let definition = definitions[name] else { break }
            node = definition
        }
        return node
    }

    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// What a value may be, in a few words: `number 1–8192`, `loaded | loading | failed`.
    static func type(_ node: SchemaNode, definitions: [String: SchemaNode], depth: Int = 0) -> String {
        switch node {
        case .leaf(let members):
            return leaf(members)
        case .object(let fields, _, let exactlyOneOf, _):
            if !exactlyOneOf.isEmpty {
                return "object with one of " + exactlyOneOf.map { "`\($0)`" }.joined(separator: ", ")
            }
            if depth == 0 { return "object" }
            return "{"
                + fields.map { "\"\($0.name)\": " + type($0.node, definitions: definitions, depth: depth + 1) }.joined(
                    separator: ", ") + "}"
        case .array(let items, let minItems, let maxItems):
            let count: String
            switch (minItems, maxItems) {
            case (let min?, let max?) where min == max: count = "\(min) "
            case (let min?, let max?): count = "\(min)–\(max) "
            case (nil, let max?): count = "at most \(max) "
            case (let min?, nil): count = "at least \(min) "
            case (nil, nil): count = ""
            }
            if case .object = resolved(items, definitions), depth == 0 { return "array of \(count)objects" }
            let item = type(items, definitions: definitions, depth: depth + 1)
            for word in ["integer", "number", "string"]
            where item.hasPrefix(word) || item.hasPrefix("non-empty " + word) {
                return "array of \(count)"
                    + item.replacingOccurrences(of: word, with: word + "s", options: [], range: item.range(of: word))
            }
            return "array of \(count)" + item
        case .oneOf(let alternatives):
            // `anyCase`: the canonical names, or the same letters in another case.
            if alternatives.count == 2, case .leaf(let second) = alternatives[1],
                second.contains(where: { $0.key == "not" })
            {
                return type(alternatives[0], definitions: definitions, depth: depth + 1) + " (any case)"
            }
            return alternatives.map { type($0, definitions: definitions, depth: depth + 1) }.joined(separator: " or ")
        case .ref(let name):
            guard let definition = definitions[name], depth < 4 else { return name }
            // An object the rows below spell out is "object" at the top, as one written in place.
            if case .object = definition, depth == 0 { return type(definition, definitions: definitions, depth: 0) }
            return type(definition, definitions: definitions, depth: depth + 1)
        }
    }

    static func leaf(_ members: [(key: String, value: JSONOutput)]) -> String {
        func value(_ key: String) -> JSONOutput? { members.first(where: { $0.key == key })?.value }
        if let constant = value("const") { return "`" + literal(constant) + "`" }
        if case .array(let values)? = value("enum") {
            return values.map { "`" + literal($0) + "`" }.joined(separator: " | ")
        }
        guard case .string(let type)? = value("type") else { return "any" }
        switch type {
        case "number", "integer":
            let low = value("minimum").map(literal)
            let high = value("maximum").map(literal)
            if let above = value("exclusiveMinimum").map(literal) {
                return "\(type) > \(above)" + (high.map { ", ≤ \($0)" } ?? "")
            }
            switch (low, high) {
            case (let l?, let h?): return "\(type) \(l)–\(h)"
            case (let l?, nil): return "\(type) ≥ \(l)"
            case (nil, let h?): return "\(type) ≤ \(h)"
            case (nil, nil): return type
            }
        case "string":
            return value("minLength") != nil ? "non-empty string" : "string"
        case "boolean":
            return "bool"
        case "array":
            // `numbers`: each item named by its description.
            guard case .array(let items)? = value("prefixItems") else { return type }
            return "["
                + items.map { item -> String in
                    guard case .object(let members) = item else { return "any" }
                    let name = members.first { $0.key == "description" }.map { literal($0.value) + " " } ?? ""
                    return name + leaf(members.filter { $0.key != "description" })
                }.joined(separator: ", ") + "]"
        default:
            return type
        }
    }

    static func literal(_ value: JSONOutput) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .number(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .string(let s): return s
        case .array, .object: return "…"
        }
    }
}
