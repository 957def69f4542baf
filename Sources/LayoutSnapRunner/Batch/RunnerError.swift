import LayoutSnapCore
import LayoutSnapRender

/// Errors that stop a whole run before any fixture is looked at (exit 2).
public enum RunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An argument or path the user gave cannot be used.
    case usage(String)
    /// A file the user gave besides the fixtures cannot be used, with where in it.
    case input(Diagnostic)
    /// `record` under CI without `--allow-ci`.
    case refusedUnderCI
    /// The golden store cannot be read or written: the diagnostic names the file (and, for a
    /// broken manifest, the line, column and JSON path).
    case goldens(Diagnostic)
    /// A file could not be written (disk full, permissions); what was there before is intact.
    case write(String)
    /// A fixture that cannot be used, as the diagnostic that says where (file, line, column,
    /// JSON path).
    case fixture(Diagnostic)
    /// Cairo, Pango, the fonts or a library beneath them failed, as the renderer said.
    case render(RenderError)
    /// Something else outside the fixtures (a process, the output folder, page resources) failed.
    case environment(String)

    public var description: String {
        switch self {
        case .usage(let message): message
        case .refusedUnderCI:
            "goldens are not written when CI is set: they are recorded on purpose and committed, never by a CI job. Run this locally, or pass --allow-ci (for example with --goldens pointing at a temporary folder)."
        case .goldens(let diagnostic): "goldens: \(diagnostic)"
        case .render(let error): error.description
        case .environment(let message): message
        case .fixture(let diagnostic), .input(let diagnostic): diagnostic.description
        case .write(let message): message
        }
    }
}

extension RunnerError {
    /// The error as a diagnostic about `file`; a fixture's keeps its own place.
    public func diagnostic(file: String?) -> Diagnostic {
        switch self {
        case .fixture(let diagnostic), .input(let diagnostic): diagnostic
        case .goldens(let diagnostic): diagnostic
        case .write: Diagnostic(.error, .io, file: file, message: description)
        case .usage, .refusedUnderCI, .environment, .render:
            Diagnostic(.error, .environment, file: file, message: description)
        }
    }
}

extension Diagnostic {
    /// What stopped a fixture between decoding and its last frame, typed: the fixture's own
    /// errors say where in it; anything else is `otherwise`'s, about the fixture's file. What
    /// fails only after a variant was applied names the variant and where it was declared.
    public static func fixtureStage(
        _ error: any Error, ref: FixtureRef, fixture: Fixture? = nil, otherwise: Category = .fixture
    ) -> Diagnostic {
        let file = ref.displayPath
        var d: Diagnostic
        switch error {
        case let error as FixtureError: return error.diagnostic  // the file's own: the same in every variant
        case let error as LayoutError:
            let place = SourcePlaces.position(of: error.path, inFile: ref.path)
            d = Diagnostic(
                .error, .fixture, file: file, line: place?.line, column: place?.column, path: error.path,
                message: error.message)
        case let error as WatchdogExpired: d = Diagnostic(.error, .watchdog, file: file, message: error.description)
        case RunnerError.fixture(let diagnostic): return diagnostic  // already placed (decodeAndLayout)
        case let error as RunnerError: d = error.diagnostic(file: file)
        case RenderError.image(let path, let reason):
            // The image a fixture names: its place in the fixture, when known.
            let source = fixture?.imageSource(path: path)
            d = Diagnostic(
                .error, .fixture, file: file, line: source?.line, column: source?.column,
                path: source?.jsonPath ?? "$.image.path", message: "image \(source?.written ?? path): \(reason)")
        case let error as RenderError: d = Diagnostic(.error, .render, file: file, message: error.description)
        default: d = Diagnostic(.error, otherwise, file: file, message: "\(error)")
        }
        if let variant = ref.variant {
            d.variant = ref.id + (variant.origin.map { " (from \($0))" } ?? "")
        }
        return d
    }
}
