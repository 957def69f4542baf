import Foundation
import LayoutSnapCore
import LayoutSnapJSON

/// `approvals.json`, the decisions a static report collects for `accept --approvals`
/// (docs/review.md): which frames were approved, each with the golden hash it was shown.
public struct ApprovalsFile: Sendable, Equatable {
    public var approvals: [GoldenAcceptance.Approval]
    /// Recorded by the page; nothing is written for them.
    public var rejected: [String]

    public init(approvals: [GoldenAcceptance.Approval], rejected: [String] = []) {
        self.approvals = approvals
        self.rejected = rejected
    }

    /// Reads `path`; a file that cannot be read or is not this shape is bad input (exit 2),
    /// named by file, line and JSON path.
    public static func load(path: String) throws(RunnerError) -> ApprovalsFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunnerError.usage("\(path): cannot be read")
        }
        do {
            return try decode(bytes: [UInt8](data), file: path)
        } catch {
            throw RunnerError.input(error.diagnostic.with(category: .input))
        }
    }

    public static func decode(bytes: [UInt8], file: String) throws(FixtureError) -> ApprovalsFile {
        try FixtureError.decoding(bytes, file: file, decode)
    }

    static func decode(_ element: JSONElement) throws(JSONDecodingError) -> ApprovalsFile {
        let o = try element.object()
        for (key, expected) in [("tool", "layoutsnap"), ("kind", "approvals")] {
            let e = try o.required(key)
            guard try e.string() == expected else { throw e.error("expected \"\(expected)\"") }
        }
        let version = try o.required("version")
        guard try version.int() == 1 else { throw version.error("expected 1 (the only version there is)") }
        var approvals: [GoldenAcceptance.Approval] = []
        for item in try o.required("approvals").array() {
            let a = try item.object()
            let golden = try frameKey(a.required("golden"))
            let hash = try a.optional("goldenHash").flatMap { e throws(JSONDecodingError) in
                e.isNull ? nil : try hashText(e)
            }
            try a.finish()
            approvals.append(GoldenAcceptance.Approval(golden: golden, seen: .hash(hash)))
        }
        var rejected: [String] = []
        for item in try o.optional("rejected")?.array() ?? [] { rejected.append(try frameKey(item)) }
        try o.finish()
        return ApprovalsFile(approvals: approvals, rejected: rejected)
    }

    /// A golden key: a relative path below the goldens folder, never out of it.
    static func frameKey(_ e: JSONElement) throws(JSONDecodingError) -> String {
        let key = try e.string()
        guard !key.isEmpty, !key.hasPrefix("/"),
            !key.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0.isEmpty })
        else {
            throw e.error("expected a golden key such as \"cards/x/initial/000.png\", found \"\(key)\"")
        }
        return key
    }

    /// 16 lowercase hex digits, as results.json writes a `goldenHash`.
    static func hashText(_ e: JSONElement) throws(JSONDecodingError) -> String {
        let hash = try e.string()
        guard hash.count == 16, hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw e.error("expected a golden hash of 16 hex digits (results.json's goldenHash), found \"\(hash)\"")
        }
        return hash
    }
}
