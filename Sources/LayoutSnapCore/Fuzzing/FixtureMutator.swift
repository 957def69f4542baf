/// Turns valid fixtures into hostile ones (docs/guarantees.md "Fuzzing"): the damage people, editors, merge tools and
/// generators actually do to JSON files, plus the values that sit on and just past docs/fixtures/README.md "Limits"'s
/// limits. Case `i` depends only on (seed, i) and the base corpus, so any case can be made again
/// from its number: a crash found at case 7,341 is replayed with `--from 7341 --cases 1`.
public struct FixtureMutator: Sendable {
    /// The valid fixtures mutations start from, parsed once.
    public struct Base: Sendable {
        public var name: String
        public var tree: FuzzJSON
        /// The tree written out, once: a case that writes the same bytes changed nothing.
        public let bytes: [UInt8]

        public init(name: String, tree: FuzzJSON) {
            self.name = name
            self.tree = tree
            bytes = tree.bytes
        }
    }

    public enum Mutation: String, Sendable, CaseIterable {
        case truncate, flipBytes, insertGarbage
        case wrongType, extremeNumber, limitEdge
        case deepNesting, invalidUTF8, loneSurrogate, hugeWord, hostileText
        case unknownKind, otherKind, unknownStep, manySteps
        case removeMember, duplicateMember, unknownMember, emptyContainer, splice
    }

    /// One hostile fixture: its bytes, the base it came from and what was done to it.
    public struct Case: Sendable {
        public var index: Int
        public var base: Int
        public var mutations: [Mutation]
        public var bytes: [UInt8]

        public var summary: String { mutations.map(\.rawValue).joined(separator: "+") }
    }

    public let bases: [Base]
    public let seed: UInt64

    public init(bases: [Base], seed: UInt64) {
        precondition(!bases.isEmpty, "FixtureMutator needs at least one base fixture")
        self.bases = bases
        self.seed = seed
    }

    static let stream: UInt64 = 0xF022

    public func makeCase(_ index: Int) -> Case {
        var r = SeededRandom(seed: seed, stream: Self.stream, index: UInt64(index))
        let baseIndex = r.int(0...bases.count - 1)
        var tree = bases[baseIndex].tree
        var applied: [Mutation] = []
        // Tree mutations first (one to three), then, sometimes, damage to the bytes themselves.
        for _ in 0..<r.int(weighted: [(1...1, 0.6), (2...2, 0.3), (3...3, 0.1)]) {
            let m = r.weighted(Self.treeWeights)
            if apply(m, to: &tree, &r) { applied.append(m) }
        }
        var bytes = tree.bytes
        // Mutations can undo each other (a field added, then removed): such a case damages bytes.
        if applied.isEmpty || r.chance(0.15) || bytes == bases[baseIndex].bytes {
            let m = r.weighted(Self.byteWeights)
            Self.damage(m, &bytes, &r)
            applied.append(m)
        }
        return Case(index: index, base: baseIndex, mutations: applied, bytes: bytes)
    }

    static let treeWeights: [(Mutation, Double)] = [
        (.wrongType, 3), (.extremeNumber, 3), (.limitEdge, 3),
        (.deepNesting, 0.6), (.invalidUTF8, 1.5), (.loneSurrogate, 1.5), (.hugeWord, 0.8), (.hostileText, 6),
        (.unknownKind, 0.8), (.otherKind, 0.8), (.unknownStep, 1.5), (.manySteps, 0.3),
        (.removeMember, 2), (.duplicateMember, 1), (.unknownMember, 1), (.emptyContainer, 1.5), (.splice, 1.5),
    ]
    static let byteWeights: [(Mutation, Double)] = [(.truncate, 3), (.flipBytes, 2), (.insertGarbage, 1)]

    // MARK: Tree mutations

