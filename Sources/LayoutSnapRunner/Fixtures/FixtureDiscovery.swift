import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapSystem

/// A fixture file found on disk, before it is read.
public struct FixtureRef: Sendable, Hashable {
    /// Path below the fixtures root without `.json` (docs/fixtures/README.md).
    public var id: String
    /// Absolute path of the file.
    public var path: String
    /// The path as messages show it (relative to the working directory when below it).
    public var displayPath: String
    /// For `<id>@<name>`: the fixture's variant it is (the same file, rendered that way).
    public var variant: FixtureVariant? {
        get { storedVariant.value }
        set { storedVariant = Shared(newValue) }
    }
    /// The file names `variants` that cannot be read: its base stays in every selection (even
    /// `--variant`), so decoding it reports the mistake instead of the run passing without it.
    public var variantsUnreadable = false
    /// The project's fixture defaults (layoutsnap.json's `defaults`), applied when it is decoded.
    public var defaults: FixtureDefaults {
        get { storedDefaults.value }
        set { storedDefaults = Shared(newValue) }
    }
    // Each kept behind one reference: held inline they made a ref 4.4 KB, which every copy of a
    // ref (sorting, selecting, handing fixtures to workers) moved and retained field by field.
    private var storedVariant: Shared<FixtureVariant?>
    private var storedDefaults: Shared<FixtureDefaults>
    /// For a variant: the XXH3 of the file's bytes its variants were read from. The result
    /// cache files a remembered key under the variant's name, which picks out one value only for
    /// those bytes: a file saved between finding the fixtures and weighing them is no shortcut.
    public var variantSource: UInt64?
    /// Why discovery could not reach this file or folder (a name that is not UTF-8, a folder
    /// that cannot be read): loading it is that error, so the run reports it instead of passing
    /// without the fixtures behind it.
    public var problem: String?

    public init(
        id: String, path: String, displayPath: String, variant: FixtureVariant? = nil,
        defaults: FixtureDefaults = FixtureDefaults()
    ) {
        self.id = id
        self.path = path
        self.displayPath = displayPath
        storedVariant = Shared(variant)
        storedDefaults = Shared(defaults)
    }

    /// The file's own id (`posts/x` for `posts/x@iphone-se+AX3`).
    public var fileID: String { variant == nil ? id : FixtureVariant.baseID(of: id) }

    /// Decodes the file and, for a variant, applies it: the one way a ref becomes a fixture.
    public func load(files: any InputFiles = LocalInputFiles()) throws(FixtureError) -> Fixture {
        if let problem { throw FixtureError(file: displayPath, message: problem) }
        let base = try FixtureDecoder.load(
            path: path, id: fileID, displayPath: displayPath, files: files, defaults: defaults)
        return variant.map { $0.apply(to: base) } ?? base
    }
}

/// An immutable value behind one reference, equal and hashed by its value.
struct Shared<Value: Hashable & Sendable>: Hashable, Sendable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
    private let box: Box

    init(_ value: Value) { box = Box(value) }

    var value: Value { box.value }

    static func == (a: Shared, b: Shared) -> Bool { a.box === b.box || a.value == b.value }
    func hash(into hasher: inout Hasher) { box.value.hash(into: &hasher) }
}

