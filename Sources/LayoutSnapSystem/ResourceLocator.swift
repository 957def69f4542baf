#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of layoutsnap's own files that are not code: the fonts it renders with and the CSS
/// and JavaScript its pages inline. Each has a name in the installed layout (`fonts`, `page`
/// under `share/layoutsnap`) and a place in SwiftPM's build tree (the target's resource bundle
/// beside the executable).
public struct ResourceFolder: Sendable, Equatable {
    /// Its name under `share/layoutsnap` and under `$LAYOUTSNAP_RESOURCES`.
    public var name: String
    /// Where SwiftPM's build puts it, relative to the executable's folder.
    public var buildPath: String
    /// A file every copy holds: a folder without it is not taken.
    public var marker: String

    /// LayoutSnapRender's fonts (`.copy("Resources/Fonts")`).
    public static let fonts = ResourceFolder(
        name: "fonts", buildPath: "layoutsnap_LayoutSnapRender.resources/Fonts", marker: "Inter-Regular.otf")
    /// LayoutSnapReport's stylesheets and scripts (`.copy("Resources")`).
    public static let page = ResourceFolder(
        name: "page", buildPath: "layoutsnap_LayoutSnapReport.resources/Resources", marker: "report.css")
}

/// The one place that finds a `ResourceFolder`, for every target that reads one. In order:
///
/// 1. installed: `<prefix>/share/layoutsnap/<name>`, the prefix being the folder above the
///    executable's (`/usr/bin/layoutsnap` finds `/usr/share/layoutsnap`; `/usr/local` works alike);
/// 2. beside the executable: SwiftPM's resource bundles (the build tree, `.build/release`);
/// 3. `$LAYOUTSNAP_RESOURCES/<name>`, a folder laid out like `/usr/share/layoutsnap`.
///
/// The first that holds the folder's marker file wins. The environment comes last, so a stray
/// variable never changes which fonts an installed or freshly built binary renders with. When no
/// place holds it, the error names every place looked.
public enum ResourceLocator {
    public static let environmentVariable = "LAYOUTSNAP_RESOURCES"

    /// The folder, from this process's executable and environment.
    public static func locate(_ folder: ResourceFolder) throws(ResourceNotFound) -> String {
        let variable = getenv(environmentVariable).map { String(cString: $0) }
        return try locate(folder, executable: executablePath(), environmentValue: variable)
    }

    /// The folder, from the given executable path and value of `LAYOUTSNAP_RESOURCES`.
    public static func locate(
        _ folder: ResourceFolder, executable: String?, environmentValue: String?
    ) throws(ResourceNotFound) -> String {
        let places = candidates(folder, executable: executable, environmentValue: environmentValue)
        for place in places where access(place + "/" + folder.marker, R_OK) == 0 {
            return place
        }
        throw ResourceNotFound(
            folder: folder, looked: places, executableKnown: executable != nil,
            environmentSet: !(environmentValue ?? "").isEmpty)
    }

    /// Every place looked, in order.
    public static func candidates(_ folder: ResourceFolder, executable: String?, environmentValue: String?) -> [String]
    {
        var places: [String] = []
        if let executable {
            let bin = parent(executable)
            places.append(parent(bin) + "/share/layoutsnap/" + folder.name)
            places.append(bin + "/" + folder.buildPath)
        }
        if let environmentValue, !environmentValue.isEmpty {
            places.append(environmentValue + "/" + folder.name)
        }
        return places
    }

    /// The running executable, symbolic links resolved: `/proc/self/exe` on Linux; elsewhere
    /// argv[0], resolved through PATH when it names no folder.
    public static func executablePath() -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if count > 0 {
                return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        #endif
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.contains("/") { return resolved(first) }
        return onPath(first).flatMap(resolved)
    }

    /// The first `name` in PATH's folders that may be executed (`ffmpeg` → `/usr/bin/ffmpeg`),
    /// or nil.
    public static func onPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            var info = stat()
            if access(candidate, X_OK) == 0, stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                return candidate
            }
        }
        return nil
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The folder holding `path` (`/` for a path directly under it).
    static func parent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}

/// No place holds a resource folder: the message names each place looked and the ways to fix it.
public struct ResourceNotFound: Error, Sendable, Equatable, CustomStringConvertible {
    public var folder: ResourceFolder
    public var looked: [String]
    public var executableKnown: Bool
    public var environmentSet: Bool

    public var description: String {
        var places = looked
        if !executableKnown {
            places.insert(
                "share/layoutsnap and the build's resource bundles beside the executable (its path is unknown)", at: 0)
        }
        if !environmentSet { places.append("$\(ResourceLocator.environmentVariable)/\(folder.name) (not set)") }
        return "the resource folder \(folder.name)/ (with \(folder.marker)) was not found; looked in "
            + places.joined(separator: ", ")
            + ". Install the package (they go to /usr/share/layoutsnap), keep the build's layoutsnap_*.resources "
            + "folders beside the binary, or set \(ResourceLocator.environmentVariable) to a folder holding fonts/ and page/"
    }
}