    /// Applies `m` somewhere in `tree`; false when the tree has no place for it.
    func apply(_ m: Mutation, to tree: inout FuzzJSON, _ r: inout SeededRandom) -> Bool {
        let locations = tree.locations
        func pick(where test: (FuzzJSON.Location) -> Bool) -> FuzzJSON.Location? {
            let candidates = locations.filter(test)
            return candidates.isEmpty ? nil : r.pick(candidates)
        }
        /// Text people write (messages, titles, typed input), where hostile text is still valid.
        func text(_ l: FuzzJSON.Location) -> Bool {
            guard case .string = l.value else { return false }
            return l.key.map { Self.textKeys.contains($0) } ?? true
        }
        switch m {
        case .wrongType:
            let at = r.pick(locations)
            tree[at.path] = Self.otherType(than: at.value, &r)
        case .extremeNumber:
            let at =
                pick(where: { if case .raw(let t) = $0.value { Self.isNumber(t) } else { false } }) ?? r.pick(locations)
            tree[at.path] = .raw(Array(r.pick(Self.extremeNumbers).utf8))
        case .limitEdge:
            // A field that has a limit, set on or just past it; where the fixture has none of
            // them, a canvas field at the top.
            let at = pick(where: { l in l.key.map { k in Self.limitEdges.contains { Array($0.0.utf8) == k } } ?? false }
            )
            let field =
                at?.key.map { String(decoding: $0, as: UTF8.self) } ?? r.pick(["width", "height", "scale", "fps"])
            let values = Self.limitEdges.first { $0.0 == field }!.1
            let value = FuzzJSON.raw(Array(r.pick(values).utf8))
            if let at {
                tree[at.path] = value
            } else if case .object(var members) = tree {
                members.append(FuzzMember(key: Array(field.utf8), value: value))
                tree = .object(members)
            } else {
                return false
            }
        case .deepNesting:
            let at = r.pick(locations)
            let depth = r.pick([64, 256, 1_000, 10_000, 100_000])
            // Written as bytes around the value: a tree 100,000 levels deep would be released
            // recursively and overflow this thread's stack, which is not the crash we are after.
            let (open, close): ([UInt8], [UInt8]) = r.chance(0.3) ? (Array("{\"a\": ".utf8), [0x7D]) : ([0x5B], [0x5D])
            var bytes: [UInt8] = []
            bytes.reserveCapacity(depth * (open.count + 1) + 64)
            for _ in 0..<depth { bytes.append(contentsOf: open) }
            bytes.append(contentsOf: at.value.bytes)
            for _ in 0..<depth { bytes.append(contentsOf: close) }
            tree[at.path] = .raw(bytes)
        case .invalidUTF8, .loneSurrogate, .hostileText:
            guard let at = pick(where: text), case .string(var s) = at.value else { return false }
            let insert: [UInt8]
            switch m {
            case .invalidUTF8: insert = r.pick(Self.invalidUTF8)
            case .loneSurrogate: insert = Array(r.pick(Self.surrogateEscapes).utf8)
            default: insert = FuzzJSON.escapedContents(Self.hostileText(&r))
            }
            s.insert(contentsOf: insert, at: m == .hostileText ? r.pick([0, s.count]) : r.int(0...s.count))
            tree[at.path] = .string(s)
        case .hugeWord:
            guard let at = pick(where: text) else { return false }
            tree[at.path] = .string(Self.hugeWord(&r))
        case .unknownKind:
            guard let at = pick(where: { $0.path.count == 1 && $0.key == Array("kind".utf8) }) else { return false }
            tree[at.path] = r.pick([
                .string(Array(r.pick(["Post", "posts", "", "card", "transcript ", "chat\\u0000", "κind"]).utf8)),
                .raw(Array("null".utf8)), .raw(Array("4".utf8)), .array([]),
            ])
        case .otherKind:
            // Another valid kind with this one's fields: they become unknown-field errors.
            guard let at = pick(where: { $0.path.count == 1 && $0.key == Array("kind".utf8) }) else { return false }
            let others = FixtureKind.allCases.map { FuzzJSON.string(Array($0.rawValue.utf8)) }.filter { $0 != at.value }
            tree[at.path] = r.pick(others)
        case .unknownStep:
            guard let steps = Self.stepsPath(tree), case .array(var items) = tree[steps] else { return false }
            let step: FuzzJSON
            switch r.int(0...4) {
            case 0:
                step = .object([
                    FuzzMember(
                        key: Array(r.pick(["explode", "Append", "scroll ", "", "expand\\u0000"]).utf8),
                        value: .raw(Array("true".utf8)))
                ])
            case 1: step = .object([])
            case 2: step = .string(Array("append".utf8))
            case 3:
                // Two events in one step.
                let a = items.isEmpty ? FuzzJSON.object([]) : r.pick(items)
                let b = items.isEmpty ? FuzzJSON.object([]) : r.pick(items)
                if case .object(let ma) = a, case .object(let mb) = b {
                    step = .object(ma + mb)
                } else {
                    step = .array([a, b])
                }
            default: step = .raw(Array("null".utf8))
            }
            items.insert(step, at: r.int(0...items.count))
            tree[steps] = .array(items)
        case .manySteps:
            guard let steps = Self.stepsPath(tree), case .array(let items) = tree[steps], !items.isEmpty else {
                return false
            }
            let count = r.pick([100, 1_000, 12_000])
            tree[steps] = .array((0..<count).map { items[$0 % items.count] })
        case .removeMember:
            guard let at = pick(where: { if case .object(let m) = $0.value { !m.isEmpty } else { false } }),
                case .object(var members) = at.value
            else { return false }
            members.remove(at: r.int(0...members.count - 1))
            tree[at.path] = .object(members)
        case .duplicateMember:
            guard let at = pick(where: { if case .object(let m) = $0.value { !m.isEmpty } else { false } }),
                case .object(var members) = at.value
            else { return false }
            let copy = r.pick(members)
            members.insert(
                FuzzMember(key: copy.key, value: r.chance(0.5) ? copy.value : Self.otherType(than: copy.value, &r)),
                at: r.int(0...members.count))
            tree[at.path] = .object(members)
        case .unknownMember:
            guard let at = pick(where: { if case .object = $0.value { true } else { false } }),
                case .object(var members) = at.value
            else { return false }
            let key = r.pick([
                "colour", "Kind", "steps ", "lineLimits", "", "__proto__", "$", "a.b", "\\u0000", "width\\u0000",
            ])
            members.insert(FuzzMember(key: Array(key.utf8), value: .raw(Array("1".utf8))), at: r.int(0...members.count))
            tree[at.path] = .object(members)
        case .emptyContainer:
            guard
                let at = pick(where: {
                    switch $0.value {
                    case .array(let a): !a.isEmpty
                    case .object(let o): !o.isEmpty
                    default: false
                    }
                })
            else { return false }
            tree[at.path] = r.chance(0.5) ? .array([]) : .object([])
        case .splice:
            // A value from another fixture (often another kind) in place of one of this one's.
            let donor = r.pick(r.pick(bases).tree.locations).value
            let at = r.pick(locations)
            guard donor != at.value else { return false }
            tree[at.path] = donor
        case .truncate, .flipBytes, .insertGarbage:
            return false
        }
        return true
    }

