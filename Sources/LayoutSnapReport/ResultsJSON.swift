import Foundation

/// Reading and writing results.json.
///
/// Output is deterministic: keys sorted, pretty-printed with a trailing
/// newline, slashes not escaped. Non-finite numbers (which JSON cannot
/// represent) are written as the strings "NaN", "Infinity", "-Infinity" and
/// read back as numbers, so encoding never fails.
public enum ResultsJSON {
    public static func encode(_ results: RunResults) -> Data {
        var data = encode(results, pretty: true)
        data.append(0x0A)
        return data
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return try encoder.encode(results)
        } catch {
            // Only non-finite floats can make this model fail to encode, and
            // they are handled by the strategy above.
            preconditionFailure("RunResults failed to encode: \(error)")
        }
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
