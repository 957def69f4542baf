import Foundation
import LayoutSnapCore
import LayoutSnapJSON
import LayoutSnapRender
import LayoutSnapSystem

/// The project's `layoutsnap.json`, found from the working directory upward, and where each
/// effective setting comes from: a flag, the file, or the default (`layoutsnap config`).
public struct ProjectSettings: Sendable {
    /// The file as messages show it, or nil when there is none.
    public var file: String?
    /// The file's absolute path, standardized.
    public var path: String?
    public var config: ProjectConfig
    /// The file's folder as seen from the working directory: the project's root, where the
    /// default folders (Fixtures, Goldens, .layoutsnap/report) are too.
    public var root: String?

    /// What `config.defaults` was decoded from, while it is still equal (`==`) to what was
    /// decoded: a hash of the file's name and bytes (or of there being no file). (`==` leaves
    /// out where a variant was written, which only messages use.) A run remembers the defaults'
    /// canonical hash under it (`ResultCache.digest(of:source:folder:)`), since walking them
    /// is a few milliseconds of a warm run. nil for settings not made by `load`, or whose
    /// defaults were changed since.
    public var defaultsSource: [UInt8]? {
        guard let decoded, decoded.defaults == config.defaults else { return nil }
        return decoded.source
    }

    private var decoded: (defaults: FixtureDefaults, source: [UInt8])?

    /// The folders `load` looked in, nearest first, up to the one holding the file (or the
    /// root): this is the nearest layoutsnap.json of each, so a fixture folder's search
    /// (`defaults(forFile:cache:)`) stops where it meets one of them.
    public private(set) var searched: [String] = []

    public init(file: String? = nil, config: ProjectConfig = ProjectConfig(), root: String? = nil) {
        self.file = file
        self.config = config
        self.root = root
    }

    /// A default folder (`Goldens`): in the project's root when there is a layoutsnap.json, else
    /// in the working directory.
    public func defaultFolder(_ name: String) -> String {
        guard let root, root != "." else { return name }
        return root + "/" + name
    }

    public var fixtures: [String] { config.fixtures ?? [defaultFolder("Fixtures")] }
    public var goldens: String { config.goldens ?? defaultFolder("Goldens") }
    public var report: String { config.report ?? defaultFolder(".layoutsnap/report") }
    public var cacheFolder: String { config.cache.folder ?? defaultFolder(LocalResultStore.defaultFolder) }

