import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// A shared store over the Bazel remote cache HTTP protocol (docs/cache.md): the key maps to the
/// entry through an action result, `PUT /ac/<key>`, an `ActionResult` protocol buffer with one
/// output file, `layoutsnap-result.json`, naming the digest of the entry's bytes and carrying
/// them inline (`OutputFile.contents`, as a server inlines small outputs), so that a hit is one
/// round trip; the bytes are also a blob in the content-addressed store, `PUT /cas/<sha256 of
/// the bytes>`, when they are too large to go inline or the server does not keep them (`send`),
/// and an action result without them (a server that drops them) is followed to the blob. So any
/// server that speaks the protocol holds it: bazel-remote (which checks action results),
/// BuildBuddy, nginx with WebDAV. Bytes that do not hash to their digest are refused; the first network failure
/// makes every later lookup a miss without asking (one warning, never a failed run); a server
/// that refuses an upload stops uploads.
public final class RemoteResultStore: ResultStore {
    public typealias Upload = CacheUpload

    static let outputPath = "layoutsnap-result.json"
    /// The largest entry carried inline in its action result: entries are a few kilobytes, and
    /// the action result, the entry twice over, stays well below nginx's default
    /// `client_max_body_size` (1 MB) and gRPC's 4 MB messages.
    static let maxInlineBytes = 256 << 10
    let client: HTTPClient
    let upload: Upload
    private let state = LockedValue(State())
    /// Uploads go on threads of their own, up to `concurrentUploads` (each on a connection of
    /// its own), taking them in order: a worker that rendered a fixture goes on to the next at
    /// once, and a server some milliseconds away costs a round trip for every few entries, not
    /// one an entry in turn (10 ms away, a cold run's uploads one at a time outlasted its
    /// rendering). Threads, not a concurrent dispatch queue: on Linux its pool is as wide as the
    /// cores, two here. A thread waits half a second for the next upload before it ends
    /// (`UploadQueue.idleMilliseconds`).
    private let queued = UploadQueue()
    static let concurrentUploads = 4
    private let pending = DispatchGroup()
    /// Whether the server gives back the bytes an action result carries inline (`send`): nil
    /// until the run's first inline upload is read back; uploads made meanwhile wait for it.
    private let inlineKept = Learnt<Bool>()

    private struct State {
        var down = false
        var uploadsStopped = false
        var problems: [String] = []
        var uploads = 0
    }

