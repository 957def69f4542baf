// A strict RFC 8259 parser that works directly on UTF-8 bytes.
//
// Design notes (the "why"):
// - The input is accessed through an `UnsafeBufferPointer` so the hot loops
//   are plain indexed loads; Strings are only built for string literals.
// - Containers are parsed with an explicit stack instead of recursion, so no
//   input (and no `maxDepth` a caller picks) can overflow the call stack. The
//   depth limit is checked *before* a container is opened.
// - Line/column are tracked incrementally and cheaply: raw line breaks can
//   only occur in whitespace (they are illegal inside strings), and non-ASCII
//   bytes can only occur inside strings (they are illegal elsewhere), so we
//   only need to (a) bump the line counter while skipping whitespace and
//   (b) count UTF-8 continuation bytes while validating strings. A position
//   is then `offset - lineStart - continuationBytesOnLine + 1`.

/// A syntax error with the exact position of the problem.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var position: SourcePosition

    public init(message: String, position: SourcePosition) {
        self.message = message
        self.position = position
    }

    /// "expected ',' or '}' after object member (line 3, column 7)"
    public var description: String { "\(message) (\(position))" }
}

public enum JSONParser {
    /// The default nesting limit. Deep enough for any real document, shallow
    /// enough that the recursive code that *consumes* the tree (equality,
    /// deallocation, user decoders) can never exhaust the stack.
    public static let defaultMaxDepth = 200

    /// Parses exactly one JSON value (surrounded by optional whitespace).
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 input. A leading UTF-8 BOM is skipped. Contiguous
    ///     collections (`[UInt8]`, `Data`, `String.UTF8View`, buffer
    ///     pointers, ...) are read in place; others are copied once.
    ///   - maxDepth: the maximum number of nested arrays/objects.
    public static func parse(
        _ bytes: some Collection<UInt8>,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONSyntaxError) -> JSONNode {
        // `withContiguousStorageIfAvailable` is not typed-throws, so the
        // result is carried out as a `Result` to keep the typed error.
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            parseBuffer(buffer, maxDepth: maxDepth)
        }) {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { parseBuffer($0, maxDepth: maxDepth) }.get()
    }

    /// Parses JSON text.
    public static func parse(
        _ text: String,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONSyntaxError) -> JSONNode {
        try parse(text.utf8, maxDepth: maxDepth)
    }

    private static func parseBuffer(
        _ buffer: UnsafeBufferPointer<UInt8>,
        maxDepth: Int
    ) -> Result<JSONNode, JSONSyntaxError> {
        var parser = Parser(buffer: buffer, maxDepth: maxDepth)
        return Result { () throws(JSONSyntaxError) in try parser.parseDocument() }
    }
}

// MARK: - Byte constants

private enum Byte {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22  // "
    static let apostrophe: UInt8 = 0x27  // '
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let openBracket: UInt8 = 0x5B  // [
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D  // ]
    static let openBrace: UInt8 = 0x7B  // {
    static let closeBrace: UInt8 = 0x7D  // }
}

@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b &- Byte.zero < 10 }

@inline(__always) private func isWordByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || isDigit(b) || b == 0x5F
}

private func hex2(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
}