    /// The nearest `layoutsnap.json` at or above `directory`; a broken one is bad input (exit 2).
    /// Paths are shown as seen from `cwd` (the working directory).
    /// `usesFonts`: whether this is the run's own file, whose `fonts` this process renders with
    /// (fonts are a run setting, like jobs: a fixture folder's own layoutsnap.json gives its
    /// fixtures defaults, never fonts).
    public static func load(
        from directory: String = FileManager.default.currentDirectoryPath,
        cwd: String = FileManager.default.currentDirectoryPath,
        usesFonts: Bool = true
    ) throws(RunnerError) -> ProjectSettings {
        // Up from the folder by its path's text: URL's appending and deleting, for each folder up
        // to the root, were most of looking (this runs for the project and for each folder of
        // fixtures).
        var folder = URL(fileURLWithPath: directory, relativeTo: URL(fileURLWithPath: cwd)).standardizedFileURL.path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        var searched: [String] = []
        while true {
            searched.append(folder)
            let candidate = (folder == "/" ? "" : folder) + "/" + ProjectConfig.fileName
            if SystemCall.status(candidate) != nil {
                let shown = display(candidate, from: cwd)
                guard let data = FileManager.default.contents(atPath: candidate) else {
                    throw RunnerError.usage("\(shown): cannot be read")
                }
                let settings: ProjectSettings
                do throws(FixtureError) {
                    var config = try ProjectConfig.decode(bytes: [UInt8](data), file: shown)
                    // Folders are the file's own: seen from the working directory.
                    let base = (candidate as NSString).deletingLastPathComponent
                    func resolve(_ p: String) -> String {
                        display(p.hasPrefix("/") ? p : base + "/" + p, from: cwd)
                    }
                    config.fixtures = config.fixtures?.map(resolve)
                    config.goldens = config.goldens.map(resolve)
                    config.report = config.report.map(resolve)
                    config.cache.folder = config.cache.folder.map(resolve)
                    for i in config.fonts.indices {
                        let written = config.fonts[i].file
                        let absolute = written.hasPrefix("/") ? written : base + "/" + written
                        config.fonts[i].resolved = URL(fileURLWithPath: absolute).standardizedFileURL.path
                        config.fonts[i].file = resolve(written)
                        if let problem = fontFileProblem(config.fonts[i]) {
                            throw FixtureError(file: shown, config.fonts[i].error(problem))
                        }
                    }
                    var found = ProjectSettings(file: shown, config: config, root: display(base, from: cwd))
                    found.path = candidate
                    var source = SHA256()
                    source.update("file#\(shown.utf8.count):\(shown)bytes#\(data.count):")
                    data.withUnsafeBytes { source.update($0) }
                    found.decoded = (config.defaults, source.finish())
                    found.searched = searched
                    settings = found
                } catch {
                    throw RunnerError.input(error.diagnostic.with(category: .input))
                }
                if usesFonts && !settings.config.fonts.isEmpty {
                    do {
                        try FontSystem.useProjectFonts(.init(fonts: settings.config.fonts, configFile: shown))
                    } catch {
                        throw RunnerError.render(error)
                    }
                }
                return settings
            }
            if folder == "/" || !folder.hasPrefix("/") {
                var none = ProjectSettings()
                var source = SHA256()
                source.update("no \(ProjectConfig.fileName)")
                none.decoded = (none.config.defaults, source.finish())
                none.searched = searched
                return none
            }
            let slash = folder.lastIndex(of: "/")!
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
    }

    /// Why a brand font file cannot be used, checked before anything renders so that the mistake
    /// is one error at its place in layoutsnap.json: missing, a folder, unreadable, or not a
    /// TrueType or OpenType font (by its first four bytes; fontconfig reads the rest later).
    static func fontFileProblem(_ font: BrandFont) -> String? {
        let path = font.resolved ?? font.file
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "\(font.file): no such file"
        }
        if isFolder.boolValue { return "\(font.file) is a folder, not a font file" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "\(font.file): cannot be read" }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)).map { [UInt8]($0) }
        guard let head else { return "\(font.file): cannot be read" }
        if !BrandFont.isFontSignature(head) {
            return "\(font.file) is not a font file: expected TrueType or OpenType (.ttf, .otf, .ttc)"
        }
        return nil
    }

    /// `path` relative to `directory` when it lies below it, else as it is.
    static func display(_ path: String, from directory: String) -> String {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        if standard == root { return "." }
        return standard.hasPrefix(root + "/") ? String(standard.dropFirst(root.count + 1)) : standard
    }

    /// A setting's value and where it came from: the flag, the file, or the default.
    public func pick<T>(_ flag: T?, _ fromFile: T?, default fallback: T) -> (value: T, source: String) {
        if let flag { return (flag, "flag") }
        if let fromFile, let file { return (fromFile, file) }
        return (fallback, "default")
    }

    /// The fixture defaults a fixture file gets: those of the nearest layoutsnap.json at or above
    /// its folder, this one's when that is this file, none when there is no such file. So a
    /// project's defaults never reach fixtures outside its folder (`lint /elsewhere/gen`).
    /// `cache` holds what each folder resolved to, for a batch of files.
    public func defaults(forFile file: String, cache: inout [String: ProjectSettings]) throws(RunnerError)
        -> ProjectSettings
    {
        // The folder as written first, by bytes: the files of one folder share it, and
        // standardizing a URL (or NSString's path methods) for each of thousands of fixtures was
        // a sixth of finding them.
        let slash = file.utf8.lastIndex(of: UInt8(ascii: "/"))
        let written = slash.map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? ""
        if let known = cache[written] { return known }
        // This file's own search answers for every folder it passed (the project's folder and
        // those above it): a fixture folder's search stops there instead of walking to the root
        // and loading "no file" once per folder.
        if cache.isEmpty { for folder in searched { cache[folder] = self } }
        let cwd = FileManager.default.currentDirectoryPath
        var folder = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: cwd)).standardizedFileURL
            .deletingLastPathComponent().path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        var passed: [String] = []
        var found: ProjectSettings
        while true {
            if let known = cache[folder] {
                found = known
                break
            }
            let candidate = (folder == "/" ? "" : folder) + "/" + ProjectConfig.fileName
            if SystemCall.status(candidate) != nil || folder == "/" || !folder.hasPrefix("/") {
                found = try Self.load(from: folder, cwd: cwd, usesFonts: false)
                if found.path == path { found = self }
                break
            }
            passed.append(folder)
            let slash = folder.lastIndex(of: "/")!
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
        cache[folder] = found
        for level in passed { cache[level] = found }
        cache[written] = found
        return found
    }
}
