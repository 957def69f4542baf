// Deterministic JSON output: the same tree always produces the same bytes,
// so generated files diff cleanly and can be compared in tests.

/// A JSON tree to be written. Separate from `JSONValue` because output has
/// no source positions and benefits from an exact `.int` case and literals:
///
///     let out: JSONOutput = ["kind": "rect", "rect": [10, 12, 370, 100.5]]
///
/// Object members are written in the order given (dictionary literals keep
/// their source order); the writer never reorders keys.
public enum JSONOutput: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Written exactly, never rounded.
    case int(Int)
    /// Written without exponent notation, optionally rounded (see `JSONWriter`).
    case number(Double)
    case string(String)
    case array([JSONOutput])
    case object([(key: String, value: JSONOutput)])

    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Converts a parsed value (dropping positions). Numbers stay `.number`;
    /// the writer prints integral doubles without a decimal point anyway.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map { JSONOutput($0.value) })
        case .object(let members): self = .object(members.map { ($0.key, JSONOutput($0.value.value)) })
        }
    }

    public init(_ node: JSONNode) { self.init(node.value) }

    /// True for values that pretty printing keeps on one line inside arrays.
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}

extension JSONOutput: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONOutput: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONOutput: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension JSONOutput: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONOutput: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONOutput: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONOutput...) { self = .array(elements) }
}

extension JSONOutput: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONOutput)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}

/// Serialises `JSONOutput` to UTF-8. (To write a parsed tree, convert it
/// with `JSONOutput(node)`; there are deliberately no `JSONValue` overloads,
/// because they would make `writer.string(.string("x"))` ambiguous.)
///
/// - `.compact`: no whitespace at all.
/// - `.pretty`: 2-space indentation, `"key": value`, and arrays whose
///   elements are all scalars stay on one line: `"rect": [10, 12, 370, 100]`.
///   Empty containers are `[]` / `{}`. No trailing newline is added.
///
/// Numbers never use exponent notation and never print as `-0`; integral
/// values print without a decimal point. Non-finite doubles, which JSON
/// cannot represent, are written as `null`.
extension JSONOutput {
    /// The value as bytes to hash, not to read: each value behind a tag, each string with its
    /// length, each array and object with its count, each number as its bits (never rounded or
    /// formatted). Two values give the same bytes only when they are the same value.
    public func digestBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        appendDigest(to: &out)
        return out
    }

    private func appendDigest(to out: inout [UInt8]) {
        func word(_ bits: UInt64) { withUnsafeBytes(of: bits.littleEndian) { out.append(contentsOf: $0) } }
        func string(_ s: String) {
            var s = s
            s.withUTF8 { bytes in
                word(UInt64(bytes.count))
                out.append(contentsOf: bytes)
            }
        }
        switch self {
        case .null: out.append(0)
        case .bool(let b): out.append(b ? 2 : 1)
        case .int(let n):
            out.append(3)
            word(UInt64(bitPattern: Int64(n)))
        case .number(let x):
            out.append(4)
            word(x.bitPattern)
        case .string(let s):
            out.append(5)
            string(s)
        case .array(let items):
            out.append(6)
            word(UInt64(items.count))
            for item in items { item.appendDigest(to: &out) }
        case .object(let members):
            out.append(7)
            word(UInt64(members.count))
            for (key, value) in members {
                string(key)
                value.appendDigest(to: &out)
            }
        }
    }
}

public struct JSONWriter: Sendable {
    public enum Style: Sendable, Equatable {
        case compact
        case pretty
    }

    public var style: Style
    /// When set (e.g. `0.01`), `.number` values are rounded to a multiple of
    /// this step before printing, half away from zero. `.int` values are not
    /// affected. Ignored unless positive and finite.
    public var roundingTo: Double?

    public init(style: Style = .pretty, roundingTo: Double? = nil) {
        self.style = style
        self.roundingTo = roundingTo
    }

    public func bytes(_ value: JSONOutput) -> [UInt8] {
        var out: [UInt8] = []
        let rounding = NumberRounding(roundingTo)
        write(value, depth: 0, rounding: rounding, into: &out)
        return out
    }

