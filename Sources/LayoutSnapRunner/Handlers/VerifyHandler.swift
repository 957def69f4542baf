import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapReport
import LayoutSnapSystem

/// Compares frames with goldens. Fast path: the pixel hash of the rendered frame equals the
/// manifest's and the golden file's bytes still hash to the manifest's file hash, so no PNG is
/// decoded. Otherwise the golden is decoded and compared word by word; a frame that is not
/// identical gets a perceptual diff (docs/goldens.md "Tolerance") and is failed, or passed as "similar" when the
/// fixture's tolerance allows it. Never writes goldens: actual frames, diff images and the
/// current layout of a failing fixture go to the report folder.
public struct VerifyHandler: FrameHandler {
    public let goldens: String
    public let manifest: GoldenManifest?
    public let reportDirectory: String
    /// Golden layouts read for attribution, by fixture id: read at a fixture's first failing
    /// frame (a passing fixture never reads one) and dropped when it finishes.
    private let goldenLayouts = LockedValue<[String: LayoutSnapshot?]>([:])
    /// The goldens folder with its links resolved, once: each frame's golden must lie inside.
    private let resolvedGoldens: String?
    /// The goldens' folders found real (no links) so far: a golden in them needs no resolving.
    private let realFolders: GoldenStore.RealFolders
    /// Where a cache hit finds the file hashes of goldens it checked before (the result cache's
    /// `goldenHashes`); without, each golden is read and hashed.
    public var goldenHashes: FileHashMemo?

    public init(goldens: String, manifest: GoldenManifest?, reportDirectory: String) {
        self.resolvedGoldens = try? SystemCall.resolvedPath(goldens)
        self.realFolders = GoldenStore.RealFolders(goldens: goldens)
        self.goldens = goldens
        self.manifest = manifest
        self.reportDirectory = reportDirectory
    }

    /// The fixture's golden layout.json, nil when there is none or it cannot be read.
    private func goldenLayout(_ fixture: Fixture) -> LayoutSnapshot? {
        if let cached = goldenLayouts.withLock({ $0[fixture.id] }) { return cached }
        let data = FileManager.default.contents(
            atPath: GoldenStore(goldens).path(GoldenStore.layoutKey(fixture: fixture.id)))
        let snapshot = data.flatMap { LayoutSnapshot.parse([UInt8]($0)) }
        goldenLayouts.withLock { $0[fixture.id] = .some(snapshot) }
        return snapshot
    }

    /// The golden elements of a frame, nil without a golden layout that has it.
    private func goldenElements(_ fixture: Fixture, state: String, index: Int) -> Attribution.Elements? {
        goldenLayout(fixture)?.frames[state]?[index]
    }