    /// `url`: http://HOST[:PORT][/PATH]; `headers`: `Name: value` each (auth).
    public init(
        url: String, headers: [String] = [], upload: Upload = .always, timeoutMilliseconds: Int32 = 5000
    ) throws(RunnerError) {
        let endpoint: HTTPClient.Endpoint
        switch HTTPClient.Endpoint.parse(url) {
        case .success(let e): endpoint = e
        case .failure(let error): throw RunnerError.usage(error.message)
        }
        var parsed: [(String, String)] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex,
                !header.contains("\r"), !header.contains("\n")
            else {
                throw RunnerError.usage("--remote-cache-header \"\(header)\": expected \"Name: value\"")
            }
            parsed.append(
                (
                    String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                ))
        }
        client = HTTPClient(
            endpoint: endpoint, headers: parsed, timeout: timeoutMilliseconds, maxBody: Limits.maxCacheEntryBytes)
        self.upload = upload
    }

    public var problems: [String] { state.withLock { $0.problems } }
    public var uploads: Int { state.withLock { $0.uploads } }

    private func fail(_ problem: String, down: Bool = false, stopUploads: Bool = false) {
        state.withLock {
            if down && !$0.down {
                $0.down = true
                $0.problems.append(
                    "remote cache \(client.endpoint.hostHeader): \(problem); every later lookup is a miss for this run")
            } else if stopUploads && !$0.uploadsStopped {
                $0.uploadsStopped = true
                $0.problems.append("remote cache \(client.endpoint.hostHeader): \(problem); uploads stop for this run")
            } else if !down && !stopUploads && $0.problems.count < 20 {
                $0.problems.append("remote cache \(client.endpoint.hostHeader): \(problem)")
            }
        }
    }

    public func get(_ key: ResultKey) -> [UInt8]? {
        guard !state.withLock({ $0.down }) else { return nil }
        do throws(HTTPClient.Failure) {
            let ac: HTTPClient.Response
            if let answered = ahead.take(key.hex, waitingAtMost: Int(client.timeout) * 2) {
                ac = answered
            } else {
                // Asked ahead and given up on: the server may be down by now.
                guard !state.withLock({ $0.down }) else { return nil }
                ac = try client.send("GET", "/ac/\(key.hex)")
            }
            guard ac.status == 200 else {
                if ac.status != 404 { fail("GET /ac/ answered \(ac.status)", down: true) }
                return nil
            }
            guard let digest = ActionResult.output(ac.body, path: Self.outputPath) else {
                fail("the action result of \(key.hex.prefix(12))… is not one layoutsnap wrote; it is a miss")
                return nil
            }
            // The entry's bytes, inline or from the blob, are the ones the digest names.
            func named(_ bytes: [UInt8]) -> Bool { bytes.count == digest.size && SHA256.hex(of: bytes) == digest.hash }
            if let inline = digest.contents {
                if named(inline) { return inline }
                // The blob the digest names is checked on its own.
                fail(
                    "the action result of \(key.hex.prefix(12))… carries bytes that do not hash to its digest (truncated or tampered); they were left for the blob it names"
                )
            }
            let cas = try client.send("GET", "/cas/\(digest.hash)")
            guard cas.status == 200 else {
                if cas.status != 404 { fail("GET /cas/ answered \(cas.status)", down: true) }
                return nil
            }
            guard named(cas.body) else {
                fail(
                    "the blob \(digest.hash.prefix(12))… does not hash to its name (truncated or tampered); it is a miss"
                )
                return nil
            }
            return cas.body
        } catch {
            fail(error.description, down: true)
            return nil
        }
    }

    /// The action results of `keys` asked for now, ahead of their lookups, on a thread of their
    /// own: written many at a time on one connection (`HTTPClient.pipeline`), so that a warm run's
    /// lookups cost a round trip for each batch instead of one each (a server across a network
    /// is some milliseconds away; a suite is thousands of lookups). `get` takes the answer when
    /// it has come, and asks itself for a key whose answer did not (a server that closes
    /// pipelined connections early: asked one at a time, as without). The answer is read as
    /// one to `get`'s own request: a hit is still the entry its key names.
    public func prefetch(_ keys: [ResultKey]) {
        var seen = Set<String>()
        let hexes = keys.map(\.hex).filter { seen.insert($0).inserted }
        guard !hexes.isEmpty, !state.withLock({ $0.down }) else { return }
        ahead.expect(hexes)
        Thread.detachNewThread { [self] in
            var rest = hexes[...]
            // Whatever happens, no lookup waits for an answer that will not come.
            defer { ahead.release(rest) }
            while !rest.isEmpty, !state.withLock({ $0.down }) {
                let (answers, failure) = client.pipeline(rest.prefix(Self.pipelined).map { "/ac/\($0)" }[...])
                for (hex, answer) in zip(rest, answers) { ahead.answer(hex, answer) }
                rest = rest.dropFirst(answers.count)
                // Answers are held until their lookups take them: past a bound, the asking waits
                // for the lookups to catch up, and if they do not, the rest ask for themselves.
                guard ahead.waitForRoom(below: Self.maxHeldBytes, milliseconds: Int(client.timeout) * 2) else { return }
                guard let failure else { continue }
                // A server that cannot be reached or stops answering is down for the run, as
                // at a lookup. One that closed the connection after a few answers (a limit on
                // requests a connection) is asked for the rest on a new one; after one answer
                // or none (no keep-alive, or no pipelining), each lookup asks for itself, on
                // its worker's connection, as without asking ahead.
                if failure.noAnswer { fail(failure.description, down: true) }
                if failure.noAnswer || answers.count <= 1 { return }
            }
        }
    }

    /// The most action results asked for in one pipelined write (fewer when the requests'
    /// headers are long: `HTTPClient.maxPipelinedBytes`).
    static let pipelined = 128

    /// The most bytes of answers held for lookups that have not taken them yet: the entries of
    /// some 10,000 fixtures (a hostile server's answers, each up to a cache entry's limit,
    /// never more).
    static let maxHeldBytes = 32 << 20

    private let ahead = Ahead()

    /// The answer asked ahead for `key`, if any, is not used: the next `get` asks anew.
    func dropAhead(_ key: ResultKey) { _ = ahead.take(key.hex, waitingAtMost: Int(client.timeout) * 2) }

    public func put(_ key: ResultKey, _ bytes: [UInt8]) {
        guard upload == .always, !state.withLock({ $0.down || $0.uploadsStopped }) else { return }
        pending.enter()
        if queued.add(key, bytes, threadsAtMost: Self.concurrentUploads) {
            Thread.detachNewThread { [self] in uploadWhileWaiting() }
        }
    }

    /// Sends the waiting uploads, one at a time, until none has come for a while.
    private func uploadWhileWaiting() {
        while let (key, bytes) = queued.next() {
            send(key, bytes)
            pending.leave()
        }
    }

    /// Waits for the queued uploads, at most a few timeouts: a slow server does not hold the
    /// run, and what is left is dropped (the next run uploads it again).
    public func finish() {
        if pending.wait(timeout: .now() + .milliseconds(Int(client.timeout) * 3)) == .timedOut {
            fail("uploads still waiting at the end of the run were dropped", stopUploads: true)
        }
    }

    /// Puts one entry: its action result, carrying its bytes inline when they fit, and its blob
    /// when they do not, or when the server does not keep them. Which is learnt from the run's
    /// first inline upload, read back once: nginx and bazel-remote keep them (and bazel-remote
    /// asks for no blob behind an output carried inline). The blobs were half of a cold run's
    /// requests, and a server on the same machine does that work on the cores that render. A
    /// server that drops the bytes, gives back others, or answers the reading back with an error
    /// gets every blob, which a reader that follows an action result to its blob needs; the
    /// uploads made while the first is being read back wait for the answer.
    private func send(_ key: ResultKey, _ bytes: [UInt8]) {
        guard !state.withLock({ $0.down || $0.uploadsStopped }) else { return }
        let hash = SHA256.hex(of: bytes)
        let inline = bytes.count <= Self.maxInlineBytes
        do throws(HTTPClient.Failure) {
            // nil: this upload is the one read back.
            let keeps = inline ? inlineKept.valueOrClaim() : false
            // Whatever happens to the one read back, the uploads waiting for it go on.
            defer { if inline && keeps == nil { inlineKept.settle(false) } }
            // The one read back may have found the server down meanwhile.
            guard !state.withLock({ $0.down || $0.uploadsStopped }) else { return }
            if keeps == false {
                guard try put("cas", hash, bytes) else { return }
            }
            let result = ActionResult.encode(
                path: Self.outputPath, hash: hash, size: bytes.count, contents: inline ? bytes : nil)
            guard try put("ac", key.hex, result) else { return }
            if keeps == nil {
                // An error answer, or a connection cut, is "not kept"; no answer in time is a
                // server down, as at any request.
                let back: HTTPClient.Response?
                do {
                    back = try client.send("GET", "/ac/\(key.hex)")
                } catch  where !error.noAnswer {
                    back = nil
                }
                let kept =
                    back?.status == 200
                    && ActionResult.output(back?.body ?? [], path: Self.outputPath)?.contents == bytes
                inlineKept.settle(kept)
                if !kept {
                    guard try put("cas", hash, bytes) else { return }
                }
            }
            state.withLock { $0.uploads += 1 }
        } catch {
            fail(error.description, down: true)
        }
    }

    /// `PUT /<kind>/<name>`; false, with uploads stopped, when the server refuses it.
    private func put(_ kind: String, _ name: String, _ body: [UInt8]) throws(HTTPClient.Failure) -> Bool {
        let answer = try client.send("PUT", "/\(kind)/\(name)", body: body)
        guard (200..<300).contains(answer.status) else {
            fail("PUT /\(kind)/ answered \(answer.status)", stopUploads: true)
            return false
        }
        return true
    }
}

