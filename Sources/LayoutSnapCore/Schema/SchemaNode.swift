// The field tables the decoders are checked against, and the JSON Schemas (draft 2020-12) written
// from them: schema/fixture.schema.json and schema/config.schema.json are this file's output
// (`layoutsnap schema fixture|config`), never edited by hand. A test decodes fixtures with every
// field while recording the keys each ObjectReader asked for, path by path, and fails when a
// field is in the decoder and not in the table, or the other way round.

import LayoutSnapJSON

/// One node of a schema: what a JSON value at one place may be.
public indirect enum SchemaNode: Sendable {
    /// A value without members: `{"type": "string", "enum": [...]}` and the like.
    case leaf([(key: String, value: JSONOutput)])
    /// An object with exactly these fields (others are refused, as `ObjectReader.finish` does);
    /// `exactlyOneOf`: a step's events, of which it names one; `atLeastOneOf`: a variant's values.
    case object([SchemaField], required: [String] = [], exactlyOneOf: [String] = [], atLeastOneOf: [String] = [])
    case array(SchemaNode, minItems: Int? = nil, maxItems: Int? = nil)
    /// Alternatives that never both match (a string or an object, a matrix or a list).
    case oneOf([SchemaNode])
    /// A definition shared by several places (`#/$defs/name`).
    case ref(String)

    public static let boolean = SchemaNode.leaf([("type", "boolean")])
    /// A step's event flag: `{"expand": true}`.
    public static let trueFlag = SchemaNode.leaf([("const", true)])
    public static let string = SchemaNode.leaf([("type", "string")])
    public static let nonEmptyString = SchemaNode.leaf([("type", "string"), ("minLength", 1)])

    public static func number(_ range: ClosedRange<Double>) -> SchemaNode {
        .leaf([("type", "number"), ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))])
    }

    /// A number above `lower` (not equal) and at most `upper`.
    public static func number(above lower: Double, upTo upper: Double) -> SchemaNode {
        .leaf([("type", "number"), ("exclusiveMinimum", .number(lower)), ("maximum", .number(upper))])
    }

    /// An array of exactly these numbers, each named (its description) and with its own range:
    /// `[x1, y1, x2, y2]`.
    public static func numbers(_ items: [(name: String, range: ClosedRange<Double>)]) -> SchemaNode {
        .leaf([
            ("type", "array"),
            ("prefixItems", .array(items.map { JSONSchemaDocument.output(number($0.range), description: $0.name) })),
            ("items", false), ("minItems", .int(items.count)), ("maxItems", .int(items.count)),
        ])
    }

    public static func integer(_ range: ClosedRange<Int>) -> SchemaNode {
        .leaf([("type", "integer"), ("minimum", .int(range.lowerBound)), ("maximum", .int(range.upperBound))])
    }

    public static func integer(atLeast lower: Int) -> SchemaNode {
        .leaf([("type", "integer"), ("minimum", .int(lower))])
    }

    public static func enumeration(_ values: [String]) -> SchemaNode {
        .leaf([("enum", .array(values.map { .string($0) }))])
    }

    public static func enumeration<E: RawRepresentable & CaseIterable>(_: E.Type) -> SchemaNode
    where E.RawValue == String {
        enumeration(E.allCases.map(\.rawValue))
    }

    /// A string the decoder takes in any case: the canonical names for editors to offer, and a
    /// pattern that accepts the same letters in any case (JSON Schema's regular expressions have
    /// no case-insensitive flag).
    public static func anyCase(_ names: [String], pattern extra: [String] = []) -> SchemaNode {
        let alternatives = names.map(caseless) + extra
        return .oneOf([
            enumeration(names),
            .leaf([
                ("type", "string"), ("pattern", .string("^(" + alternatives.joined(separator: "|") + ")$")),
                ("not", ["enum": .array(names.map { .string($0) })]),
            ]),
        ])
    }

    /// A regular expression for `name` in any case: `AX3` → `[aA][xX]3`.
    public static func caseless(_ name: String) -> String {
        name.map { c -> String in
            let lower = c.lowercased()
            let upper = c.uppercased()
            return lower == upper ? String(c) : "[\(lower)\(upper)]"
        }.joined()
    }
}

