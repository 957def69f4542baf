import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapSystem

/// `layoutsnap review` (docs/review.md "Review"): the report folder served read-only on
/// 127.0.0.1, the review API beside it, every request held to the token, its Host and its
/// Origin. Approvals go through `GoldenAcceptance`, the transaction `accept` uses.
public final class ReviewServer: Sendable {
    /// The cookie the first page load sets, so the page's images load without the query.
    public static let cookieName = "layoutsnap-review"
    /// The header a POST must carry (a cookie alone could be a cross-site form's).
    public static let tokenHeader = LoopbackSite.tokenHeader
    /// The most a POST body may be.
    public static let maxBodyBytes = 1 << 20

    public let session: ReviewSession
    public let watching: Bool
    /// The report folder on 127.0.0.1, behind the token.
    private let site: LoopbackSite
    private let stopping = LockedValue(false)

    /// `port` 0 takes a free port.
    public init(acceptance: GoldenAcceptance, port: UInt16, watching: Bool) throws(RunnerError) {
        let results = try acceptance.load()
        let report = (acceptance.resultsPath as NSString).deletingLastPathComponent
        session = ReviewSession(acceptance: acceptance, results: results)
        self.watching = watching
        site = try LoopbackSite(
            folder: report, port: port, cookieName: Self.cookieName, metaName: "layoutsnap-review",
            command: "layoutsnap review")
    }

    public var token: String { site.token }
    public var port: UInt16 { site.port }
    /// What to open: the page, with the token that authorises it.
    public var url: String { site.url }

    /// Serves until `stop` is called.
    public func serve() {
        site.serve({ [self] in handle($0) }, until: { stopping.withLock { $0 } })
    }

    public func stop() { stopping.withLock { $0 = true } }
    public var isStopping: Bool { stopping.withLock { $0 } }

    func handle(_ connection: HTTPConnection) {
        guard let (request, cookie) = site.admit(connection, posts: true) else { return }
        switch (request.method, request.path) {
        case ("GET", "/api/review"):
            let now = session.snapshot
            site.json(
                connection,
                ReviewAnswer(
                    generation: now.generation, approved: now.approved.sorted(), rejected: now.rejected.sorted(),
                    watch: watching, writable: !session.acceptance.refusedUnderCI), headers: cookie)
        case ("POST", "/api/decisions"):
            do {
                let decision = try ReviewSession.Decision.decode(
                    try connection.readBody(of: request, limit: Self.maxBodyBytes))
                let refused = session.decide(decision)
                let now = session.snapshot
                site.json(
                    connection,
                    DecisionAnswer(
                        approved: now.approved.sorted(), rejected: now.rejected.sorted(),
                        refused: refused.map { .init(golden: $0.golden, reason: $0.reason) }))
            } catch {
                site.refuse(connection, error)
            }
        case ("GET", "/api/events"):
            events(connection, headers: cookie)
        case ("GET", _):
            site.file(request.path, connection, headers: cookie)
        default:
            site.refuse(connection, HTTPFailure(.notFound, "no such endpoint"))
        }
    }

    /// Server-sent events: `event: results` whenever the generation changes, a comment every
    /// 15 s (so a client that left is noticed), until the server stops.
    private func events(_ connection: HTTPConnection, headers: [(String, String)]) {
        guard
            connection.startStream(
                .ok, headers: LoopbackSite.common + headers + [("Content-Type", "text/event-stream")]),
            connection.send(Array("retry: 2000\n\n".utf8))
        else { return }
        var seen = session.snapshot.generation
        var quiet = 0
        while !isStopping {
            Thread.sleep(forTimeInterval: 0.2)
            let generation = session.snapshot.generation
            if generation != seen {
                seen = generation
                quiet = 0
                guard connection.send(Array("event: results\ndata: {\"generation\":\(generation)}\n\n".utf8)) else {
                    return
                }
            } else {
                quiet += 1
                if quiet >= 75 {
                    quiet = 0
                    guard connection.send(Array(": waiting\n\n".utf8)) else { return }
                }
            }
        }
    }
}

/// `GET /api/review`.
struct ReviewAnswer: Encodable {
    var generation: Int
    var approved: [String]
    var rejected: [String]
    var watch: Bool
    /// False under CI without --allow-ci: approvals are refused, the page can say so up front.
    var writable: Bool
}

/// `POST /api/decisions`: the session's decisions after this one, and what it refused.
struct DecisionAnswer: Encodable {
    struct Refused: Encodable {
        var golden: String
        var reason: String
    }

    var approved: [String]
    var rejected: [String]
    var refused: [Refused]
}