/// The uploads waiting for a thread of `RemoteResultStore`'s, in order, and those threads.
final class UploadQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [(key: ResultKey, bytes: [UInt8])] = []
    /// The first of `waiting` not taken yet.
    private var first = 0
    private var threads = 0
    /// Threads waiting in `next` for an upload.
    private var idle = 0

    /// How long a thread waits for the next upload before it ends: longer than the gap between
    /// a cold run's uploads (a fixture's rendering, milliseconds), so that a run starts a thread
    /// or four, not one an upload. Ending at each gap started 71 upload threads in a cold run of
    /// the bundled suite, each made and unmapped while the workers rendered; a thread still
    /// waiting when the process ends costs nothing.
    let idleMilliseconds: Int

    init(idleMilliseconds: Int = 500) { self.idleMilliseconds = idleMilliseconds }

    /// Queues an upload: true when the caller is to start a thread for it (the uploads not
    /// taken yet outnumber the idle threads, and fewer than `threadsAtMost` run).
    func add(_ key: ResultKey, _ bytes: [UInt8], threadsAtMost: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        waiting.append((key, bytes))
        if idle > 0 { condition.signal() }
        // An idle thread counts as idle until it wakes: one signalled for the upload before is
        // not free for this one.
        guard waiting.count - first > idle else { return false }
        guard threads < threadsAtMost else { return false }
        threads += 1
        return true
    }

    /// Threads waiting in `next` now (for tests).
    var idleThreads: Int {
        condition.lock()
        defer { condition.unlock() }
        return idle
    }

    /// The next upload, waiting for one up to `idleMilliseconds`; nil when none came: the
    /// calling thread ends.
    func next() -> (ResultKey, [UInt8])? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: Double(idleMilliseconds) / 1000)
        while first == waiting.count {
            idle += 1
            let signalled = condition.wait(until: deadline)
            idle -= 1
            if !signalled && first == waiting.count {
                threads -= 1
                return nil
            }
        }
        let taken = waiting[first]
        waiting[first].bytes = []
        first += 1
        // Taken ones go once they are half of the list.
        if first * 2 >= waiting.count {
            waiting.removeFirst(first)
            first = 0
        }
        return (taken.key, taken.bytes)
    }
}

