import Foundation
import LayoutSnapJSON
import LayoutSnapSystem

/// Reading and writing results.json.
///
/// Output is deterministic: keys sorted, pretty-printed with a trailing
/// newline, slashes not escaped. Non-finite numbers (which JSON cannot
/// represent) are written as the strings "NaN", "Infinity", "-Infinity" and
/// read back as numbers, so encoding never fails.
public enum ResultsJSON {
    public static func encode(_ results: RunResults) -> Data {
        var data = Data()
        write(results, pretty: true) { data.append($0) }
        return data
    }

    /// Writes the document in pieces, fixture by fixture, so that a run of 10,000 fixtures never
    /// holds its whole results.json (or an encoder's tree of it) in memory: `emit` receives the
    /// bytes in order. Top-level keys are sorted; each value is encoded on its own (sorted keys,
    /// pretty-printed and indented to its depth when `pretty`), ending with a newline.
    public static func write(_ results: RunResults, pretty: Bool = true, _ emit: (Data) throws -> Void) rethrows {
        let encoder = makeEncoder(pretty: pretty)
        let newline = pretty ? "\n" : ""
        let separator = pretty ? " : " : ":"
        func encoded<T: Encodable>(_ value: T, depth: Int) -> Data {
            Self.encoded(value, depth: depth, pretty: pretty, encoder: encoder)
        }
        var first = true
        func key(_ key: String) -> Data {
            defer { first = false }
            return Data(((first ? "{" : ",") + newline + (pretty ? "  " : "") + "\"\(key)\"" + separator).utf8)
        }
        func member<T: Encodable>(_ name: String, _ value: T?) -> Data? {
            guard let value else { return nil }
            return key(name) + encoded(value, depth: 1)
        }
        // In sorted order, as the encoder sorts every nested object's keys.
        for piece in [
            member("causes", results.causes), member("command", results.command),
            member("durationSeconds", results.durationSeconds),
            member("environmentDifferences", results.environmentDifferences), member("findings", results.findings),
        ] {
            if let piece { try emit(piece) }
        }
        try emit(key("fixtures"))
        if results.fixtures.isEmpty {
            try emit(Data("[]".utf8))
        } else {
            // Fixtures are encoded a batch at a time on every core (Foundation's encoder is most
            // of a large run's report), and emitted in order: the same bytes, memory bounded by
            // the batch.
            // A spooled pass is already its compact JSON, from this encoder (a pass has no
            // cause to add): written as it was spooled, not read back and encoded again.
            var index = 0
            for start in stride(from: 0, to: results.fixtures.count, by: 256) {
                let range = start..<min(start + 256, results.fixtures.count)
                let spooled = pretty ? [] : range.map { results.fixtures.compactJSON(at: $0) }
                let fresh = range.indices.filter { pretty || spooled[$0 - start] == nil }
                var encoded = Self.encodedInParallel(
                    fresh.map { results.withCauses(results.fixtures[$0]) }, depth: 2, pretty: pretty
                ).makeIterator()
                for i in range {
                    let piece = (pretty ? nil : spooled[i - start]) ?? encoded.next()!
                    try emit(Data(((index == 0 ? "[" : ",") + newline + (pretty ? "    " : "")).utf8) + piece)
                    index += 1
                }
            }
            try emit(Data((newline + (pretty ? "  " : "") + "]").utf8))
        }
        for piece in [member("fixturesRoot", results.fixturesRoot), member("goldens", results.goldens)] {
            if let piece { try emit(piece) }
        }
        try emit(member("outcomeOf", RunResults.outcomeOf)!)
        for piece in [
            member("shard", results.shard), member("shardPlan", results.shardPlan),
            member("summary", results.summary), member("tool", results.tool), member("version", results.version),
        ] {
            if let piece { try emit(piece) }
        }
        try emit(Data((newline + "}" + (pretty ? "\n" : "")).utf8))
    }

    /// The document encoded once, compact, and handed both to `compact` and, re-indented as
    /// JSONEncoder's pretty printing does, to `pretty`: the report's index.html embeds the one
    /// and results.json is the other, so the run's slowest encoding is done once. The same
    /// bytes as `write` with each setting. `pretty` is called on a thread of its own, in order,
    /// while this one encodes what follows and hands it to `compact` (`IndentingWriter`).
    public static func writeBoth(
        _ results: RunResults, compact: (Data) throws -> Void, pretty: (Data) throws -> Void
    ) throws {
        // An empty fixtures array is written "[]" in the pretty document, unlike the encoder's.
        guard !results.fixtures.isEmpty else {
            try write(results, pretty: false, compact)
            try write(results, pretty: true, pretty)
            return
        }
        try withoutActuallyEscaping(pretty) { pretty in
            let indenting = IndentingWriter(pretty)
            do {
                try write(results, pretty: false) { piece in
                    try compact(piece)
                    try indenting.send(piece)
                }
            } catch {
                indenting.cancel()
                throw error
            }
            // Returns once the thread has ended: `pretty` is not called after this.
            try indenting.close()
        }
    }