private func hex4(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

/// Exact powers of ten representable in a Double (10^22 is the largest).
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

// MARK: - UTF-8 validation

/// Outcome of decoding one UTF-8 sequence whose lead byte is >= 0x80.
private enum UTF8Decoding {
    case scalar(UInt32, length: Int)
    case invalidByte(UInt8)
    case overlong
    case surrogate(UInt32)
    case beyondUnicode
    case truncated

    var errorMessage: String {
        switch self {
        case .scalar: "valid UTF-8"
        case .invalidByte(let b): "invalid UTF-8 byte \(hex2(b))"
        case .overlong: "overlong UTF-8 encoding"
        case .surrogate(let v): "UTF-8-encoded surrogate U+\(hex4(v)) in string"
        case .beyondUnicode: "UTF-8 sequence encodes a value beyond U+10FFFF"
        case .truncated: "truncated UTF-8 sequence"
        }
    }
}

/// Decodes the sequence starting at `i` following Unicode Table 3-7
/// (well-formed UTF-8 byte sequences), so overlongs, encoded surrogates and
/// values past U+10FFFF are all rejected.
private func decodeUTF8(_ buf: UnsafeBufferPointer<UInt8>, at i: Int) -> UTF8Decoding {
    let lead = buf[i]
    let end = buf.count
    @inline(__always) func cont(_ k: Int) -> UInt8? {
        guard i + k < end else { return nil }
        let b = buf[i + k]
        return b & 0xC0 == 0x80 ? b : nil
    }
    switch lead {
    case 0xC0, 0xC1:
        return .overlong
    case 0xC2...0xDF:
        guard let b1 = cont(1) else { return .truncated }
        return .scalar(UInt32(lead & 0x1F) << 6 | UInt32(b1 & 0x3F), length: 2)
    case 0xE0...0xEF:
        guard let b1 = cont(1) else { return .truncated }
        if lead == 0xE0 && b1 < 0xA0 { return .overlong }
        guard let b2 = cont(2) else { return .truncated }
        let v = UInt32(lead & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
        if lead == 0xED && b1 >= 0xA0 { return .surrogate(v) }
        return .scalar(v, length: 3)
    case 0xF0...0xF4:
        guard let b1 = cont(1) else { return .truncated }
        if lead == 0xF0 && b1 < 0x90 { return .overlong }
        if lead == 0xF4 && b1 >= 0x90 { return .beyondUnicode }
        guard let b2 = cont(2), let b3 = cont(3) else { return .truncated }
        let v =
            UInt32(lead & 0x07) << 18 | UInt32(b1 & 0x3F) << 12
            | UInt32(b2 & 0x3F) << 6 | UInt32(b3 & 0x3F)
        return .scalar(v, length: 4)
    default:  // stray continuation byte 0x80...0xBF, or 0xF5...0xFF
        return .invalidByte(lead)
    }
}

// MARK: - Parser

private struct Parser {
    let buf: UnsafeBufferPointer<UInt8>
    let end: Int
    let maxDepth: Int
    /// Current read offset.
    var i = 0
    var line = 1
    /// Offset of the first byte of the current line.
    var lineStart = 0
    /// UTF-8 continuation bytes seen on the current line before `i`; they
    /// are subtracted so that columns count scalars.
    var lineContinuationBytes = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buf = buffer
        self.end = buffer.count
        self.maxDepth = maxDepth
    }

    /// One open array or object on the explicit stack.
    struct Frame {
        var isObject: Bool
        var position: SourcePosition
        var elements: [JSONNode] = []
        var members: [JSONMember] = []
        /// Built only once an object gets large; small objects are checked for
        /// duplicate keys by a linear scan, which is faster than hashing.
        var keySet: Set<String>? = nil
        /// Key waiting for its value (objects only).
        var pendingKey = ""
        var pendingKeyPosition: SourcePosition
    }

    // MARK: Positions and errors

    @inline(__always) func position(at offset: Int) -> SourcePosition {
        SourcePosition(
            line: line, column: offset - lineStart - lineContinuationBytes + 1, offset: offset)
    }

    func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position(at: offset))
    }

    func endOfInput() -> JSONSyntaxError { error("unexpected end of input", at: end) }

    /// Human description of the character at `offset` for "unexpected
    /// character" messages: `'x'`, `U+0007`, `'“' (U+201C)`.
    func describeCharacter(at offset: Int) -> String {
        let b = buf[offset]
        if b == Byte.apostrophe { return "\"'\"" }  // reads better than '''
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "U+\(hex4(UInt32(b)))" }
        if case .scalar(let v, _) = decodeUTF8(buf, at: offset), let s = Unicode.Scalar(v) {
            return "'\(Character(s))' (U+\(hex4(v)))"
        }
        return "\(hex2(b)) (invalid UTF-8)"
    }

    /// The "unexpected character" error for a byte where a value should
    /// start, with a hint for the mistakes people actually make.
    func unexpectedValueStart(at offset: Int) -> JSONSyntaxError {
        let b = buf[offset]
        let what = "unexpected character \(describeCharacter(at: offset))"
        let hint: String
        switch b {
        case Byte.slash: hint = "; comments are not allowed in JSON"
        case Byte.apostrophe: hint = "; strings must use double quotes"
        case Byte.plus: hint = "; numbers must not start with '+'"
        case Byte.dot: hint = "; numbers must start with a digit"
        case Byte.closeBracket, Byte.closeBrace, Byte.comma, Byte.colon: hint = "; expected a value"
        case 0xE2:  // typographic quotes U+2018...U+201F
            if case .scalar(let v, _) = decodeUTF8(buf, at: offset), (0x2018...0x201F).contains(v) {
                hint = "; strings must use straight double quotes"
            } else {
                hint = ""
            }
        default: hint = ""
        }
        return error(what + hint, at: offset)
    }

    // MARK: Whitespace

    @inline(__always) mutating func skipWhitespace() {
        while i < end {
            let b = buf[i]
            if b == Byte.space || b == Byte.tab {
                i += 1
            } else if b == Byte.newline {
                i += 1
                newLine()
            } else if b == Byte.carriageReturn {
                i += 1
                // "\r\n" counts once (the "\n" starts the line); lone "\r" too.
                if i >= end || buf[i] != Byte.newline { newLine() }
            } else {
                return
            }
        }
    }

    @inline(__always) mutating func newLine() {
        line += 1
        lineStart = i
        lineContinuationBytes = 0
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if end >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
            i = 3
            lineStart = 3  // the BOM is invisible in editors; don't count it
        }
        skipWhitespace()
        let root = try parseValue()
        skipWhitespace()
        if i < end {
            throw error(
                "unexpected character \(describeCharacter(at: i)) after the top-level value", at: i)
        }
        return root
    }

    /// Parses one value (which may be a deeply nested container) starting at
    /// `i`, which must already be past any whitespace.
    mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        var stack: [Frame] = []
        stack.reserveCapacity(max(0, min(maxDepth, 32)))

        nextValue: while true {
            // Here a value must start at `i`.
            guard i < end else { throw endOfInput() }
            let start = i
            let startPosition = position(at: start)
            var node: JSONNode
            switch buf[start] {
            case Byte.openBrace, Byte.openBracket:
                // Check before opening, so hostile input never gets deeper
                // than the limit.
                guard stack.count < maxDepth else {
                    throw error("nesting deeper than \(maxDepth) levels", at: start)
                }
                let isObject = buf[start] == Byte.openBrace
                i += 1
                skipWhitespace()
                let close = isObject ? Byte.closeBrace : Byte.closeBracket
                if i < end && buf[i] == close {
                    i += 1
                    node = JSONNode(value: isObject ? .object([]) : .array([]), position: startPosition)
                } else {
                    var frame = Frame(
                        isObject: isObject, position: startPosition, pendingKeyPosition: startPosition)
                    if isObject {
                        try parseKeyAndColon(into: &frame, afterComma: false)
                    }
                    stack.append(frame)
                    continue nextValue
                }
            default:
                node = try parseScalar(startPosition)
            }

            // A value is complete: hand it to its parent, closing as many
            // containers as the input closes, until the parent wants another
            // value (`continue` the outer loop) or the root is done.
            while true {
                guard !stack.isEmpty else { return node }
                skipWhitespace()
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    stack[top].members.append(
                        JSONMember(
                            key: stack[top].pendingKey,
                            keyPosition: stack[top].pendingKeyPosition,
                            value: node))
                } else {
                    stack[top].elements.append(node)
                }
                guard i < end else { throw endOfInput() }
                let b = buf[i]
                let close = isObject ? Byte.closeBrace : Byte.closeBracket
                if b == Byte.comma {
                    let commaOffset = i
                    let commaPosition = position(at: commaOffset)
                    i += 1
                    skipWhitespace()
                    if i < end && buf[i] == close {
                        throw JSONSyntaxError(
                            message: "trailing comma is not allowed", position: commaPosition)
                    }
                    if isObject {
                        try parseKeyAndColon(into: &stack[top], afterComma: true)
                    }
                    continue nextValue
                } else if b == close {
                    i += 1
                    let frame = stack.removeLast()
                    node = JSONNode(
                        value: frame.isObject ? .object(frame.members) : .array(frame.elements),
                        position: frame.position)
                } else {
                    throw error(
                        isObject
                            ? "expected ',' or '}' after object member"
                            : "expected ',' or ']' after array element",
                        at: i)
                }
            }
        }
    }

    /// Parses `"key" :` plus trailing whitespace, and checks for duplicates.
    mutating func parseKeyAndColon(into frame: inout Frame, afterComma: Bool) throws(JSONSyntaxError) {
        guard i < end else { throw endOfInput() }
        guard buf[i] == Byte.quote else {
            let expected = afterComma ? "expected a string key after ','" : "expected a string key or '}'"
            let b = buf[i]
            if isWordByte(b) {
                throw error("\(expected); object keys must be in double quotes", at: i)
            }
            if b == Byte.apostrophe {
                throw error("\(expected); strings must use double quotes", at: i)
            }
            throw error("\(expected), found \(describeCharacter(at: i))", at: i)
        }
        let keyOffset = i
        let keyPosition = position(at: keyOffset)
        let key = try parseString(quotePosition: keyPosition)

        if isDuplicate(key, in: &frame) {
            throw JSONSyntaxError(message: "duplicate key \(quoted(key))", position: keyPosition)
        }
        skipWhitespace()
        guard i < end else { throw endOfInput() }
        guard buf[i] == Byte.colon else {
            throw error("expected ':' after object key", at: i)
        }
        i += 1
        skipWhitespace()
        frame.pendingKey = key
        frame.pendingKeyPosition = keyPosition
    }

    /// Records `key` and reports whether the object already had it.
    /// Keys compare with Swift `String` equality (Unicode canonical
    /// equivalence), the same rule `ObjectReader` uses to look them up.
    func isDuplicate(_ key: String, in frame: inout Frame) -> Bool {
        if frame.keySet == nil {
            if frame.members.count < 16 {
                return frame.members.contains { $0.key == key }
            }
            frame.keySet = Set(frame.members.map(\.key))
        }
        return !frame.keySet!.insert(key).inserted
    }

    // MARK: Scalars

    mutating func parseScalar(_ startPosition: SourcePosition) throws(JSONSyntaxError) -> JSONNode {
        let b = buf[i]
        switch b {
        case Byte.quote:
            return JSONNode(value: .string(try parseString(quotePosition: startPosition)), position: startPosition)
        case Byte.minus, Byte.zero...Byte.nine:
            return JSONNode(value: .number(try parseNumber()), position: startPosition)
        case 0x41...0x5A, 0x61...0x7A:  // letters: true/false/null or a mistake
            return JSONNode(value: try parseLiteral(), position: startPosition)
        default:
            throw unexpectedValueStart(at: i)
        }
    }

    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        var j = i
        while j < end && isWordByte(buf[j]) && j - start < 32 { j += 1 }
        let word = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<j]), as: UTF8.self)
        switch word {
        case "true":
            i = j
            return .bool(true)
        case "false":
            i = j
            return .bool(false)
        case "null":
            i = j
            return .null
        case "NaN", "Infinity":
            throw error("\(word) is not allowed in JSON", at: start)
        case "True", "TRUE", "False", "FALSE", "Null", "NULL":
            throw error("invalid literal '\(word)'; JSON literals are lowercase", at: start)
        default:
            throw error("invalid literal '\(word)'; strings must be in double quotes", at: start)
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = i
        var p = i
        let negative = buf[p] == Byte.minus
        if negative {
            p += 1
            guard p < end else { throw endOfInput() }
        }

        // Integer part, accumulating up to 19 significant digits for the
        // fast path; anything longer falls back to the exact slow path.
        var mantissa: UInt64 = 0
        var digitCount = 0  // significant digits accumulated into `mantissa`
        var droppedDigits = false
        @inline(__always) func accumulate(_ d: UInt8) {
            if digitCount < 19 {
                if mantissa != 0 || d != Byte.zero {
                    mantissa = mantissa &* 10 &+ UInt64(d &- Byte.zero)
                    digitCount += 1
                }
            } else {
                droppedDigits = true
            }
        }

        let first = buf[p]
        if first == Byte.zero {
            p += 1
            if p < end && isDigit(buf[p]) {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else if isDigit(first) {
            while p < end && isDigit(buf[p]) {
                accumulate(buf[p])
                p += 1
            }
        } else if end - p >= 8, Array(UnsafeBufferPointer(rebasing: buf[p..<p + 8])) == Array("Infinity".utf8) {
            throw error("-Infinity is not allowed in JSON", at: start)
        } else {
            throw error("expected a digit after '-'", at: p)
        }

        var fractionDigits = 0
        if p < end && buf[p] == Byte.dot {
            p += 1
            guard p < end else { throw endOfInput() }
            guard isDigit(buf[p]) else { throw error("expected a digit after '.'", at: p) }
            while p < end && isDigit(buf[p]) {
                // Every fraction digit shifts the decimal point, including
                // zeros `accumulate` skips; dropped digits force the slow path.
                fractionDigits += 1
                accumulate(buf[p])
                p += 1
            }
        }

        var exponent = 0
        if p < end && (buf[p] == 0x65 || buf[p] == 0x45) {  // e E
            p += 1
            guard p < end else { throw endOfInput() }
            var expNegative = false
            if buf[p] == Byte.plus || buf[p] == Byte.minus {
                expNegative = buf[p] == Byte.minus
                p += 1
                guard p < end else { throw endOfInput() }
            }
            guard isDigit(buf[p]) else { throw error("expected a digit in exponent", at: p) }
            while p < end && isDigit(buf[p]) {
                // Clamp: the value is inf or 0 long before this matters, and
                // clamping keeps the arithmetic from overflowing.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(buf[p] &- Byte.zero) }
                p += 1
            }
            if expNegative { exponent = -exponent }
        }
        i = p

        // Fast path (Clinger): an integer mantissa below 2^53 times an exact
        // power of ten is a single correctly rounded IEEE operation.
        let power = exponent - fractionDigits
        if !droppedDigits && mantissa < (1 << 53) && power >= -22 && power <= 22 {
            var value = Double(mantissa)
            if power >= 0 {
                value *= exactPowersOfTen[power]
            } else {
                value /= exactPowersOfTen[-power]
            }
            // No range check needed: 2^53 * 1e22 is far below Double's max.
            return negative ? -value : value
        }

        // Slow path: the standard library's correctly rounded conversion.
        // Our grammar check above is stricter than its parser, so it accepts
        // everything that got here.
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<p]), as: UTF8.self)
        guard let value = Double(text) else {
            throw error("invalid number", at: start)  // unreachable in practice
        }
        if !value.isFinite {
            throw error("number out of range", at: start)
        }
        return value
    }

    // MARK: Strings

    /// Parses a string literal starting at the opening quote at `i`.
    mutating func parseString(quotePosition: SourcePosition) throws(JSONSyntaxError) -> String {
        i += 1
        var runStart = i
        var usesScratch = false

        while true {
            guard i < end else {
                throw JSONSyntaxError(message: "unterminated string", position: quotePosition)
            }
            let b = buf[i]
            if b == Byte.quote { break }
            if b == Byte.backslash {
                if !usesScratch {
                    scratch.removeAll(keepingCapacity: true)
                    usesScratch = true
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<i]))
                try parseEscape(quotePosition: quotePosition)
                runStart = i
                continue
            }
            if b < 0x20 {
                if b == Byte.newline || b == Byte.carriageReturn {
                    throw error("unescaped line break in string (missing closing '\"'?)", at: i)
                }
                throw error("unescaped control character U+\(hex4(UInt32(b))) in string", at: i)
            }
            if b < 0x80 {
                i += 1
                continue
            }
            switch decodeUTF8(buf, at: i) {
            case .scalar(_, let length):
                i += length
                lineContinuationBytes += length - 1
            case let failure:
                throw error(failure.errorMessage, at: i)
            }
        }

        let result: String
        if usesScratch {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<i]))
            result = String(decoding: scratch, as: UTF8.self)
        } else {
            result = String(decoding: UnsafeBufferPointer(rebasing: buf[runStart..<i]), as: UTF8.self)
        }
        i += 1  // closing quote
        return result
    }

    /// Parses the escape sequence at `i` (a backslash) and appends its UTF-8
    /// to `scratch`.
    mutating func parseEscape(quotePosition: SourcePosition) throws(JSONSyntaxError) {
        let escapeOffset = i
        guard i + 1 < end else {
            throw JSONSyntaxError(message: "unterminated string", position: quotePosition)
        }
        let e = buf[i + 1]
        let simple: UInt8?
        switch e {
        case Byte.quote: simple = Byte.quote
        case Byte.backslash: simple = Byte.backslash
        case Byte.slash: simple = Byte.slash
        case 0x62: simple = 0x08  // b
        case 0x66: simple = 0x0C  // f
        case 0x6E: simple = 0x0A  // n
        case 0x72: simple = 0x0D  // r
        case 0x74: simple = 0x09  // t
        case 0x75: simple = nil  // u
        default:
            if e >= 0x20 && e < 0x7F {
                throw error("invalid escape \\\(Character(Unicode.Scalar(e)))", at: escapeOffset)
            }
            throw error("invalid escape: '\\' must be followed by one of \" \\ / b f n r t u", at: escapeOffset)
        }
        if let simple {
            scratch.append(simple)
            i += 2
            return
        }

        let unit = try parseHex4(escapeOffset: escapeOffset, quotePosition: quotePosition)
        i += 6
        var scalar = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by an escaped low surrogate.
            guard i + 1 < end, buf[i] == Byte.backslash, buf[i + 1] == 0x75 else {
                throw error("lone surrogate \\u\(hex4(scalar)) in string", at: escapeOffset)
            }
            let low = try parseHex4(escapeOffset: i, quotePosition: quotePosition)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("lone surrogate \\u\(hex4(scalar)) in string", at: escapeOffset)
            }
            i += 6
            scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error("lone surrogate \\u\(hex4(scalar)) in string", at: escapeOffset)
        default:
            break
        }
        appendUTF8(scalar)
    }

    /// Reads the four hex digits after the `\u` at `escapeOffset`.
    func parseHex4(escapeOffset: Int, quotePosition: SourcePosition) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for k in 2..<6 {
            let p = escapeOffset + k
            guard p < end else {
                throw JSONSyntaxError(message: "unterminated string", position: quotePosition)
            }
            let b = buf[p]
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default:
                throw error("invalid \\u escape; expected 4 hex digits", at: escapeOffset)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | v >> 6))
            scratch.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | v >> 12))
            scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | v >> 18))
            scratch.append(UInt8(0x80 | (v >> 12) & 0x3F))
            scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        }
    }
}

/// `key` as a JSON string literal, for messages like `duplicate key "kind"`.
func quoted(_ key: String) -> String {
    var out: [UInt8] = []
    JSONWriter.appendEscaped(key, to: &out)
    return String(decoding: out, as: UTF8.self)
}