/// A value learnt once by the first caller that claims it, which the others wait for.
final class Learnt<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    private var claimed = false

    /// The value once learnt, waiting while another caller learns it; nil when it was not
    /// claimed yet: the caller learns it now and must `settle` it.
    func valueOrClaim() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while value == nil && claimed { condition.wait() }
        if let value { return value }
        claimed = true
        return nil
    }

    /// Learnt: the first value settled stands.
    func settle(_ learnt: Value) {
        condition.lock()
        if value == nil { value = learnt }
        condition.broadcast()
        condition.unlock()
    }
}

/// Answers asked for ahead of their lookups (`RemoteResultStore.prefetch`), by key: each taken
/// once, by the first lookup of its key, which waits for it while it is on its way.
final class Ahead: @unchecked Sendable {
    private let condition = NSCondition()
    /// Asked for, not answered yet.
    private var coming: Set<String> = []
    private var answers: [String: HTTPClient.Response] = [:]
    private var held = 0

    /// Whether the answers not taken yet are fewer than `bytes`, waiting `milliseconds` at most
    /// for lookups to take some.
    func waitForRoom(below bytes: Int, milliseconds: Int) -> Bool {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while held >= bytes {
            guard condition.wait(until: deadline) else { return held < bytes }
        }
        return true
    }

    func expect(_ keys: [String]) {
        condition.lock()
        coming.formUnion(keys)
        condition.unlock()
    }

    func answer(_ key: String, _ response: HTTPClient.Response) {
        condition.lock()
        if coming.remove(key) != nil {
            answers[key] = response
            held += response.body.count
        }
        condition.broadcast()
        condition.unlock()
    }

    /// `keys` will not be answered ahead: their lookups ask for themselves.
    func release(_ keys: some Sequence<String>) {
        condition.lock()
        coming.subtract(keys)
        condition.broadcast()
        condition.unlock()
    }

