import Foundation
import LayoutSnapRunner
import LayoutSnapCore

/// `layoutsnap-bench`'s variants figure: verify of the bundled fixtures' variants against verify
/// of the same frames written out as standalone fixtures (the variant's device, text size,
/// appearance and direction as the fixture's own fields). Both record into a temporary goldens folder first;
/// then each is verified, unchanged, one job, fastest of `repeats`. Variants cost nothing per
/// frame when the two rates agree.
public struct VariantBenchmark {
    public struct Figures: Sendable {
        public var frames = 0
        public var variantSeconds = 0.0
        public var standaloneSeconds = 0.0
    }

    public let refs: [FixtureRef]
    public let repeats: Int

    public init(refs: [FixtureRef], repeats: Int) {
        self.refs = refs
        self.repeats = max(1, repeats)
    }

    /// nil when none of the fixtures declares variants.
    public func run() throws(RunnerError) -> Figures? {
        let variants = refs.filter { $0.variant != nil }
        guard !variants.isEmpty else { return nil }
        let temp = NSTemporaryDirectory() + "layoutsnap-bench-variants-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: temp) }
        // The files with variants, and each variant as a standalone fixture.
        var files = Set<String>()
        for ref in variants where !files.contains(ref.path) {
            files.insert(ref.path)
            try write(json(ref.path, variant: nil), to: "\(temp)/F/v/\(ref.fileID).json")
        }
        // Numbered: a variant's name may hold characters a file's id may not.
        for (i, ref) in variants.enumerated() {
            try write(json(ref.path, variant: ref.variant), to: "\(temp)/F/s/\(ref.fileID)-v\(i).json")
        }
        var settings = BatchSettings(paths: [temp + "/F"], goldens: temp + "/G", jobs: 2)
        settings.defaultRoot = temp + "/F"
        _ = try RecordRun(settings: settings, allowCI: true, version: "bench").run()
        let all = try FixtureDiscovery.discover(paths: [temp + "/F"], defaultRoot: temp + "/F")
        let asVariants = all.filter { $0.id.hasPrefix("v/") && $0.variant != nil }
        let standalone = all.filter { $0.id.hasPrefix("s/") }
        let manifest = try GoldenManifest.load(path: GoldenStore(temp + "/G").manifestPath)
        let handler = VerifyHandler(goldens: temp + "/G", manifest: manifest, reportDirectory: temp + "/R")
        var f = Figures()
        func verify(_ refs: [FixtureRef]) throws(RunnerError) -> Double {
            var fastest = Double.infinity
            for _ in 0..<repeats {
                let start = DispatchTime.now()
                let results = try BatchRunner(jobs: 1).run(refs, handler: handler)
                fastest = min(fastest, Stopwatch.seconds(since: start))
                let frames = results.reduce(0) { $0 + $1.frames.count }
                if let bad = results.first(where: { $0.error != nil || $0.frames.contains { $0.status != .passed } }) {
                    let why =
                        bad.error?.description ?? bad.frames.first { $0.status != .passed }.map {
                            "\($0.goldenKey): \($0.status.rawValue) \($0.detail ?? "")"
                        } ?? ""
                    throw RunnerError.environment(
                        "bench: \(bad.ref.id) did not verify unchanged against its own goldens: \(why)")
                }
                f.frames = frames
            }
            return fastest
        }
        f.variantSeconds = try verify(asVariants)
        let variantFrames = f.frames
        f.standaloneSeconds = try verify(standalone)
        guard f.frames == variantFrames else {
            throw RunnerError.environment(
                "bench: the standalone copies have \(f.frames) frames, the variants \(variantFrames)")
        }
        return f
    }

    /// The fixture's JSON, with image paths made absolute; for a variant, without `variants` and
    /// with the variant's values as its own fields (a device replaces the canvas fields).
    func json(_ path: String, variant: FixtureVariant?) throws(RunnerError) -> Data {
        guard let data = FileManager.default.contents(atPath: path),
            var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else {
            throw RunnerError.environment("bench: \(path) cannot be read")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if var image = object["image"] as? [String: Any], let p = image["path"] as? String, !p.hasPrefix("/") {
            image["path"] = folder + "/" + p
            object["image"] = image
        }
        if let variant {
            object["variants"] = nil
            if let device = variant.device {
                for key in ["width", "height", "scale"] { object[key] = nil }
                object["device"] = device.name
            }
            if let size = variant.textSize { object["textSize"] = size.rawValue }
            if let appearance = variant.appearance { object["appearance"] = appearance.rawValue }
            if let direction = variant.direction { object["direction"] = direction.rawValue }
        }
        guard let out = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw RunnerError.environment("bench: \(path) cannot be written out")
        }
        return out
    }

    func write(_ data: Data, to path: String) throws(RunnerError) {
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw RunnerError.write("bench: cannot write \(path)")
        }
    }
}
