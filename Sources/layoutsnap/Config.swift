import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner
import LayoutSnapJSON
import LayoutSnapRender

/// `layoutsnap config`: the settings a run here would use, and where each comes from.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract:
            "Print the effective settings (from flags, layoutsnap.json or the defaults) and where each comes from.",
        discussion:
            "layoutsnap.json is looked up from the working directory upward; its folders are relative to its own folder; flags given to a command override it."
    )

    @Argument(
        help:
            "A fixture file or folder: show the layoutsnap.json whose defaults its fixtures get (the nearest at or above it).",
        completion: .file(extensions: ["json"]))
    var path: String?

    @Option(
        name: .customLong("theme"),
        help: ArgumentHelp(
            "Print every token of this theme (default: the project's own) with the source of each value.",
            valueName: "name"))
    var theme: String?

    func run() throws {
        try Diagnostics.run {
            let cwd = FileManager.default.currentDirectoryPath
            let here = try ProjectSettings.load()
            var project = here
            if let path {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw RunnerError.usage("\(path): no such file or folder")
                }
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                let folder = isFolder.boolValue ? path : (path as NSString).deletingLastPathComponent
                project = try ProjectSettings.load(from: folder.isEmpty ? "." : folder, cwd: cwd, usesFonts: false)
                Diagnostics.out(
                    "config file for \(path): "
                        + (project.file ?? "none (no layoutsnap.json at or above it: its fixtures get no defaults)"))
            } else {
                Diagnostics.out("config file: \(project.file ?? "none (no layoutsnap.json here or above)")")
            }
            let c = project.config
            // Run settings come from the working directory's file, whichever file a PATH has.
            let run = here.config
            let environment = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"]
            let reporter: (value: String, source: String) =
                if let chosen = run.reporter, let file = here.file {
                    (chosen, file)
                } else if environment == "true" {
                    ("github", "GITHUB_ACTIONS=true")
                } else {
                    ("terminal", "default; github when GITHUB_ACTIONS=true")
                }
            let rows: [(String, (value: String, source: String))] = [
                (
                    "fixtures",
                    here.pick(
                        nil, run.fixtures?.joined(separator: ", "), default: here.fixtures.joined(separator: ", "))
                ),
                ("goldens", here.pick(nil, run.goldens, default: here.goldens)),
                ("report", here.pick(nil, run.report, default: here.report)),
                ("jobs", here.pick(nil, run.jobs.map(String.init), default: "\(BatchRunner.defaultJobs) (all cores)")),
                ("timeout", here.pick(nil, run.timeout.map { "\($0) s" }, default: "\(Watchdog.defaultSeconds) s")),
                ("reporter", reporter),
                ("lint", here.pick(nil, run.lintMode?.rawValue, default: LintMode.warn.rawValue)),
                (
                    "cache",
                    run.cache.local == false
                        ? ("off", here.file ?? "")
                        : here.pick(nil, run.cache.folder, default: here.cacheFolder)
                ),
                ("remote", here.pick(nil, run.cache.remote, default: "none")),
            ]
            for (name, (value, source)) in rows {
                Diagnostics.out("\(name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)  [\(source)]")
            }
            try Self.printFonts(here)
            let d = c.defaults
            Diagnostics.out("fixture defaults (a fixture's own field wins; lint ignores are added to its own):")
            let defaults: [(String, (value: String, source: String))] = [
                ("device", project.pick(nil, d.device?.name, default: "\(Device.defaultName)")),
                ("scale", project.pick(nil, d.scale.map { JSONWriter.formatNumber($0) }, default: "the device's")),
                ("fps", project.pick(nil, d.fps.map { JSONWriter.formatNumber($0) }, default: "60")),
                ("textSize", project.pick(nil, d.textSize?.rawValue, default: ContentSizeCategory.large.rawValue)),
                ("appearance", project.pick(nil, d.appearance?.rawValue, default: Appearance.light.rawValue)),
                ("direction", project.pick(nil, d.direction?.rawValue, default: LayoutDirection.ltr.rawValue)),
                ("tolerance", project.pick(nil, d.tolerance.map(Self.describe), default: "exact")),
                (
                    "variants",
                    project.pick(
                        nil, d.variants.map { $0.isEmpty ? "none" : $0.map(\.name).joined(separator: ", ") },
                        default: "none")
                ),
                (
                    "lint",
                    project.pick(
                        nil,
                        d.lintIgnores.isEmpty
                            ? nil
                            : d.lintIgnores.map {
                                "ignore \($0.rule.rawValue)" + ($0.element.map { " on \($0)" } ?? "")
                            }
                            .joined(separator: ", "),
                        default: "no ignores")
                ),
            ]
            for (name, (value, source)) in defaults {
                Diagnostics.out("  \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(value)  [\(source)]")
            }
            try printTheme(d.themes, file: project.file)
            return .passed
        }
    }

    /// The theme's tokens and where each value comes from: every token with `--theme`, else
    /// only those the project's file sets (the rest are the built-in design's).
    func printTheme(_ book: ThemeBook, file: String?) throws {
        let name = theme ?? ThemeBook.defaultName
        guard book.theme(named: name) != nil else {
            throw RunnerError.usage(
                "--theme \(name): no such theme; this project has \(book.names.joined(separator: ", "))")
        }
        let where_ = file ?? "layoutsnap.json"
        var layers: [(patch: ThemePatch, source: String)] = [(book.project, "\(where_) theme")]
        if name != ThemeBook.defaultName, let named = book.named[name] {
            layers.append((named, "\(where_) themes.\(name)"))
        }
        let effective = layers.reduce(Theme.default) { $1.patch.applied(to: $0) }
        let set = ThemeTokens.all.filter { t in layers.contains { $0.patch.values[t.path] != nil } }
        let others = book.names.dropFirst().joined(separator: ", ")
        Diagnostics.out(
            "theme \(name) (\(set.count) of \(ThemeTokens.all.count) tokens set, the rest built-in"
                + (others.isEmpty ? "" : "; named themes: \(others)") + "):")
        for token in theme == nil ? set : ThemeTokens.all {
            let source = layers.last { $0.patch.values[token.path] != nil }?.source ?? "built-in"
            Diagnostics.out("  \(token.path)  \(token.read(effective).text)  [\(source)]")
        }
    }

    /// The brand families (a run setting: the working directory's file's), each with its files,
    /// after loading them into the private fontconfig, so that a file fontconfig cannot use is
    /// reported here as it would be by a render.
    static func printFonts(_ project: ProjectSettings) throws(RunnerError) {
        let fonts = project.config.fonts
        guard let file = project.file, !fonts.isEmpty else {
            Diagnostics.out(
                "fonts     bundled only (Inter, Noto Sans Arabic, Noto Sans CJK, Noto Color Emoji)  [default]")
            return
        }
        let engine: TextEngine
        do { engine = try TextEngine(fonts: FontSystem.shared()) } catch { throw RunnerError.render(error) }
        Diagnostics.out("fonts     (brand families, then the bundled ones for what they lack)")
        for family in project.config.fontFamilies {
            let files = fonts.filter { $0.family == family }.map { $0.file + ($0.face.map { " (\($0))" } ?? "") }
            // What Pango lays Latin text of the family out with: the proof that the name reaches
            // the file.
            let sample = StyledText(runs: [TextRun("Ag")], font: FontSpec(size: 17, family: family), width: nil)
            let faces: [TextEngine.UsedFace]
            do { faces = try engine.faces(of: sample) } catch { throw RunnerError.render(error) }
            let regular = faces.map { ($0.file as NSString).lastPathComponent }.joined(separator: ", ")
            Diagnostics.out("  \(family): \(files.joined(separator: ", ")); regular text: \(regular)  [\(file)]")
        }
    }

    /// `threshold 0.1, maxDiffPixels 20, timing 2 frames`.
    static func describe(_ t: FixtureDefaults.DecodedTolerance) -> String {
        var parts: [String] = []
        if let p = t.pixels {
            parts += [
                "threshold \(JSONWriter.formatNumber(p.threshold))", "maxDiffPixels \(p.maxDiffPixels)",
                "maxDiffRatio \(JSONWriter.formatNumber(p.maxDiffRatio))",
            ]
            if p.includeAntialiasing { parts.append("includeAntialiasing") }
        } else {
            parts.append("exact pixels")
        }
        if t.timingFrames > 0 { parts.append("timing \(Plural.count(t.timingFrames, "frame"))") }
        return parts.joined(separator: ", ")
    }
}