/// Finds fixtures under the PATH arguments.
///
/// Ids are relative to the fixtures root: a PATH inside `Fixtures/` (the default root) keeps ids
/// like `posts/x`; a folder elsewhere is its own root; a single file elsewhere is named after its
/// file name. Folders named `images` hold fixture images and are not searched.
public enum FixtureDiscovery {
    /// `defaults`: the fixture defaults every ref carries (and whose variants every fixture
    /// without its own has). With `project` (the layoutsnap.json found from the working
    /// directory), each file gets those of the nearest layoutsnap.json at or above its folder
    /// instead, so a project's defaults reach only the fixtures under it.
    public static func discover(
        paths: [String], defaultRoot: String = "Fixtures", filter: String? = nil,
        defaults: FixtureDefaults = FixtureDefaults(), project: ProjectSettings? = nil
    ) throws(RunnerError) -> [FixtureRef] {
        var configs: [String: ProjectSettings] = [:]
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath
        let rootAbs = absolute(defaultRoot, cwd: cwd)
        let targets = paths.isEmpty ? [defaultRoot] : paths
        // The refs in an array and their ids in a dictionary: each ref carries its folder's
        // defaults, and moving them as a dictionary of refs grew (and sorting them) was a sixth
        // of finding the fixtures.
        var refs: [FixtureRef] = []
        var found: [String: Int] = [:]
        func put(_ ref: FixtureRef) {
            if let at = found[ref.id] {
                refs[at] = ref
            } else {
                found[ref.id] = refs.count
                refs.append(ref)
            }
        }

        for target in targets {
            // Standardizing resolves links, a readlink for each folder on the way: once for the
            // usual target, the default root itself.
            let abs = target == defaultRoot ? rootAbs : absolute(target, cwd: cwd)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: abs, isDirectory: &isDir) else {
                if paths.isEmpty {
                    throw RunnerError.usage(
                        "there is no \(defaultRoot)/ folder here: run layoutsnap from the project folder, or name fixture files or folders"
                    )
                }
                throw RunnerError.usage("\(target): no such file or folder")
            }
            let root: String
            if abs == rootAbs || abs.hasPrefix(rootAbs + "/") {
                root = rootAbs
            } else {
                root = isDir.boolValue ? abs : (abs as NSString).deletingLastPathComponent
            }
            let files = isDir.boolValue ? try jsonFiles(under: abs, target: target) : [(abs, nil)]
            for (file, problem) in files {
                if let problem {
                    // Never a fixture's id (those do not end in "/"), so it has no goldens; it
                    // stays under any filter, since what it hides may match, and the orphan
                    // check takes a run with one as not the whole set.
                    let id = String(file.dropFirst(root.count + 1)) + "/"
                    var ref = FixtureRef(id: id, path: file, displayPath: display(file, cwd: cwd), defaults: defaults)
                    ref.problem = problem
                    put(ref)
                    continue
                }
                guard file.hasSuffix(".json") else {
                    throw RunnerError.usage("\(target): a fixture is a .json file")
                }
                var rel = String(file.dropFirst(root.count + 1))
                rel.removeLast(".json".count)
                let defaults =
                    try project.map { p throws(RunnerError) in
                        try p.defaults(forFile: file, cache: &configs).config.defaults
                    } ?? defaults
                let ref = FixtureRef(id: rel, path: file, displayPath: display(file, cwd: cwd), defaults: defaults)
                if let filter, !matches(glob: filter, rel) { continue }
                // Two files with one id would share (and overwrite) one golden folder.
                if let other = found[ref.id].map({ refs[$0] }), other.path != ref.path {
                    throw RunnerError.usage(
                        "\(other.displayPath) and \(ref.displayPath) both have the id \"\(ref.id)\" (ids are paths below the fixtures root); their goldens would collide: name one of them differently or pass their common parent folder"
                    )
                }
                let (declared, unreadable, source) = variants(of: file, defaults: defaults)
                var base = ref
                base.variantsUnreadable = unreadable
                put(base)
                // A fixture's variants are fixtures of their own ('@' is never in a file's id).
                for variant in declared {
                    let id = FixtureVariant.id(base: rel, name: variant.name)
                    if let filter, !matches(glob: filter, id) { continue }
                    var variantRef = FixtureRef(
                        id: id, path: file, displayPath: ref.displayPath, variant: variant, defaults: defaults)
                    variantRef.variantSource = source
                    put(variantRef)
                }
            }
        }
        return found.keys.sorted().map { refs[found[$0]!] }
    }

    /// The one fixture file `path` names, or its variant `variant` (layout, preview).
    public static func single(
        _ path: String, variant: String?, defaults: FixtureDefaults = FixtureDefaults(), project: ProjectSettings? = nil
    )
        throws(RunnerError) -> FixtureRef
    {
        let refs = try discover(paths: [path], defaults: defaults, project: project)
        let files = refs.filter { $0.variant == nil }
        guard let base = files.first, files.count == 1 else {
            throw RunnerError.usage("\(path): name one fixture file")
        }
        guard let variant else { return base }
        if let ref = refs.first(where: { $0.variant.map { FixtureVariant.sameName($0.name, variant) } ?? false }) {
            return ref
        }
        let names = refs.compactMap { $0.variant?.name }
        throw RunnerError.usage(
            "\(base.displayPath) has no variant \"\(variant)\""
                + (names.isEmpty ? " (it declares no variants)" : "; it has: \(names.joined(separator: ", "))"))
    }

    /// The variants a fixture file declares (or the project's default ones), read without
    /// decoding the rest. A file whose variants cannot be read has none here: decoding the base
    /// reports the error. `source`: the XXH3 of the bytes they were read from.
    static func variants(of file: String, defaults: FixtureDefaults) -> (
        variants: [FixtureVariant], unreadable: Bool, source: UInt64?
    ) {
        guard let (size, data) = try? SystemCall.readPrefix(file, upTo: Limits.maxFixtureFileBytes),
            size == data.count
        else {
            return ([], false, nil)
        }
        // Without default variants, a file without the word has none: most files are not parsed twice.
        if defaults.variants == nil, !contains(data, "\"variants\"") { return ([], false, nil) }
        // nil: a broken file, or broken variants.
        guard let variants = FixtureDecoder.variants(in: data, defaults: defaults) else {
            return ([], true, nil)
        }
        return (variants, false, variants.isEmpty ? nil : data.withUnsafeBytes { PixelHash.ofBytes($0) })
    }

    /// Whether `data` holds `word`'s bytes, found with memchr and a compare (`Data.range(of:)`
    /// was a tenth of a warm run over 2,000 fixtures).
    static func contains(_ data: [UInt8], _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard let first = needle.first else { return true }
        return data.withUnsafeBytes { (haystack: UnsafeRawBufferPointer) -> Bool in
            guard let base = haystack.baseAddress else { return false }
            var at = 0
            while haystack.count - at >= needle.count {
                guard let hit = memchr(base + at, Int32(first), haystack.count - at - needle.count + 1) else {
                    return false
                }
                let offset = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + offset, needle, needle.count) == 0 { return true }
                at = offset + 1
            }
            return false
        }
    }

    /// True when `path` is a folder that is its own fixtures root: the default root itself, or a
    /// folder outside it (a folder inside the default root, or a file, covers only part of a root).
    public static func isRoot(_ path: String, defaultRoot: String = "Fixtures") -> Bool {
        let cwd = FileManager.default.currentDirectoryPath
        let abs = absolute(path, cwd: cwd)
        let rootAbs = absolute(defaultRoot, cwd: cwd)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: abs, isDirectory: &isDir), isDir.boolValue else { return false }
        return abs == rootAbs || !abs.hasPrefix(rootAbs + "/")
    }

    /// The fixtures root of a PATH argument, as the user would name it: the default root for a
    /// path inside it, the folder itself for a folder elsewhere, a file's folder for a file.
    public static func root(of path: String, defaultRoot: String = "Fixtures") -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let abs = absolute(path, cwd: cwd)
        let rootAbs = absolute(defaultRoot, cwd: cwd)
        if abs == rootAbs || abs.hasPrefix(rootAbs + "/") { return defaultRoot }
        var isDir: ObjCBool = false
        let folder =
            FileManager.default.fileExists(atPath: abs, isDirectory: &isDir) && isDir.boolValue
            ? abs : (abs as NSString).deletingLastPathComponent
        return display(folder, cwd: cwd)
    }

    /// Every `.json` below `dir`, sorted: through real folders only (a link to a folder is not
    /// entered), not into a folder named `images` or starting with a dot (nor a link to one).
    /// readdir, not FileManager's enumerator, which took a twentieth of a warm verify.
    /// A file or folder that cannot be reached comes with why (a name that is not UTF-8, a folder
    /// that cannot be read): the run reports it as an error rather than leaving its fixtures out
    /// unseen. `target` cannot be read at all: a usage error.
    static func jsonFiles(under dir: String, target: String) throws(RunnerError) -> [(path: String, problem: String?)] {
        var result: [(path: String, problem: String?)] = []
        var folders = [dir]
        while let folder = folders.popLast() {
            let entries: [SystemCall.FolderEntry]
            switch SystemCall.folderEntries(folder) {
            case .success(let read): entries = read
            case .failure(let error):
                if folder == dir { throw RunnerError.usage("\(target): cannot be read (\(error.reason))") }
                result.append((folder, "this folder cannot be read (\(error.reason)): the fixtures in it were not run"))
                continue
            }
            for entry in entries {
                let path = folder + "/" + entry.name
                if entry.name == "images" || entry.name.hasPrefix(".") {
                    if entry.isFolder || SystemCall.status(path).map({ $0.st_mode & S_IFMT == S_IFDIR }) == true {
                        continue
                    }
                }
                guard entry.isUTF8 else {
                    // Its path cannot be spelt in a String: the file cannot be opened by it.
                    if entry.isFolder {
                        result.append(
                            (
                                path,
                                "this folder's name is not UTF-8 (\u{FFFD} stands for each byte that is not): the fixtures in it were not run; rename it"
                            ))
                    } else if entry.name.hasSuffix(".json") {
                        result.append(
                            (
                                path,
                                "the file's name is not UTF-8 (\u{FFFD} stands for each byte that is not), so it cannot be opened by it; rename it"
                            ))
                    }
                    continue
                }
                if entry.name.hasSuffix(".json") { result.append((path, nil)) }
                if entry.isFolder { folders.append(path) }
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    static func absolute(_ path: String, cwd: String) -> String {
        let joined = path.hasPrefix("/") ? path : cwd + "/" + path
        return (joined as NSString).standardizingPath
    }

    static func display(_ path: String, cwd: String) -> String {
        path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    /// Shell-style glob over fixture ids: `*` does not cross `/`, `**` does, `?` is one character.
    public static func matches(glob: String, _ id: String) -> Bool {
        fnmatch(glob, id, FNM_PATHNAME) == 0
            || (glob.contains("**") && fnmatch(glob.replacingOccurrences(of: "**", with: "*"), id, 0) == 0)
    }
}