    public func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
        let key = GoldenStore.frameKey(fixture: fixture.id, state: state, index: frame.index)
        var result = FrameResult(state: state, index: frame.index, status: .passed, goldenKey: key)
        let path = GoldenStore(goldens).path(key)
        if let outside = GoldenStore.outsideTarget(path, resolvedGoldens: resolvedGoldens, folders: realFolders) {
            result.status = .unreadable
            result.detail =
                "unreadable golden \(key): a symbolic link to \(outside), outside \(goldens)/ (goldens are files in the goldens folder)"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            // Something is there but cannot be read (a folder, no permission): bad input, not a
            // golden to record.
            let exists = FileManager.default.fileExists(atPath: path)
            result.status = exists ? .unreadable : .missing
            result.detail = exists ? "unreadable golden \(key): cannot be read" : "no golden"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        // The fast path hashes the file where it lies; its bytes are copied only to be decoded.
        // (A record killed while replacing goldens leaves the old entry beside the new one.)
        let fileHash = data.withUnsafeBytes({ PixelHash.hex(PixelHash.ofBytes($0)) })
        // Kept on the fast path too: a frame that passes here may still be paired by motion with
        // another golden frame, and an approval of it checks its own golden against this hash.
        result.goldenHash = fileHash
        if let manifest, let entry = manifest.entry(key, fileHash: fileHash), entry.pixels == PixelHash.hex(pixels.hash)
        {
            return result
        }
        // Data.withUnsafeBytes only rethrows untyped errors: carry the typed one out as a Result.
        let decoded = data.withUnsafeBytes { buffer in
            Result { () throws(PNGError) in try PNGDecoder.decode(buffer, maxPixels: Limits.maxGoldenPixels) }
        }
        let golden: PixelImage
        switch decoded {
        case .success(let image): golden = image
        case .failure(let error):
            result.status = .unreadable
            result.detail = "unreadable golden \(key): \(error.description)"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            return result
        }
        guard golden.width == pixels.width, golden.height == pixels.height else {
            result.status = .failed
            result.detail =
                "size differs: golden \(golden.width) x \(golden.height), actual \(pixels.width) x \(pixels.height)"
            result.actualPath = writePNG(pixels, to: "actual/" + key)
            if let old = goldenElements(fixture, state: state, index: frame.index) {
                result.attribution = Attribution.size(
                    golden: old, actual: LayoutSnapshot.elements(frame),
                    goldenSize: (golden.width, golden.height), actualSize: (pixels.width, pixels.height))
            }
            return result
        }
        // The one comparison `layoutsnap diff` makes too: exact unless the fixture has a tolerance.
        var diffImage = [UInt32](repeating: 0, count: pixels.width * pixels.height)
        let comparison = golden.pixels.withUnsafeBufferPointer { expected in
            diffImage.withUnsafeMutableBufferPointer { out in
                FrameComparison.compare(
                    expected: expected, actual: pixels.pixels, width: pixels.width, height: pixels.height,
                    tolerance: fixture.tolerance, diffImage: out)
            }
        }
        guard let diff = comparison.diff else { return result }
        result.comparison = comparison.comparison
        result.status = comparison.comparison.isDifferent ? .failed : .similar
        result.detail = comparison.message
        if result.status == .failed, let old = goldenElements(fixture, state: state, index: frame.index) {
            result.attribution = golden.pixels.withUnsafeBufferPointer { expected in
                diffImage.withUnsafeMutableBufferPointer { out in
                    Attribution.attribute(
                        golden: old, actual: LayoutSnapshot.elements(frame),
                        pixels: Attribution.Pixels(
                            expected: expected, actual: pixels.pixels, width: pixels.width,
                            height: pixels.height, scale: fixture.canvas.scale,
                            regions: Attribution.Pixels.regions(of: diff)),
                        diffImage: out)
                }
            }
        }
        result.actualPath = writePNG(pixels, to: "actual/" + key)
        result.diffPath = diffImage.withUnsafeBufferPointer { buffer in
            writePNG(FramePixels(width: pixels.width, height: pixels.height, pixels: buffer), to: "diff/" + key)
        }
        return result
    }

    /// A cache hit passes only as the fast path would pass each frame: its golden is a file in
    /// the goldens folder whose bytes hash to the manifest's entry, and the entry's pixel hash is
    /// the cached one. No state may have had more golden frames than it now has (that fails).
    /// Anything else: nil, and the fixture is rendered.
    public func cachedFrames(id: String, _ value: CachedResult) -> [FrameResult]? {
        guard let manifest else { return nil }
        let store = GoldenStore(goldens)
        var frames: [FrameResult] = []
        frames.reserveCapacity(value.frames.count)
        var counts: [String: Int] = [:]
        // A hit reads every golden it vouches for: the state's folder is checked once (real
        // folders, or else resolved), and a golden that is no symbolic link is then inside the
        // goldens when its folder is; a link is resolved on its own, as a rendered frame's is.
        var folderInside: [String: Bool] = [:]
        var buffer: [UInt8] = []
        for frame in value.frames {
            let key = GoldenStore.frameKey(fixture: id, state: frame.state, index: frame.index)
            let path = store.path(key)
            // By bytes: a Character search from the end walks grapheme breaks.
            let folder = String(path[..<(path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.startIndex)])
            let inside =
                folderInside[folder]
                ?? {
                    let answer =
                        resolvedGoldens.map { root in
                            realFolders.contain(folder)
                                || (try? SystemCall.resolvedPath(folder)).map { $0 == root || $0.hasPrefix(root + "/") }
                                    ?? false
                        } ?? true
                    folderInside[folder] = answer
                    return answer
                }()
            guard inside else { return nil }
            let read = { (path: String) throws(SystemError) in
                try SystemCall.withReadFile(path, buffer: &buffer) { PixelHash.hex(PixelHash.ofBytes($0)) }
            }
            var fileHash = try? goldenHashes.map { memo throws(SystemError) in try memo.hash(path, read) } ?? read(path)
            if fileHash == nil {
                guard GoldenStore.outsideTarget(path, resolvedGoldens: resolvedGoldens) == nil else { return nil }
                fileHash = try? SystemCall.withMappedFile(path, { PixelHash.hex(PixelHash.ofBytes($0)) })
            }
            guard let fileHash else { return nil }
            guard let entry = manifest.entry(key, fileHash: fileHash), entry.pixels == frame.pixels else { return nil }
            var result = FrameResult(state: frame.state, index: frame.index, status: .passed, goldenKey: key)
            result.time = frame.time
            result.progress = frame.progress
            result.lints = frame.lints
            result.goldenHash = fileHash
            result.pixelHash = UInt64(frame.pixels, radix: 16)
            frames.append(result)
            counts[frame.state, default: 0] += 1
        }
        for (state, count) in counts
        where manifest.frames[GoldenStore.frameKey(fixture: id, state: state, index: count)] != nil {
            return nil
        }
        return frames
    }