    public func string(_ value: JSONOutput) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// Formats one number the way this writer would.
    public func format(_ number: Double) -> String {
        Self.formatNumber(number, roundingTo: roundingTo)
    }

    /// Formats a number: no exponent, no `-0`, integral values without a
    /// decimal point, optional rounding to a multiple of `roundingTo`.
    public static func formatNumber(_ number: Double, roundingTo: Double? = nil) -> String {
        var out: [UInt8] = []
        appendNumber(number, rounding: NumberRounding(roundingTo), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Implementation

    private func write(_ value: JSONOutput, depth: Int, rounding: NumberRounding?, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let n):
            out.append(contentsOf: String(n).utf8)
        case .number(let d):
            Self.appendNumber(d, rounding: rounding, to: &out)
        case .string(let s):
            Self.appendEscaped(s, to: &out)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "[]".utf8)
            } else if style == .compact || items.allSatisfy(\.isScalar) {
                let separator: [UInt8] = style == .compact ? [0x2C] : [0x2C, 0x20]
                out.append(0x5B)
                for (n, item) in items.enumerated() {
                    if n > 0 { out.append(contentsOf: separator) }
                    write(item, depth: depth + 1, rounding: rounding, into: &out)
                }
                out.append(0x5D)
            } else {
                out.append(0x5B)
                for (n, item) in items.enumerated() {
                    if n > 0 { out.append(0x2C) }
                    newline(depth: depth + 1, into: &out)
                    write(item, depth: depth + 1, rounding: rounding, into: &out)
                }
                newline(depth: depth, into: &out)
                out.append(0x5D)
            }
        case .object(let members):
            if members.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(0x7B)
            for (n, member) in members.enumerated() {
                if n > 0 { out.append(0x2C) }
                if style == .pretty { newline(depth: depth + 1, into: &out) }
                Self.appendEscaped(member.key, to: &out)
                out.append(0x3A)
                if style == .pretty { out.append(0x20) }
                write(member.value, depth: depth + 1, rounding: rounding, into: &out)
            }
            if style == .pretty { newline(depth: depth, into: &out) }
            out.append(0x7D)
        }
    }

    private func newline(depth: Int, into out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }

    /// Appends `s` as a JSON string literal (RFC 8259 §7): `"` and `\` are
    /// escaped, control characters use the short escapes or `\u00xx`, and
    /// everything else (including non-ASCII) is copied as UTF-8.
    public static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])  // \"
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])  // \\
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])  // \n
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])  // \r
            case 0x09: out.append(contentsOf: [0x5C, 0x74])  // \t
            case 0x08: out.append(contentsOf: [0x5C, 0x62])  // \b
            case 0x0C: out.append(contentsOf: [0x5C, 0x66])  // \f
            case 0..<0x20:
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default:
                out.append(b)
            }
        }
        out.append(0x22)
    }

    static func appendNumber(_ number: Double, rounding: NumberRounding?, to out: inout [UInt8]) {
        guard number.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        var digits = DecimalDigits(number)
        if let rounding {
            digits = rounding.apply(to: number, digits: digits)
        }
        digits.render(into: &out)
    }
}

// MARK: - Decimal formatting

/// A finite double as the decimal digits of its shortest round-tripping
/// representation (the one `description` prints), so formatting never
/// exposes binary noise like 0.30000000000000004 unless the value really is
/// that number.
///
/// Value = 0.d₁d₂d₃… × 10^pointPosition, with no leading or trailing zeros
/// in `digits`; zero has no digits.
struct DecimalDigits: Equatable {
    var negative: Bool
    var digits: [UInt8]
    var pointPosition: Int

    init(_ value: Double) {
        negative = value < 0
        digits = []
        pointPosition = 0
        // `description` is locale-independent and shortest-round-trip, e.g.
        // "12.5", "100.0", "1e-05", "1.2345e+16".
        var integerDigits = 0
        var exponent = 0
        var exponentNegative = false
        var state = 0  // 0 integer part, 1 fraction, 2 exponent
        for c in value.magnitude.description.utf8 {
            switch c {
            case 0x30...0x39:
                switch state {
                case 0:
                    digits.append(c - 0x30)
                    integerDigits += 1
                case 1: digits.append(c - 0x30)
                default: exponent = exponent * 10 + Int(c - 0x30)
                }
            case 0x2E: state = 1
            case 0x65, 0x45: state = 2
            case 0x2D: exponentNegative = true
            default: break  // "+" in the exponent
            }
        }
        pointPosition = integerDigits + (exponentNegative ? -exponent : exponent)
        normalize()
    }

