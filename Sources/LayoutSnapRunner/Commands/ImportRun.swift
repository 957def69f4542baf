import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// `layoutsnap import SRC... --out DIR` (docs/commands.md "import"): captions, chat exports and
/// Markdown files become fixtures. Folders are walked in sorted order; each input becomes one
/// fixture (or several: parts of a long transcript, conversations of an export) at the same
/// place below `--out` as below its folder. An input that cannot be imported is reported with
/// its file and line and the others go on; an existing fixture with other contents is only
/// replaced with `--force` (without it nothing is written).
public struct ImportRun: Sendable {
    public var sources: [String]
    public var out: String
    public var force: Bool
    public var options: Importer.Options

    public init(sources: [String], out: String, force: Bool = false, options: Importer.Options = .init()) {
        self.sources = sources
        self.out = out
        self.force = force
        self.options = options
    }

    /// One input file and where its fixtures go.
    struct Input {
        /// As messages name it (the source as given, then the path below it).
        var path: String
        var format: ImportFormat
        /// The fixture's path below `--out` without `.json`.
        var name: String
    }

    /// A fixture written (or found already there, the same).
    public struct Written: Sendable, Equatable {
        public var path: String
        public var summary: String
        public var unchanged: Bool
    }

    /// What became of one input.
    public struct FileResult: Sendable, Equatable {
        public var input: String
        public var fixtures: [Written]
        public var notes: ImportNotes
    }

    public struct Report: Sendable, Equatable {
        public var files: [FileResult] = []
        /// Inputs that could not be imported: each problem with its file and line.
        public var errors: [Diagnostic] = []
        /// How many inputs failed (each may have several errors).
        public var failedInputs = 0
        /// Files in the folders walked that are not of a kind import reads.
        public var skipped = 0
        /// Fixtures not written because a different file is there (without --force).
        public var refused: [String] = []
        /// Every input's notes together.
        public var notes = ImportNotes()

        public var fixtureCount: Int { files.reduce(0) { $0 + $1.fixtures.count } }
    }

    public func run() throws(RunnerError) -> Report {
        guard !sources.isEmpty else { throw RunnerError.usage("give at least one file or folder to import") }
        try OutputPaths.folder(out, option: "--out")
        var report = Report()
        var inputs: [Input] = []
        let outFolder = OutputPaths.canonical(out)
        for source in sources {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
                report.errors.append(Diagnostic(.error, .input, file: source, message: "no such file or folder"))
                report.failedInputs += 1
                continue
            }
            if isFolder.boolValue {
                walk(source, below: "", outFolder: outFolder, into: &inputs, skipped: &report.skipped)
            } else if let format = ImportFormat(fileName: source) {
                inputs.append(
                    Input(
                        path: source, format: format,
                        name: Importer.fixtureName(forFile: (source as NSString).lastPathComponent)))
            } else {
                report.errors.append(
                    Diagnostic(
                        .error, .input, file: source,
                        message:
                            "not a file import reads: expected .\(ImportFormat.extensions.joined(separator: ", ."))"))
                report.failedInputs += 1
            }
        }
        // A file given twice (itself and its folder) is imported once.
        var seen = Set<String>()
        inputs = inputs.filter { seen.insert(OutputPaths.canonical($0.path)).inserted }
        disambiguate(&inputs)
        var pending: [(input: String, outputs: [(path: String, bytes: [UInt8], summary: String)], notes: ImportNotes)] =
            []
        var claimed: [String: String] = [:]
        for input in inputs {
            let result: Importer.Result
            do {
                result = try Importer.convert(
                    try read(input.path), file: input.path, format: input.format, options: options)
            } catch {
                report.errors += error.diagnostics
                report.failedInputs += 1
                continue
            }
            let outputs = result.outputs.map { (out + "/" + input.name + $0.suffix + ".json", $0.bytes, $0.summary) }
            if let taken = outputs.first(where: { claimed[$0.0] != nil }) {
                report.errors.append(
                    Diagnostic(
                        .error, .input, file: input.path,
                        message: "its fixture \(taken.0) is also made from \(claimed[taken.0]!); rename one of them"))
                report.failedInputs += 1
                continue
            }
            for o in outputs { claimed[o.0] = input.path }
            pending.append((input.path, outputs, result.notes))
        }
        // Nothing is overwritten unless --force: checked for every fixture before any is written.
        var writes: [(String, [UInt8])] = []
        for (input, outputs, notes) in pending {
            var fixtures: [Written] = []
            for (path, bytes, summary) in outputs {
                let there = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
                if there == bytes {
                    fixtures.append(Written(path: path, summary: summary, unchanged: true))
                    continue
                }
                if there != nil || isFolder(path), !force {
                    report.refused.append(path)
                }
                writes.append((path, bytes))
                fixtures.append(Written(path: path, summary: summary, unchanged: false))
            }
            report.files.append(FileResult(input: input, fixtures: fixtures, notes: notes))
            report.notes.add(notes)
        }
        if !report.refused.isEmpty { return report }
        for (path, bytes) in writes { try AtomicFile.write(bytes, to: path) }
        return report
    }

    /// Supported files below `folder`, by name in sorted order; hidden entries, links to folders
    /// and the output folder itself are not entered.
    private func walk(
        _ folder: String, below relative: String, outFolder: String, into inputs: inout [Input], skipped: inout Int
    ) {
        guard OutputPaths.canonical(folder) != outFolder,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                walk(
                    path, below: relative + Importer.slug(name) + "/", outFolder: outFolder, into: &inputs,
                    skipped: &skipped)
            } else if kind == S_IFREG || kind == S_IFLNK, !isFolder(path) {
                if let format = ImportFormat(fileName: name) {
                    inputs.append(
                        Input(path: path, format: format, name: relative + Importer.fixtureName(forFile: name)))
                } else {
                    skipped += 1
                }
            }
        }
    }

    /// Inputs that would share a name (`talk.vtt` and `talk.srt`, `A.md` and `a.md`) get their
    /// format's extension added, then a number.
    private func disambiguate(_ inputs: inout [Input]) {
        let counts = Dictionary(grouping: inputs.indices, by: { inputs[$0].name })
        for (_, indices) in counts where indices.count > 1 {
            for i in indices {
                inputs[i].name += "-" + (inputs[i].path as NSString).pathExtension.lowercased()
            }
        }
        var seen: [String: Int] = [:]
        for i in inputs.indices {
            seen[inputs[i].name, default: 0] += 1
            if let n = seen[inputs[i].name], n > 1 { inputs[i].name += "-\(n)" }
        }
    }

    /// The file's bytes; a file over `Importer.maxInputBytes` is refused unread past the limit.
    private func read(_ path: String) throws(ImportFailure) -> [UInt8] {
        let file: InputFileBytes
        do {
            file = try LocalInputFiles().read(path, upTo: Importer.maxInputBytes)
        } catch {
            let reason: String
            switch error {
            case .notFound: reason = "no such file"
            case .unreadable(let why): reason = why
            }
            throw ImportFailure(Diagnostic(.error, .input, file: path, message: "cannot be read (\(reason))"))
        }
        guard file.size <= Importer.maxInputBytes else {
            throw ImportFailure(
                Diagnostic(
                    .error, .input, file: path,
                    message:
                        "the file is \(file.size) bytes, more than the limit of \(Importer.maxInputBytes); split it"))
        }
        return file.prefix
    }

    private func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