    /// For a fixture with any frame that is not a plain pass, or a state whose golden has more
    /// frames than it now renders: its current layout.json (for `accept`), which elements moved
    /// against the golden layout.json in each such frame, and each changed state's motion. A
    /// state whose timing changed has its frames compared again, each with the golden frame at
    /// the same point of the motion (`MotionReport.pairs`), and its golden frames that have no
    /// counterpart listed as removed.
    public func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult])
        throws(RunnerError) -> FixtureNote?
    {
        let cached = goldenLayouts.withLock { $0.removeValue(forKey: fixture.id) }
        // A state that ends earlier and is otherwise the same: its first missing frame still has
        // a golden. One lookup per state.
        let shortened = Set(
            layout.states.filter { state in
                let key = GoldenStore.frameKey(fixture: fixture.id, state: state.name, index: state.frames.count)
                return manifest.map { $0.frames[key] != nil }
                    ?? FileManager.default.fileExists(atPath: GoldenStore(goldens).path(key))
            }.map(\.name))
        guard !shortened.isEmpty || frames.contains(where: { $0.status != .passed }) else { return nil }
        try? AtomicFile.write(
            LayoutJSON.encode(layout), to: reportDirectory + "/actual/" + GoldenStore.layoutKey(fixture: fixture.id))
        let goldenPath = GoldenStore(goldens).path(GoldenStore.layoutKey(fixture: fixture.id))
        guard
            let golden = cached
                ?? FileManager.default.contents(atPath: goldenPath).flatMap({ LayoutSnapshot.parse([UInt8]($0)) })
        else {
            // No golden layout to compare motion with: a shortened state still fails.
            for state in layout.states where shortened.contains(state.name) {
                removeTrailing(fixture, state: state, frames: &frames)
            }
            return nil
        }
        let now = LayoutSnapshot(layout)
        for i in frames.indices where frames[i].status != .passed {
            frames[i].layoutChanges = now.changes(from: golden, state: frames[i].state, frame: frames[i].index)
        }
        // Motion, only for the states that changed: what an animation did differently, from the
        // two layouts' tracks (no pixels).
        let changedStates = Set(frames.filter { $0.status != .passed }.map(\.state)).union(shortened)
        var motion: [String: MotionReport] = [:]
        for state in layout.states where changedStates.contains(state.name) {
            guard let expected = golden.motion[state.name], let actual = now.motion[state.name],
                let report = MotionAnalysis.compare(
                    expected: expected, actual: actual, timingFrames: fixture.timingFrames)
            else {
                if shortened.contains(state.name) { removeTrailing(fixture, state: state, frames: &frames) }
                continue
            }
            motion[state.name] = report
            if report.repaired {
                pairByMotion(
                    fixture, state: state.name, report: report, goldenTimes: expected.times, layouts: (golden, now),
                    frames: &frames)
                for i in frames.indices where frames[i].state == state.name {
                    frames[i].layoutChanges =
                        frames[i].status == .passed || frames[i].pairing != nil
                        ? []
                        : now.changes(
                            from: golden, state: state.name, frame: frames[i].index, goldenFrame: frames[i].pairedWith)
                }
            }
        }
        return motion.isEmpty ? nil : .motion(motion)
    }

    /// Compares each frame of `state` with its counterpart in `report.pairs` instead of the
    /// golden of the same index: a changed timing is then judged, and shown, frame against
    /// frame at the same point of the motion. A frame without a counterpart is new; a golden
    /// frame without one is added as removed. Both fail, or are similar when the fixture's timing
    /// tolerance covers the change. Every frame of the state keeps an actual image in the
    /// report, so `accept` can write the whole new motion.
    private func pairByMotion(
        _ fixture: Fixture, state: String, report: MotionReport, goldenTimes: [Double],
        layouts: (golden: LayoutSnapshot, now: LayoutSnapshot), frames: inout [FrameResult]
    ) {
        guard let first = frames.firstIndex(where: { $0.state == state }) else { return }
        let end = frames[first...].firstIndex(where: { $0.state != state }) ?? frames.endIndex
        let offCourse: FrameStatus = report.tolerated ? .similar : .failed
        let why = report.tolerated ? ", within the timing tolerance" : ""
        var removed: [FrameResult] = []
        for pair in report.pairs {
            switch (pair[0], pair[1]) {
            case (let j?, let i?) where j != i:
                guard let p = (first..<end).first(where: { frames[$0].index == i }) else { continue }
                compareAgain(
                    fixture, &frames[p], with: j,
                    elements: (layouts.golden.frames[state]?[j], layouts.now.frames[state]?[i]))
            case (nil, let i?):
                guard let p = (first..<end).first(where: { frames[$0].index == i }) else { continue }
                frames[p].pairing = .new
                frames[p].comparison = nil
                frames[p].diffPath = nil
                frames[p].attribution = nil
                // Without a usable golden of its own it stays missing or unreadable.
                if [.missing, .unreadable].contains(frames[p].status) {
                    frames[p].detail =
                        (frames[p].detail.map { $0 + "; " } ?? "")
                        + "new frame: the golden motion has no frame at this point"
                } else {
                    frames[p].status = offCourse
                    frames[p].detail = "new frame: the golden motion has no frame at this point" + why
                }
            case (let j?, nil):
                let key = GoldenStore.frameKey(fixture: fixture.id, state: state, index: j)
                var frame = FrameResult(
                    state: state, index: j, status: offCourse,
                    detail: "removed: the new motion has no frame at this point of the golden's" + why, goldenKey: key)
                frame.pairing = .removed
                frame.goldenHash = GoldenTransaction.fileHash(GoldenStore(goldens).path(key))
                frame.time = j < goldenTimes.count ? goldenTimes[j] : 0
                frame.progress =
                    j < goldenTimes.count && (goldenTimes.last ?? 0) > 0 ? goldenTimes[j] / goldenTimes.last! : 0
                removed.append(frame)
            default: continue
            }
        }
        // Every new frame has an actual image, for the views and for `accept` (a frame that passed
        // by index looks exactly like its golden).
        for p in first..<end where frames[p].actualPath == nil {
            let target = reportDirectory + "/actual/" + frames[p].goldenKey
            if let bytes = FileManager.default.contents(atPath: GoldenStore(goldens).path(frames[p].goldenKey)),
                (try? AtomicFile.write([UInt8](bytes), to: target)) != nil
            {
                frames[p].actualPath = target
            }
        }
        frames.insert(contentsOf: removed, at: end)
    }

    /// A state whose golden goes on past its new last frame, when its motion cannot be compared
    /// (no golden layout.json, or no such state in it): each golden frame past the end is removed,
    /// and fails.
    private func removeTrailing(_ fixture: Fixture, state: StateLayout, frames: inout [FrameResult]) {
        guard let end = frames.lastIndex(where: { $0.state == state.name }).map({ $0 + 1 }) else { return }
        var removed: [FrameResult] = []
        var j = state.frames.count
        while j < Limits.maxFramesPerFixture {
            let key = GoldenStore.frameKey(fixture: fixture.id, state: state.name, index: j)
            guard
                manifest.map({ $0.frames[key] != nil })
                    ?? FileManager.default.fileExists(atPath: GoldenStore(goldens).path(key))
            else { break }
            var frame = FrameResult(
                state: state.name, index: j, status: .failed,
                detail: "removed: the golden has this frame past the new last one", goldenKey: key)
            frame.pairing = .removed
            frame.goldenHash = GoldenTransaction.fileHash(GoldenStore(goldens).path(key))
            removed.append(frame)
            j += 1
        }
        frames.insert(contentsOf: removed, at: end)
    }

    /// Frame `frame` compared with golden frame `j` of its state, as `handle` compares it with its own.
    private func compareAgain(
        _ fixture: Fixture, _ frame: inout FrameResult, with j: Int,
        elements: (golden: Attribution.Elements?, now: Attribution.Elements?)
    ) {
        let key = GoldenStore.frameKey(goldenKey: frame.goldenKey, index: j)
        frame.pairedWith = j
        // The frame's pixels: its actual image, or, when it passed by index, its own golden's.
        let actualFile = frame.actualPath ?? GoldenStore(goldens).path(frame.goldenKey)
        guard let actualBytes = FileManager.default.contents(atPath: actualFile),
            let actual = try? PNGDecoder.decode([UInt8](actualBytes), maxPixels: Limits.maxGoldenPixels)
        else { return }
        if frame.actualPath == nil { frame.actualPath = writePNG(actual, to: "actual/" + frame.goldenKey) }
        frame.comparison = nil
        frame.diffPath = nil
        frame.attribution = nil
        // A frame without a usable golden of its own keeps that verdict (its golden must still be
        // written); the pairing only gives it something to be shown against.
        let kept: FrameStatus? = [.missing, .unreadable].contains(frame.status) ? frame.status : nil
        let keptDetail = kept == nil ? "" : frame.detail.map { $0 + "; " } ?? ""
        guard let goldenBytes = FileManager.default.contents(atPath: GoldenStore(goldens).path(key)) else {
            frame.status = kept ?? .missing
            frame.detail = keptDetail + "golden frame \(j), at the same point of the golden motion, is missing"
            return
        }
        guard let golden = try? PNGDecoder.decode([UInt8](goldenBytes), maxPixels: Limits.maxGoldenPixels) else {
            frame.status = .unreadable
            frame.detail = keptDetail + "unreadable golden \(key), the frame at the same point of the golden motion"
            return
        }
        guard golden.width == actual.width, golden.height == actual.height else {
            frame.status = kept ?? .failed
            frame.detail =
                keptDetail
                + "size differs from golden frame \(j): golden \(golden.width) x \(golden.height), actual \(actual.width) x \(actual.height)"
            return
        }
        var diffImage = [UInt32](repeating: 0, count: actual.width * actual.height)
        let comparison = golden.pixels.withUnsafeBufferPointer { expected in
            actual.pixels.withUnsafeBufferPointer { now in
                diffImage.withUnsafeMutableBufferPointer { out in
                    FrameComparison.compare(
                        expected: expected, actual: now, width: actual.width, height: actual.height,
                        tolerance: fixture.tolerance, diffImage: out)
                }
            }
        }
        guard let diff = comparison.diff else {
            frame.status = kept ?? .passed
            frame.detail = keptDetail + "identical to golden frame \(j), at the same point of the motion"
            return
        }
        frame.comparison = comparison.comparison
        frame.status = kept ?? (comparison.comparison.isDifferent ? .failed : .similar)
        if frame.status == .failed, let old = elements.golden, let new = elements.now {
            frame.attribution = golden.pixels.withUnsafeBufferPointer { expected in
                actual.pixels.withUnsafeBufferPointer { now in
                    diffImage.withUnsafeMutableBufferPointer { out in
                        Attribution.attribute(
                            golden: old, actual: new,
                            pixels: Attribution.Pixels(
                                expected: expected, actual: now, width: actual.width, height: actual.height,
                                scale: fixture.canvas.scale, regions: Attribution.Pixels.regions(of: diff)),
                            diffImage: out)
                    }
                }
            }
        }
        frame.detail =
            keptDetail + "against golden frame \(j), at the same point of the motion: "
            + (comparison.message ?? "differs")
        frame.diffPath = diffImage.withUnsafeBufferPointer { buffer in
            writePNG(
                FramePixels(width: actual.width, height: actual.height, pixels: buffer), to: "diff/" + frame.goldenKey)
        }
    }

    private func writePNG(_ image: PixelImage, to relative: String) -> String? {
        image.pixels.withUnsafeBufferPointer { buffer in
            writePNG(FramePixels(width: image.width, height: image.height, pixels: buffer), to: relative)
        }
    }

    /// Writes a frame into the report folder, returning its path (nil if it could not be written:
    /// the report is a help, not the verdict).
    private func writePNG(_ pixels: FramePixels, to relative: String) -> String? {
        let path = reportDirectory + "/" + relative
        let png = PNGEncoder.encode(
            pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        return (try? AtomicFile.write(png, to: path)) != nil ? path : nil
    }
}