    mutating func normalize() {
        let leading = digits.prefix { $0 == 0 }.count
        if leading == digits.count {
            digits = []
            pointPosition = 0
            return
        }
        digits.removeFirst(leading)
        pointPosition -= leading
        while digits.last == 0 { digits.removeLast() }
    }

    var isZero: Bool { digits.isEmpty }

    /// Number of digits after the decimal point (0 for integral values).
    var fractionDigitCount: Int { max(0, digits.count - pointPosition) }

    /// Rounds half away from zero to `decimals` places after the point
    /// (negative `decimals` rounds to tens, hundreds, ...).
    mutating func round(toDecimals decimals: Int) {
        let keep = pointPosition + decimals
        guard keep < digits.count else { return }
        guard keep >= 0 else {
            digits = []  // below half of the last kept place: rounds to zero
            pointPosition = 0
            return
        }
        let roundUp = digits[keep] >= 5
        digits.removeSubrange(keep...)
        if roundUp {
            var k = keep - 1
            while k >= 0 && digits[k] == 9 {
                digits[k] = 0
                k -= 1
            }
            if k >= 0 {
                digits[k] += 1
            } else {
                digits.insert(1, at: 0)
                pointPosition += 1
            }
        }
        normalize()
    }

    /// Plain positional notation; zero (including -0 and values rounded to
    /// zero) is "0".
    func render(into out: inout [UInt8]) {
        guard !digits.isEmpty else {
            out.append(0x30)
            return
        }
        if negative { out.append(0x2D) }
        let ascii = digits.map { $0 + 0x30 }
        if pointPosition <= 0 {
            out.append(contentsOf: [0x30, 0x2E])
            out.append(contentsOf: repeatElement(0x30, count: -pointPosition))
            out.append(contentsOf: ascii)
        } else if pointPosition >= ascii.count {
            out.append(contentsOf: ascii)
            out.append(contentsOf: repeatElement(0x30, count: pointPosition - ascii.count))
        } else {
            out.append(contentsOf: ascii[..<pointPosition])
            out.append(0x2E)
            out.append(contentsOf: ascii[pointPosition...])
        }
    }
}

/// Rounding to a multiple of a step, prepared once per write.
struct NumberRounding {
    private let step: Double
    /// Decimal places used to print results (and, for powers of ten, to
    /// round in decimal).
    private let decimals: Int
    private let isPowerOfTen: Bool

    init?(_ step: Double?) {
        guard let step, step.isFinite, step > 0 else { return nil }
        let d = DecimalDigits(step)
        self.step = step
        isPowerOfTen = d.digits == [1]
        decimals = isPowerOfTen ? 1 - d.pointPosition : d.fractionDigitCount
    }

    func apply(to value: Double, digits: DecimalDigits) -> DecimalDigits {
        if isPowerOfTen {
            // Round the decimal digits themselves. Dividing by the step in
            // binary would turn 0.015 / 0.01 into 1.4999999999999998 and
            // round it down; people expect 0.015 → 0.02.
            var rounded = digits
            rounded.round(toDecimals: decimals)
            return rounded
        }
        // Other steps (0.25, 0.2, 5): snap in binary, then print with the
        // step's own number of decimals to remove noise such as 0.30000000000000004.
        var quotient = value / step
        // Binary noise can turn an exact tie into 3.4999999999999996
        // (0.7 / 0.2); a quotient within a few ulps of .5 is treated as a tie.
        let half = quotient.rounded(.towardZero) + (quotient < 0 ? -0.5 : 0.5)
        if abs(quotient - half) <= 4 * half.ulp { quotient = half }
        let snapped = quotient.rounded(.toNearestOrAwayFromZero) * step
        guard snapped.isFinite else { return digits }
        var rounded = DecimalDigits(snapped)
        rounded.round(toDecimals: decimals)
        return rounded
    }
}