    /// The answer for `key` once it has come; nil when it was not asked for ahead, was taken
    /// already, or will not come. Waits `milliseconds` at most: every step of the asking is
    /// bounded by the timeout, and this bounds the waiting whatever happens there.
    func take(_ key: String, waitingAtMost milliseconds: Int) -> HTTPClient.Response? {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while coming.contains(key) {
            guard condition.wait(until: deadline) else {
                // Given up on: an answer that comes later is not kept.
                coming.remove(key)
                return nil
            }
        }
        guard let answer = answers.removeValue(forKey: key) else { return nil }
        held -= answer.body.count
        condition.broadcast()
        return answer
    }
}

/// The part of `build.bazel.remote.execution.v2.ActionResult` a result needs: `output_files`
/// (field 2) of `OutputFile { path = 1; Digest digest = 2; bytes contents = 5 }`, `Digest {
/// hash = 1; size_bytes = 2 }`, in protocol buffer wire format.
enum ActionResult {
    static func encode(path: String, hash: String, size: Int, contents: [UInt8]? = nil) -> [UInt8] {
        var digest: [UInt8] = []
        field(1, Array(hash.utf8), into: &digest)
        digest.append(0x10)
        varint(UInt64(size), into: &digest)
        var file: [UInt8] = []
        field(1, Array(path.utf8), into: &file)
        field(2, digest, into: &file)
        if let contents { field(5, contents, into: &file) }
        var result: [UInt8] = []
        field(2, file, into: &result)
        return result
    }

    /// The output file at `path`: its digest, and its bytes when they are inline; nil when
    /// `bytes` is not such a message.
    static func output(_ bytes: [UInt8], path wanted: String) -> (hash: String, size: Int, contents: [UInt8]?)? {
        guard let fields = parse(bytes[...]) else { return nil }
        for case (2, .bytes(let file)) in fields {
            guard let fileFields = parse(file) else { return nil }
            var path: String?
            var digest: ArraySlice<UInt8>?
            var contents: [UInt8]?
            for f in fileFields {
                if case (1, .bytes(let p)) = f { path = String(decoding: p, as: UTF8.self) }
                if case (2, .bytes(let d)) = f { digest = d }
                if case (5, .bytes(let c)) = f { contents = Array(c) }
            }
            guard path == wanted, let digest, let digestFields = parse(digest) else { continue }
            var hash: String?
            var size = 0
            for f in digestFields {
                if case (1, .bytes(let h)) = f { hash = String(decoding: h, as: UTF8.self) }
                if case (2, .varint(let s)) = f, s <= UInt64(Int.max) { size = Int(s) }
            }
            guard let hash, hash.utf8.count == 64,
                hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { return nil }
            return (hash, size, contents)
        }
        return nil
    }

    enum Value {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed
    }

    /// The message's fields, nil when it is not wire format.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [(Int, Value)]? {
        var out: [(Int, Value)] = []
        var i = bytes.startIndex
        func readVarint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.endIndex, shift < 64 {
                let b = bytes[i]
                i += 1
                value |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while i < bytes.endIndex {
            guard let tag = readVarint(), tag >> 3 > 0, tag >> 3 < 1 << 29 else { return nil }
            let number = Int(tag >> 3)
            switch tag & 7 {
            case 0:
                guard let v = readVarint() else { return nil }
                out.append((number, .varint(v)))
            case 1, 5:
                let width = tag & 7 == 1 ? 8 : 4
                guard bytes.endIndex - i >= width else { return nil }
                i += width
                out.append((number, .fixed))
            case 2:
                guard let length = readVarint(), length <= UInt64(bytes.endIndex - i) else { return nil }
                out.append((number, .bytes(bytes[i..<i + Int(length)])))
                i += Int(length)
            default:
                return nil
            }
        }
        return out
    }

    private static func field(_ number: Int, _ payload: [UInt8], into out: inout [UInt8]) {
        varint(UInt64(number << 3 | 2), into: &out)
        varint(UInt64(payload.count), into: &out)
        out += payload
    }

    private static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
