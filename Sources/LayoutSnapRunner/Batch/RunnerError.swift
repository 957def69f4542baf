import LayoutSnapCore

/// Errors that stop a whole run before any fixture is looked at (exit 2).
public enum RunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An argument or path the user gave cannot be used.
    case usage(String)
    /// `record` under CI without `--allow-ci`.
    case refusedUnderCI
    /// The golden store cannot be read or written.
    case goldens(String)
    /// A file could not be written (disk full, permissions); what was there before is intact.
    case write(String)
    /// A fixture that cannot be used (the message names the file and JSON path).
    case fixture(String)
    /// Something outside the fixtures (fonts, output folder) failed.
    case environment(String)

    public var description: String {
        switch self {
        case let .usage(message): message
        case .refusedUnderCI:
            "goldens are not written when CI is set: they are recorded on purpose and committed, never by a CI job. Run this locally, or pass --allow-ci (for example with --goldens pointing at a temporary folder)."
        case let .goldens(message): "goldens: \(message)"
        case let .environment(message): message
        case let .fixture(message): message
        case let .write(message): message
        }
    }
}

extension RunnerError {
    /// The error as a diagnostic about `file`.
    public func diagnostic(file: String?) -> Diagnostic {
        switch self {
        case .goldens: Diagnostic(.error, .golden, file: file, message: description)
        case .write: Diagnostic(.error, .io, file: file, message: description)
        case .fixture: Diagnostic(.error, .fixture, file: file, message: description)
        case .usage, .refusedUnderCI, .environment: Diagnostic(.error, .environment, file: file, message: description)
        }
    }
}