    /// Members whose strings are text to lay out.
    static let textKeys: Set<[UInt8]> = Set(
        [
            "text", "title", "summary", "body", "author", "placeholder", "disabledPlaceholder",
            "append", "type", "stream", "compose", "insertSuggestion", "receive", "send",
        ].map { Array($0.utf8) })

    static func isString(_ v: FuzzJSON) -> Bool { if case .string = v { true } else { false } }

    static func otherType(than value: FuzzJSON, _ r: inout SeededRandom) -> FuzzJSON {
        let options: [FuzzJSON] = [
            .raw(Array("null".utf8)), .raw(Array("true".utf8)), .raw(Array("0".utf8)), .raw(Array("-3.5".utf8)),
            .string(Array("12".utf8)), .string([]), .string(Array("body".utf8)), .array([]),
            .array([.raw(Array("1".utf8)), .string(Array("x".utf8))]), .object([]),
            .object([FuzzMember(key: Array("size".utf8), value: .raw(Array("17".utf8)))]),
        ]
        let different = options.filter { !Self.sameType($0, value) }
        return r.pick(different)
    }

    static func sameType(_ a: FuzzJSON, _ b: FuzzJSON) -> Bool {
        switch (a, b) {
        case (.string, .string), (.array, .array), (.object, .object): true
        case (.raw(let x), .raw(let y)): isNumber(x) == isNumber(y) && (isNumber(x) || x == y)
        default: false
        }
    }

    static func isNumber(_ token: [UInt8]) -> Bool {
        guard let first = token.first else { return false }
        return first == 0x2D || (0x30...0x39).contains(first)
    }

    /// The object at `path` or the nearest object above it.
    static func objectPath(_ tree: FuzzJSON, near path: [FuzzJSON.Step]) -> [FuzzJSON.Step]? {
        var p = path
        while true {
            if case .object = tree[p] { return p }
            if p.isEmpty { return nil }
            p.removeLast()
        }
    }

    static func stepsPath(_ tree: FuzzJSON) -> [FuzzJSON.Step]? {
        guard case .object(let members) = tree, let i = members.firstIndex(where: { $0.key == Array("steps".utf8) })
        else { return nil }
        return [.key(i)]
    }

    static let extremeNumbers = [
        "-1", "0", "-0", "0.0000001", "1e-400", "4.9e-324", "1e308", "-1e308", "1.7976931348623157e308",
        "1e999", "-1e999", "NaN", "-NaN", "Infinity", "-Infinity", "99999999999999999999999999999999",
        "-9223372036854775809", "9223372036854775808", "2147483648", "4294967296", "65536", "1e6", "1.5e10",
        "0x10", "01", "1.", ".5", "+1", "1e", "--1", "1_000",
    ]

