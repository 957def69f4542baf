import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// `layoutsnap --version`, a plain `layoutsnap diff A B [options]` and a plain `layoutsnap verify
/// [options]` without argument-parser: building its command tree reflects over every command's
/// properties, which cost most of a `diff` of small images and a fifth of a warm verify (Swift's
/// conformance lookups, several milliseconds a process). Only command lines it fully understands
/// take this path; anything else (help, a typo, a bad value, a repeated option, `--opt=value`)
/// is left to argument-parser, which says what is wrong exactly as before. The commands are the
/// same values either way (`VerifyFastPathTests` holds them equal, every property).
enum FastPath {
    /// The exit code when the fast path ran the command; nil to parse it the usual way.
    static func run(_ arguments: [String]) -> Int32? {
        let args = Array(arguments.dropFirst())
        if args == ["--version"] {
            FileHandle.standardOutput.write(Data((LayoutSnap.version + "\n").utf8))
            return Outcome.passed.exitCode
        }
        if let words = verifyWords(args), let verify = verify(words) {
            do {
                try verify.run()
                return Outcome.passed.exitCode
            } catch let code as ExitCode {
                return code.rawValue
            } catch {
                // Diagnostics.run turns every error into a message and an ExitCode; this is a
                // backstop, and the command has run, so it is not parsed again.
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                return Outcome.error.exitCode
            }
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

    /// The words of a verify command line: those after `verify`, or all of them when the first
    /// names no command (verify is the default command); nil for another command.
    static func verifyWords(_ args: [String]) -> [String]? {
        if args.first == "verify" { return Array(args.dropFirst()) }
        if let first = args.first, first == "help" || commandNames.contains(first) { return nil }
        return args
    }

    static var commandNames: Set<String> {
        Set(LayoutSnap.configuration.subcommands.compactMap { $0.configuration.commandName })
    }

    /// The verify command a command line makes (the words after `verify`), or nil when any word
    /// is not a plain one of verify's, an option is given twice, or a check of argument-parser's
    /// would refuse it.
    static func verify(_ words: [String]) -> Verify? {
        var verify = Verify.unparsed()
        var seen: Set<String> = []
        var i = 0
        func value() -> String? { i < words.count && !words[i].hasPrefix("-") ? words[i] : nil }
        while i < words.count {
            let word = words[i]
            i += 1
            guard word.hasPrefix("-") else {
                verify.options.paths.append(word)
                continue
            }
            // A repeated option is argument-parser's to settle (--remote-cache-header's to collect).
            guard word == "--remote-cache-header" || seen.insert(word).inserted else { return nil }
            if let flag = VerifyWords.flags[word] {
                verify[keyPath: flag] = true
                continue
            }
            guard let text = value() else { return nil }
            i += 1
            if let option = VerifyWords.strings[word] {
                verify[keyPath: option] = text
                continue
            }
            if let option = VerifyWords.numbers[word] {
                guard let number = Double(text) else { return nil }
                verify[keyPath: option] = number
                continue
            }
            switch word {
            case "--jobs":
                guard let jobs = Int(text) else { return nil }
                verify.options.jobs = jobs
            case "--shard":
                guard let shard = try? Shard.parse(text).get() else { return nil }
                verify.options.shard = shard
            case "--remote-cache-header": verify.cache.remoteCacheHeader.append(text)
            case "--remote-cache-upload":
                guard let upload = CacheUpload(rawValue: text) else { return nil }
                verify.cache.remoteCacheUpload = upload
            case "--reporter":
                guard let reporter = Reporter(rawValue: text) else { return nil }
                verify.reporter = reporter
            case "--lint":
                guard let lint = LintMode(rawValue: text) else { return nil }
                verify.lint = lint
            default: return nil
            }
        }
        // argument-parser's validation, which says what is wrong when it refuses.
        guard (try? verify.options.validate()) != nil, (try? verify.options.render.validate()) != nil,
            (try? verify.cache.validate()) != nil
        else { return nil }
        return verify
    }
}

/// verify's words that the fast path reads, by the property each sets (worked out when asked:
/// key paths are not Sendable, and a process asks once).
private enum VerifyWords {
    static var flags: [String: WritableKeyPath<Verify, Bool>] {
        [
            "--quiet": \.options.quiet, "--no-progress": \.options.noProgress, "--no-cache": \.cache.noCache,
            "--check-orphans": \.checkOrphans, "--verbose": \.verbose, "--strict-env": \.strictEnv,
        ]
    }
    static var strings: [String: WritableKeyPath<Verify, String?>] {
        [
            "--goldens": \.options.goldens, "--filter": \.options.filter, "--variant": \.options.variant,
            "--device": \.options.render.device, "--report": \.report, "--junit": \.resultFiles.junit,
            "--json": \.resultFiles.json, "--cache": \.cache.cache, "--remote-cache": \.cache.remoteCache,
            "--summary": \.summary,
        ]
    }
    static var numbers: [String: WritableKeyPath<Verify, Double?>] {
        [
            "--timeout": \.options.timeout, "--scale": \.options.render.scale, "--fps": \.options.render.fps,
            "--remote-cache-timeout": \.cache.remoteCacheTimeout, "--cache-audit": \.cache.cacheAudit,
        ]
    }
}