    /// `writeBoth`'s results.json: the compact pieces, re-indented and handed to `emit` on a
    /// thread of its own, so that a run's report is written on two cores (it is the end of a
    /// warm run, with the other core idle). Pieces go over in batches of about 64 KB (a wake-up
    /// per piece cost as much as the indenting), and at most 4 MB wait, so memory stays bounded
    /// on a large run. The first error `emit` throws ends the thread and is thrown to the sender.
    final class IndentingWriter: @unchecked Sendable {  // state under `condition`
        private let condition = NSCondition()
        private var batches: [[Data]] = []
        private var waitingBytes = 0
        private var closed = false
        private var cancelled = false
        private var failure: (any Error)?
        /// Let go once the thread has ended: `writeBoth` lends it only for its own call (the
        /// thread's closure may outlive the call by a moment, holding this writer).
        private var emit: ((Data) throws -> Void)?
        private var thread: Background<Bool>?
        /// The sender's batch, not yet handed over (the sender's own).
        private var batch: [Data] = []
        private var batchBytes = 0

        static let batchBytes = 64 << 10
        private let maxWaitingBytes: Int

        init(_ emit: @escaping (Data) throws -> Void, maxWaitingBytes: Int = 4 << 20) {
            self.emit = emit
            self.maxWaitingBytes = maxWaitingBytes
            thread = Background { [self] in run() }
        }

        func send(_ piece: Data) throws {
            batch.append(piece)
            batchBytes += piece.count
            if batchBytes >= Self.batchBytes { try handOver() }
        }

        /// Hands the last batch over, waits for the thread and throws what `emit` threw.
        func close() throws {
            do {
                try handOver()
            } catch {
                // The thread failed already: it is waited for and `emit` let go all the same.
                cancel()
                throw error
            }
            condition.withLock {
                closed = true
                condition.broadcast()
            }
            _ = thread?.value
            let thrown = condition.withLock {
                emit = nil
                return failure
            }
            if let thrown { throw thrown }
        }

        /// Ends the thread without the rest: the document will not be finished.
        func cancel() {
            condition.withLock {
                closed = true
                cancelled = true
                batches.removeAll()
                condition.broadcast()
            }
            _ = thread?.value
            condition.withLock { emit = nil }
        }

        private func handOver() throws {
            guard !batch.isEmpty else { return }
            let handed = batch
            let bytes = batchBytes
            batch = []
            batchBytes = 0
            try condition.withLock {
                while waitingBytes > maxWaitingBytes && failure == nil { condition.wait() }
                if let failure { throw failure }
                batches.append(handed)
                waitingBytes += bytes
                condition.broadcast()
            }
        }

        /// The next batch; nil once closed and every batch is written (or cancelled).
        private func next() -> [Data]? {
            condition.withLock {
                while batches.isEmpty && !closed { condition.wait() }
                guard !cancelled, !batches.isEmpty else { return nil }
                let taken = batches.removeFirst()
                waitingBytes -= taken.reduce(0) { $0 + $1.count }
                condition.broadcast()
                return taken
            }
        }

        private func run() -> Bool {
            guard let emit = condition.withLock({ emit }) else { return true }
            var printer = PrettyPrinter()
            do {
                while let taken = next() {
                    var out = Data()
                    for piece in taken { out.append(printer.indent(piece)) }
                    try emit(out)
                }
                if condition.withLock({ !cancelled }) { try emit(Data("\n".utf8)) }
            } catch {
                condition.withLock {
                    failure = error
                    batches.removeAll()
                    condition.broadcast()
                }
            }
            return true
        }
    }

    /// Re-indents compact JSON into JSONEncoder's `.prettyPrinted` form (two spaces a level,
    /// `"key" : value`, an empty array or object as an empty line), piece by piece: it keeps
    /// whether it is inside a string, and holds back an opening bracket until it sees whether
    /// the container is empty.
    struct PrettyPrinter {
        private var depth = 0
        private var inString = false
        private var escaped = false
        private var heldOpen: UInt8?