    /// Fields with limits, and values on and around them (docs/fixtures/README.md "Limits" and the kinds' own ranges).
    static let limitEdges: [(String, [String])] = [
        ("width", ["1", "0.999", "0", "8192", "8192.0001", "8193", "-390"]),
        ("height", ["1", "0.5", "8192", "8193", "100000"]),
        ("scale", ["0.25", "0.2499", "8", "8.01", "0", "-2", "3"]),
        ("fps", ["1", "0.5", "240", "241", "0", "120"]),
        ("size", ["1", "0.99", "512", "512.5", "513", "0", "-17"]),
        ("lineLimit", ["0", "1", "-1", "1000000", "2.5"]),
        ("lineSpacing", ["0", "-5", "1000", "1e9"]),
        ("duration", ["0", "60", "60.01", "-1", "1e9"]),
        ("at", ["0", "-0.1", "3600", "3601"]),
        ("response", ["0.01", "0.009", "10", "10.1", "0"]),
        ("dampingFraction", ["0.01", "0", "10", "11"]),
        ("maxLines", ["0", "1", "100000"]),
        ("scrollBy", ["-1e9", "1e9", "0", "-0"]),
        ("aspectRatio", ["0", "0.0001", "1e9", "-1"]),
        ("availableWidth", ["1", "0", "8192", "8193"]),
        ("margin", ["-1e6", "1e6"]),
        ("padding", ["-1e6", "1e6"]),
        ("select", ["-1", "1000000000"]),
        ("threshold", ["0", "1", "1.01", "-0.1"]),
        ("maxDiffPixels", ["-1", "1e12"]),
        ("frames", ["0", "600", "601", "-1", "1.5"]),
        ("textSize", ["\"AX5\"", "\"xSmall\"", "\"AX6\"", "\"\"", "5"]),
        (
            "variants",
            [
                "{}", "[]", "{\"textSize\": [\"AX5\", \"xSmall\"], \"device\": [\"iphone-se\"]}",
                "[{\"name\": \"../x\", \"textSize\": \"AX1\"}]",
            ]
        ),
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80],
        [0xBF, 0x80],
        [0x00], [0x0A], [0x09], [0x1F], [0x7F],
    ]

    static let surrogateEscapes = [
        "\\ud800", "\\udc00", "\\udfff", "\\ud83d", "\\ud83d\\u0041", "\\ude00\\ud83d", "\\uD800\\uD800", "\\u",
        "\\u12",
        "\\uzzzz", "\\x41", "\\", "\\u0000", "\\q",
    ]

    /// About a megabyte of text without a break opportunity, on, under and over the limit of docs/fixtures/README.md "Limits".
    static func hugeWord(_ r: inout SeededRandom) -> [UInt8] {
        let target = r.pick([300_000, 990_000, 1_000_001, 1_200_000])
        let unit: [UInt8] = Array(r.pick(["a", "W", "あ", "😀", "👩‍👩‍👧‍👦", "ب", "e\u{301}", "\\u00e9"]).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(target + unit.count)
        while out.count < target { out.append(contentsOf: unit) }
        return out
    }

    /// Text that is valid but unkind to layout: combining storms, bidi controls, joiners,
    /// thousands of newlines, markup-looking text, control characters.
    static func hostileText(_ r: inout SeededRandom) -> String {
        switch r.int(0...9) {
        case 0: return "Z" + String(repeating: "\u{0336}\u{0337}\u{0338}\u{0301}", count: r.pick([10, 1_000, 20_000]))
        case 1: return "\u{202E}abc\u{202D}def\u{2067}ghi\u{2069}\u{200F}"
        case 2: return String(repeating: "\u{200D}", count: r.pick([1, 500, 50_000]))
        case 3: return String(repeating: "\n", count: r.pick([2, 100, 10_000]))
        case 4: return "<span foreground=\"red\">&amp;</span> <b>**bold** *it*</b> & < >"
        case 5: return "\u{0000}\u{0001}\u{0008}\u{001B}[31m\u{007F}\u{0085}\u{2028}\u{2029}"
        case 6: return String(repeating: "# - **", count: r.pick([10, 5_000]))
        case 7: return String(repeating: "*", count: r.pick([1, 3, 999, 100_001]))
        case 8: return "\u{FEFF}\u{FFFD}\u{FFFF}\u{10FFFF}\u{E000}\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}"
        default: return String(repeating: "﷽", count: r.pick([1, 300, 30_000]))
        }
    }

    // MARK: Byte damage

    static func damage(_ m: Mutation, _ bytes: inout [UInt8], _ r: inout SeededRandom) {
        switch m {
        case .truncate:
            bytes.removeSubrange(r.int(0...bytes.count - 1)...)
        case .flipBytes:
            guard !bytes.isEmpty else { return }
            for _ in 0..<r.int(1...8) {
                let i = r.int(0...bytes.count - 1)
                bytes[i] ^= UInt8(truncatingIfNeeded: 1 << r.int(0...7))
            }
        default:
            let garbage: [UInt8] = r.pick([
                [0x00], [0xEF, 0xBB, 0xBF], [0x7B], [0x5D, 0x5D], [0x2C], Array("//".utf8),
                Array("/* */".utf8), Array("<<<<<<< HEAD\n".utf8), [0xFF, 0xFE],
            ])
            bytes.insert(contentsOf: garbage, at: r.int(0...bytes.count))
        }
    }
}
