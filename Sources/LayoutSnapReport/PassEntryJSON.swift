import Foundation

/// The compact JSON of a plain fixture entry, written directly: the bytes `ResultsJSON`'s
/// compact encoder writes for it (sorted keys, slashes unescaped, whole doubles without `.0`),
/// without Foundation's encoder, which builds a tree of every value first and was most of a
/// warm run's report. Only the shapes a spooled pass has are written here (no diagnostic,
/// motion, metrics, lints, attribution, pairing or cause); anything else is nil, and the encoder
/// writes it. `PassEntryJSONTests` holds the two to the same bytes.
enum PassEntryJSON {
    static func bytes(_ entry: FixtureEntry) -> Data? {
        guard entry.diagnostic == nil else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(256 + 160 * entry.states.reduce(0) { $0 + $1.frames.count })
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        if let cached = entry.cached {
            key("cached")
            out.append(contentsOf: Array((cached ? "true" : "false").utf8))
        }
        if let canvas = entry.canvas {
            key("canvas")
            array(canvas, into: &out)
        }
        if let seconds = entry.durationSeconds {
            key("durationSeconds")
            number(seconds, into: &out)
        }
        key("file")
        string(entry.file, into: &out)
        key("id")
        string(entry.id, into: &out)
        key("states")
        out.append(UInt8(ascii: "["))
        for (s, state) in entry.states.enumerated() {
            guard state.motion == nil else { return nil }
            if s > 0 { out.append(UInt8(ascii: ",")) }
            guard write(state, into: &out) else { return nil }
        }
        out.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "}")])
        return Data(out)
    }

    private static func write(_ state: StateEntry, into out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "{"))
        if let seconds = state.durationSeconds {
            out.append(contentsOf: Array("\"durationSeconds\":".utf8))
            number(seconds, into: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: Array("\"frames\":[".utf8))
        for (f, frame) in state.frames.enumerated() {
            guard frame.metrics == nil, frame.lints == nil, frame.attribution == nil, frame.pairing == nil,
                frame.cause == nil
            else { return false }
            if f > 0 { out.append(UInt8(ascii: ",")) }
            write(frame, into: &out)
        }
        out.append(contentsOf: Array("],\"name\":".utf8))
        string(state.name, into: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    private static func write(_ frame: FrameEntry, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        func optional(_ name: String, _ value: String?) {
            guard let value else { return }
            out.append(contentsOf: Array("\"\(name)\":".utf8))
            string(value, into: &out)
            out.append(UInt8(ascii: ","))
        }
        optional("actual", frame.actual)
        optional("diff", frame.diff)
        optional("expected", frame.expected)
        out.append(contentsOf: Array("\"golden\":".utf8))
        string(frame.golden, into: &out)
        out.append(UInt8(ascii: ","))
        optional("goldenHash", frame.goldenHash)
        out.append(contentsOf: Array("\"index\":\(frame.index),\"layoutChanges\":".utf8))
        array(frame.layoutChanges, into: &out)
        out.append(UInt8(ascii: ","))
        optional("message", frame.message)
        if let pairedWith = frame.pairedWith { out.append(contentsOf: Array("\"pairedWith\":\(pairedWith),".utf8)) }
        out.append(contentsOf: Array("\"progress\":".utf8))
        number(frame.progress, into: &out)
        out.append(contentsOf: Array(",\"status\":".utf8))
        string(frame.status.rawValue, into: &out)
        out.append(contentsOf: Array(",\"time\":".utf8))
        number(frame.time, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func array(_ values: [Double], into out: inout [UInt8]) { array(values, into: &out, number) }
    private static func array(_ values: [String], into out: inout [UInt8]) { array(values, into: &out, string) }

    private static func array<T>(
        _ values: [T], into out: inout [UInt8], _ element: (T, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            element(value, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// As the encoder writes a double: its shortest digits, a whole one without `.0`, and the
    /// non-finite ones as the strings `ResultsJSON.makeEncoder` names.
    static func number(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else {
            let text = value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity"
            out.append(contentsOf: Array("\"\(text)\"".utf8))
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: Array(text.utf8))
    }

    /// As the encoder escapes a string: the quote, the backslash and control characters, `/`
    /// as it is.
    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
