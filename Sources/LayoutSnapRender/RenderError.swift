/// Everything that can go wrong between a layout and its pixels. The runner turns these into
/// diagnostics; nothing here prints or exits.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Cairo, Pango or a library beneath them could not be loaded (RenderLibraries.load).
    case libraries(String)
    /// The private font setup failed (missing package, unreadable file).
    case fonts(String)
    /// A Cairo call reported a status other than success.
    case cairo(operation: String, status: String)
    /// Pango could not be set up or refused input.
    case pango(String)
    /// An image the fixture names could not be used.
    case image(path: String, reason: String)

    public var description: String {
        switch self {
        case .libraries(let message): "rendering libraries: \(message)"
        case .fonts(let message): "fonts: \(message)"
        case .cairo(let operation, let status): "cairo: \(operation) failed: \(status)"
        case .pango(let message): "pango: \(message)"
        case .image(let path, let reason): "image \(path): \(reason)"
        }
    }
}
