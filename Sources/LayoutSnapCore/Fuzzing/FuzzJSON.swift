/// A JSON-shaped tree that may hold what JSON forbids: the fuzzer's working copy of a fixture.
/// Numbers are raw tokens (so `NaN`, `1e999` and 30-digit integers survive untouched) and string
/// contents are raw bytes written between the quotes as they are (so invalid UTF-8, lone `\ud800`
/// escapes and broken escapes reach the parser exactly as a careless generator would write them).

import LayoutSnapJSON

public indirect enum FuzzJSON: Sendable, Equatable {
    /// A token written as is: a number, `true`, `null`, or anything else.
    case raw([UInt8])
    /// A string's contents, written between quotes without further escaping.
    case string([UInt8])
    case array([FuzzJSON])
    case object([FuzzMember])

    /// The tree of a parsed document, every string escaped as JSON requires.
    public init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .raw(Array("null".utf8))
        case .bool(let b): self = .raw(Array((b ? "true" : "false").utf8))
        case .number(let n): self = .raw(Array(Self.token(n).utf8))
        case .string(let s): self = .string(Self.escapedContents(s))
        case .array(let items): self = .array(items.map(FuzzJSON.init))
        case .object(let members):
            self = .object(members.map { FuzzMember(key: Self.escapedContents($0.key), value: FuzzJSON($0.value)) })
        }
    }

    /// A number as JSON writes it: integers without a fraction.
    static func token(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    /// `s` escaped for use between quotes.
    public static func escapedContents(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.appendEscaped(s, to: &out)
        return Array(out.dropFirst().dropLast())
    }

    /// The document's bytes: compact, one space after separators, as people write fixtures.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        // Without recursion, so that no tree is too deep to write.
        enum Work {
            case value(FuzzJSON)
            case literal([UInt8])
        }
        var stack: [Work] = [.value(self)]
        while let work = stack.popLast() {
            switch work {
            case .literal(let bytes): out.append(contentsOf: bytes)
            case .value(let v):
                switch v {
                case .raw(let token): out.append(contentsOf: token)
                case .string(let contents):
                    out.append(0x22)
                    out.append(contentsOf: contents)
                    out.append(0x22)
                case .array(let items):
                    out.append(0x5B)
                    stack.append(.literal([0x5D]))
                    for (i, item) in items.enumerated().reversed() {
                        stack.append(.value(item))
                        if i > 0 { stack.append(.literal([0x2C, 0x20])) }
                    }
                case .object(let members):
                    out.append(0x7B)
                    stack.append(.literal([0x7D]))
                    for (i, member) in members.enumerated().reversed() {
                        stack.append(.value(member.value))
                        stack.append(.literal([0x22] + member.key + [0x22, 0x3A, 0x20]))
                        if i > 0 { stack.append(.literal([0x2C, 0x20])) }
                    }
                }
            }
        }
    }

    /// Where a value sits: member keys and array indices from the root.
    public enum Step: Sendable, Equatable {
        case key(Int)
        case index(Int)
    }

    /// A value and where it sits; `key` is the member name it is the value of, if any.
    public struct Location: Sendable {
        public var path: [Step]
        public var key: [UInt8]?
        public var value: FuzzJSON
    }

    /// Every value with its location, root first, in document order.
    public var locations: [Location] {
        var result: [Location] = []
        var stack: [Location] = [Location(path: [], key: nil, value: self)]
        while let location = stack.popLast() {
            result.append(location)
            switch location.value {
            case .array(let items):
                for i in items.indices.reversed() {
                    stack.append(Location(path: location.path + [.index(i)], key: nil, value: items[i]))
                }
            case .object(let members):
                for i in members.indices.reversed() {
                    stack.append(
                        Location(path: location.path + [.key(i)], key: members[i].key, value: members[i].value))
                }
            default: break
            }
        }
        return result
    }

    public subscript(path: [Step]) -> FuzzJSON {
        get {
            var value = self
            for step in path {
                switch (step, value) {
                case (.index(let i), .array(let items)): value = items[i]
                case (.key(let i), .object(let members)): value = members[i].value
                default: preconditionFailure("FuzzJSON: no value at \(path)")
                }
            }
            return value
        }
        set { replace(at: path[...], with: newValue) }
    }

    private mutating func replace(at path: ArraySlice<Step>, with newValue: FuzzJSON) {
        guard let first = path.first else {
            self = newValue
            return
        }
        switch (first, self) {
        case (.index(let i), .array(var items)):
            items[i].replace(at: path.dropFirst(), with: newValue)
            self = .array(items)
        case (.key(let i), .object(var members)):
            members[i].value.replace(at: path.dropFirst(), with: newValue)
            self = .object(members)
        default: preconditionFailure("FuzzJSON: no value at \(Array(path))")
        }
    }

    /// The member named `key` of an object, nil otherwise.
    public func member(_ key: String) -> FuzzJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == Array(key.utf8) }?.value
    }
}

public struct FuzzMember: Sendable, Equatable {
    /// The key's contents between the quotes.
    public var key: [UInt8]
    public var value: FuzzJSON

    public init(key: [UInt8], value: FuzzJSON) {
        self.key = key
        self.value = value
    }
}