/// A field of an object: its name, what its value may be, and what it means (for editors).
public struct SchemaField: Sendable {
    public var name: String
    public var node: SchemaNode
    public var description: String?

    public init(_ name: String, _ node: SchemaNode, _ description: String? = nil) {
        self.name = name
        self.node = node
        self.description = description
    }
}

/// A whole schema: a root and the definitions it refers to, written as JSON Schema 2020-12.
public struct JSONSchemaDocument: Sendable {
    public var id: String
    public var title: String
    public var description: String
    public var root: SchemaNode
    /// Extra members of the root (`allOf` choosing a kind's definition), written after it.
    public var rootExtras: [(key: String, value: JSONOutput)] = []
    public var definitions: [(name: String, node: SchemaNode)]

    public init(
        id: String, title: String, description: String, root: SchemaNode,
        rootExtras: [(key: String, value: JSONOutput)] = [], definitions: [(name: String, node: SchemaNode)]
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.root = root
        self.rootExtras = rootExtras
        self.definitions = definitions
    }

    /// The schema as JSON, pretty printed with a final newline: the file's bytes.
    public func bytes() -> [UInt8] {
        var members: [(key: String, value: JSONOutput)] = [
            ("$schema", "https://json-schema.org/draft/2020-12/schema"),
            ("$id", .string(id)),
            ("title", .string(title)),
            ("description", .string(description)),
        ]
        if case .object(let rootMembers) = Self.output(root, description: nil) { members += rootMembers }
        members += rootExtras
        if !definitions.isEmpty {
            members.append(("$defs", .object(definitions.map { ($0.name, Self.output($0.node, description: nil)) })))
        }
        var out = JSONWriter(style: .pretty).bytes(.object(members))
        out.append(0x0A)
        return out
    }

    static func output(_ node: SchemaNode, description: String?) -> JSONOutput {
        var members: [(key: String, value: JSONOutput)] = description.map { [("description", .string($0))] } ?? []
        switch node {
        case .leaf(let leaf):
            members += leaf
        case .object(let fields, let required, let exactlyOneOf, let atLeastOneOf):
            members.append(("type", "object"))
            members.append(
                ("properties", .object(fields.map { ($0.name, output($0.node, description: $0.description)) })))
            members.append(("additionalProperties", false))
            if !required.isEmpty { members.append(("required", .array(required.map { .string($0) }))) }
            if !exactlyOneOf.isEmpty {
                members.append(("oneOf", .array(exactlyOneOf.map { ["required": [.string($0)]] })))
            }
            if !atLeastOneOf.isEmpty {
                members.append(("anyOf", .array(atLeastOneOf.map { ["required": [.string($0)]] })))
            }
        case .array(let items, let minItems, let maxItems):
            members.append(("type", "array"))
            members.append(("items", output(items, description: nil)))
            if let minItems { members.append(("minItems", .int(minItems))) }
            if let maxItems { members.append(("maxItems", .int(maxItems))) }
        case .oneOf(let alternatives):
            members.append(("oneOf", .array(alternatives.map { output($0, description: nil) })))
        case .ref(let name):
            members.append(("$ref", .string("#/$defs/" + name)))
        }
        return .object(members)
    }

    /// The fields the schema allows at each place, by path with array indices as `[*]`
    /// (`$.steps[*].receive`), starting at `node` (a kind's definition, say): what the decoder's
    /// recorded keys are compared with.
    public func fieldsByPath(from node: SchemaNode) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        func walk(_ node: SchemaNode, _ path: String) {
            switch node {
            case .leaf: break
            case .object(let fields, _, _, _):
                result[path, default: []].formUnion(fields.map(\.name))
                for f in fields { walk(f.node, SchemaPaths.appending(key: f.name, to: path)) }
            case .array(let items, _, _): walk(items, path + "[*]")
            case .oneOf(let alternatives): for a in alternatives { walk(a, path) }
            case .ref(let name):
                if let definition = definitions.first(where: { $0.name == name }) { walk(definition.node, path) }
            }
        }
        walk(node, "$")
        return result
    }
}
