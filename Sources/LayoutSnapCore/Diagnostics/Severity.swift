/// How bad something a run found is, for diagnostics, findings and lint entries alike; written
/// to results.json as its name.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reported, exit 0.
    case warning
    /// Fails the run (exit 1).
    case failure
    /// Bad input (exit 2).
    case error
}