        private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        private static func isOpener(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") }
        private static func isCloser(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") }

        private func newline(_ out: inout [UInt8], depth: Int) {
            out.append(0x0A)
            // From a line of spaces: a repeated element appended one by one was a quarter of
            // the indenting.
            var left = 2 * depth
            while left > 0 {
                let n = min(left, Self.spaces.count)
                Self.spaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<n])) }
                left -= n
            }
        }

        private static let spaces = [UInt8](repeating: 0x20, count: 64)

        mutating func indent(_ piece: Data) -> Data {
            var out: [UInt8] = []
            out.reserveCapacity(piece.count * 2)
            // Over the bytes in place (`Data`'s iterator was most of the report's time), and a
            // string's bytes, or a number's, copied as one run: byte by byte, this was two
            // thirds of a warm run's report.
            piece.withUnsafeBytes { bytes in
                var i = 0
                while i < bytes.count {
                    guard heldOpen == nil, inString || !Self.isStructural(bytes[i]) else {
                        indent(bytes[i], into: &out)
                        i += 1
                        continue
                    }
                    let start = i
                    if inString {
                        // To the closing quote, an escape's two bytes at a time, without a
                        // state change per byte (that was most of the indenting): only an
                        // escape cut by the end of the piece is carried over.
                        if escaped {
                            escaped = false
                            i += 1
                        }
                        while i < bytes.count {
                            let byte = bytes[i]
                            i += 1
                            if byte == Self.quote {
                                inString = false
                                break
                            }
                            if byte == Self.backslash {
                                if i == bytes.count {
                                    escaped = true
                                } else {
                                    i += 1
                                }
                            }
                        }
                    } else {
                        while i < bytes.count, !Self.isStructural(bytes[i]) { i += 1 }
                    }
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                }
            }
            return Data(out)
        }

        /// The bytes `indent(_:into:)` does more with than copy, outside a string.
        private static func isStructural(_ byte: UInt8) -> Bool {
            byte == quote || isOpener(byte) || isCloser(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")
        }

        private mutating func indent(_ byte: UInt8, into out: inout [UInt8]) {
            if let open = heldOpen {
                heldOpen = nil
                out.append(open)
                if Self.isCloser(byte) {
                    // The encoder's empty container: an empty line, then the closer.
                    out.append(0x0A)
                    newline(&out, depth: depth)
                    out.append(byte)
                    return
                }
                depth += 1
                newline(&out, depth: depth)
            }
            // Never inside a string here: `indent(_ piece:)` copies a string's bytes itself, and an
            // opener is held only outside one.
            switch byte {
            case Self.quote:
                inString = true
                out.append(byte)
            case _ where Self.isOpener(byte):
                heldOpen = byte
            case _ where Self.isCloser(byte):
                depth -= 1
                newline(&out, depth: depth)
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline(&out, depth: depth)
            case UInt8(ascii: ":"):
                out.append(contentsOf: [0x20, byte, 0x20])
            default:
                out.append(byte)
            }
        }
    }

    /// One value's JSON: sorted keys and, when `pretty`, indented to `depth`.
    static func encoded<T: Encodable>(_ value: T, depth: Int, pretty: Bool, encoder: JSONEncoder) -> Data {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            // Only non-finite numbers can make this model fail to encode, and the strategy
            // writes those as strings.
            preconditionFailure("RunResults failed to encode: \(error)")
        }
        guard pretty, depth > 0 else { return data }
        // JSON strings never hold a raw newline, so every newline starts a line to indent.
        let indent = [UInt8](repeating: 0x20, count: 2 * depth)
        var out = Data(capacity: data.count + data.count / 8)
        // (Not before an empty line: the encoder writes an empty array as "[", "", "]".)
        for i in data.indices {
            out.append(data[i])
            if data[i] == 0x0A, data.index(after: i) == data.endIndex || data[data.index(after: i)] != 0x0A {
                out.append(contentsOf: indent)
            }
        }
        return out
    }

    /// `values` encoded on two threads, each with its own encoder, in order.
    static func encodedInParallel<T: Encodable & Sendable>(_ values: [T], depth: Int, pretty: Bool) -> [Data] {
        guard values.count > 8 else {
            let encoder = makeEncoder(pretty: pretty)
            return values.map { encoded($0, depth: depth, pretty: pretty, encoder: encoder) }
        }
        let parts = 2
        let pieces = LockedValue([Data](repeating: Data(), count: values.count))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let encoder = makeEncoder(pretty: pretty)
            for i in stride(from: part, to: values.count, by: parts) {
                let piece = encoded(values[i], depth: depth, pretty: pretty, encoder: encoder)
                pieces.withLock { $0[i] = piece }
            }
        }
        return pieces.withLock { $0 }
    }

    public static func decode(_ data: Data) throws(ResultsJSONError) -> RunResults {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ResultsJSONError(path: "$", message: "empty input, expected a JSON object")
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return try decoder.decode(RunResults.self, from: data)
        } catch let error as DecodingError {
            throw ResultsJSONError(error)
        } catch {
            throw ResultsJSONError(path: "$", message: String(describing: error))
        }
    }

    /// Compact form (sorted keys, no whitespace) used for embedding.
    static func encode(_ results: RunResults, pretty: Bool) -> Data {
        var data = Data()
        write(results, pretty: pretty) { data.append($0) }
        return data
    }

    static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }
}

/// A results.json that could not be read, with a JSONPath-style location:
/// `results.json: $.fixtures[3].states[0].frames[7].status: unknown frame status "bogus" (...)`.
public struct ResultsJSONError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// "$", "$.summary.failed", "$.fixtures[3].states[0]".
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "results.json: \(path): \(message)" }
    public var errorDescription: String? { description }

    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath), message: "missing required key \"\(key.stringValue)\"")
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), message: "null where \(Self.describe(type)) is required")
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), message: "expected \(Self.describe(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let detail = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
                self.init(path: "$", message: "not valid JSON: \(detail)")
            } else {
                self.init(path: Self.path(context.codingPath), message: context.debugDescription)
            }
        @unknown default:
            self.init(path: "$", message: String(describing: error))
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = "$"
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += "." + key.stringValue
            }
        }
        return result
    }

    private static func describeOther(_ name: String) -> String {
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        return name
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            describeOther(String(describing: type))
        }
    }
}
