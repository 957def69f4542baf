import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// `layoutsnap --version` and a plain `layoutsnap diff A B [options]` without argument-parser:
/// building its command tree reflects over every command's properties, which cost most of a
/// `diff` of small images (Swift's conformance lookups, several milliseconds a process). Only
/// command lines it fully understands take this path; anything else (help, a typo, a bad value,
/// `--opt=value`) is left to argument-parser, which says what is wrong exactly as before.
enum FastPath {
    /// The exit code when the fast path ran the command; nil to parse it the usual way.
    static func run(_ arguments: [String]) -> Int32? {
        let args = Array(arguments.dropFirst())
        if args == ["--version"] {
            FileHandle.standardOutput.write(Data((LayoutSnap.version + "\n").utf8))
            return Outcome.passed.exitCode
        }
        guard args.first == "diff", let request = diffRequest(Array(args.dropFirst())), request.problem == nil else {
            return nil
        }
        do {
            try Diagnostics.run { try request.execute() }
            return Outcome.passed.exitCode
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            return nil
        }
    }

    /// The request a diff command line makes, or nil when any word is not a plain one of diff's.
    static func diffRequest(_ words: [String]) -> DiffRequest? {
        var positional: [String] = []
        var request = DiffRequest(a: "", b: "")
        var i = 0
        func value() -> String? {
            i += 1
            return i < words.count && !words[i].hasPrefix("-") ? words[i] : nil
        }
        while i < words.count {
            let word = words[i]
            switch word {
            case "--include-aa": request.includeAA = true
            case "--json": request.json = true
            case "--diff-mask": request.diffMask = true
            case "--out":
                guard let v = value() else { return nil }
                request.out = v
            case "--threshold":
                guard let v = value().flatMap(Double.init) else { return nil }
                request.threshold = v
            case "--max-diff-pixels":
                guard let v = value().flatMap({ Int($0) }) else { return nil }
                request.maxDiffPixels = v
            case "--max-diff-ratio":
                guard let v = value().flatMap(Double.init) else { return nil }
                request.maxDiffRatio = v
            case "--alpha":
                guard let v = value().flatMap(Double.init) else { return nil }
                request.alpha = v
            case "--background":
                guard let v = value().flatMap(BackgroundArgument.init(rawValue:)) else { return nil }
                request.background = v
            case "--diff-color":
                guard let v = value().flatMap(ColorArgument.init(argument:)) else { return nil }
                request.diffColor = v.color
            case "--diff-color-alt":
                guard let v = value().flatMap(ColorArgument.init(argument:)) else { return nil }
                request.diffColorAlt = v.color
            case "--aa-color":
                guard let v = value().flatMap(ColorArgument.init(argument:)) else { return nil }
                request.aaColor = v.color
            default:
                guard !word.hasPrefix("-") else { return nil }
                positional.append(word)
            }
            i += 1
        }
        guard positional.count == 2 else { return nil }
        request.a = positional[0]
        request.b = positional[1]
        return request
    }
}
