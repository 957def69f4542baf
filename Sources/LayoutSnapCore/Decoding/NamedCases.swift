/// A closed set of names read from JSON (results.json, approvals): an unknown name is an error
/// that says it and the known ones, never a silent default.
public protocol NamedCases: RawRepresentable, CaseIterable, Decodable where RawValue == String {
    /// What one of them is called in the error (`lint rule`).
    static var caseKind: String { get }
}

extension NamedCases {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let value = Self(rawValue: raw) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown \(Self.caseKind) \"\(raw)\" (expected one of: \(known))")
        }
        self = value
    }
}
