import XCTest
import LayoutSnapJSON
import LayoutSnapTestSupport

@testable import LayoutSnapCore

/// Curves authored in fixtures and on the command line: `cubic(x1,y1,x2,y2)`,
/// `spring(response:dampingFraction:)` and `spring(mass:stiffness:damping:)`, against numbers
/// worked by hand, and the duration rules (a spring's duration is its settling time).
final class CurveAuthoringTests: XCTestCase {
    // MARK: Numbers

    /// With x1 = 1/3 and x2 = 2/3 the curve's x is its parameter s, so y is the Bernstein sum
    /// itself: y(s) = 3(1-s)²s·y1 + 3(1-s)s²·y2 + s³.
    func testCubicBezierMatchesHandWorkedValues() {
        // y1 = 1, y2 = 0 at s = 0.25: 3·0.5625·0.25 + 0 + 0.015625 = 0.4375.
        XCTAssertEqual(CubicBezier(1.0 / 3, 1, 2.0 / 3, 0).value(at: 0.25), 0.4375, accuracy: 1e-9)
        // y1 = y2 = 1.5 at s = 0.5: 0.5625 + 0.5625 + 0.125 = 1.25, an overshoot past 1.
        XCTAssertEqual(CubicBezier(1.0 / 3, 1.5, 2.0 / 3, 1.5).value(at: 0.5), 1.25, accuracy: 1e-9)
        // cubic(0.2, 0, 0, 1) at s = 0.5: x = 3·0.25·0.5·0.2 + 0.125 = 0.2, y = 3·0.5·0.25 + 0.125
        // = 0.5; so the curve is at 0.5 when a fifth of the time has passed (Newton must find s).
        XCTAssertEqual(CubicBezier(0.2, 0, 0, 1).value(at: 0.2), 0.5, accuracy: 1e-9)
        XCTAssertEqual(CubicBezier(0.2, 0, 0, 1).value(at: 0), 0)
        XCTAssertEqual(CubicBezier(0.2, 0, 0, 1).value(at: 1), 1)
    }

    /// mass 1, stiffness 100, damping 10: w0 = √100 = 10, ζ = 10 / (2·√100) = 0.5, so response
    /// 2π/10 and, with wd = 10·√0.75 = 8.660, x(0.1) = 1 − e^−0.5 (cos 0.866 + (5/8.660) sin 0.866)
    /// = 0.34030.
    func testSpringFromMassStiffnessAndDampingMatchesTheClosedForm() throws {
        let spring = try XCTUnwrap(springOverride("spring(mass: 1, stiffness: 100, damping: 10)"))
        XCTAssertEqual(spring.response, 2 * Double.pi / 10, accuracy: 1e-12)
        XCTAssertEqual(spring.dampingFraction, 0.5, accuracy: 1e-12)
        XCTAssertEqual(spring.step(at: 0.1).position, 0.34030, accuracy: 1e-5)
        XCTAssertEqual(spring.name, "spring(response: 0.6283, dampingFraction: 0.5)")
    }

    /// A spring's duration is its settling time (docs/fixtures/README.md "Common fields"): within
    /// 0.5 px of the target and slower than 1 pt/s.
    func testASpringsDurationIsItsSettlingTime() throws {
        // Critically damped, w0 = 10 (mass 1, stiffness 100, damping 20), moving 100 pt at scale
        // 1: the position bound 100 (1 + 10t) e^−10t < 0.5 holds from t = 0.743, the speed bound
        // 100·10²·t·e^−10t < 1 only from t = 0.9118 (by bisection): settled on the 1 ms grid at 0.912.
        let critical = try XCTUnwrap(springOverride("spring(mass:1,stiffness:100,damping:20)"))
        XCTAssertEqual(critical.dampingFraction, 1, accuracy: 1e-12)
        XCTAssertEqual(
            AnimationCurve.spring(critical).duration(distance: 100, pixelsPerPoint: 1), 0.912, accuracy: 0.0015)
        // The keyboard of reference/swiftui-facts.md written as SwiftUI would: mass 3, stiffness
        // 1000, damping 2·√3000 (ratio 1); a 336 pt keyboard settles in 0.61 s (decisions.md).
        let keyboard = try XCTUnwrap(springOverride("spring(mass:3,stiffness:1000,damping:\(2 * 3000.0.squareRoot()))"))
        XCTAssertEqual(keyboard.settleTime(distance: 336, pixelsPerPoint: 3), 0.610, accuracy: 0.002)
        XCTAssertEqual(keyboard.step(at: 0.25).position, 0.9421, accuracy: 1e-4)
    }

    // MARK: The command line

    func springOverride(_ text: String) -> Spring? {
        guard case .success(.spring(let spring)) = CurveOverride.parse(text) else { return nil }
        return spring
    }

    func testCommandLineCurves() throws {
        XCTAssertEqual(try CurveOverride.parse("cubic(0.2,0,0,1)").get(), .timing(CubicBezier(0.2, 0, 0, 1)))
        XCTAssertEqual(
            try CurveOverride.parse("cubic(0.2, -0.5, 0.1, 1.4)").get(), .timing(CubicBezier(0.2, -0.5, 0.1, 1.4)))
        XCTAssertEqual(
            try CurveOverride.parse("spring(response:0.4,dampingFraction:0.7)").get(),
            .spring(Spring(response: 0.4, dampingFraction: 0.7)))
        XCTAssertEqual(
            try CurveOverride.parse("spring(dampingFraction: 0.7, response: 0.4)").get(),
            .spring(Spring(response: 0.4, dampingFraction: 0.7)), "labels in any order")
        // Presets are exactly today's numbers.
        XCTAssertEqual(try CurveOverride.parse("easeIn").get(), .timing(CubicBezier(0.42, 0, 1, 1)))
        XCTAssertEqual(try CurveOverride.parse("easeOut").get(), .timing(CubicBezier(0, 0, 0.58, 1)))
        XCTAssertEqual(try CurveOverride.parse("easeInOut").get(), .timing(CubicBezier(0.42, 0, 0.58, 1)))
        let refused: [(String, String)] = [
            ("cubic(0.2,0,0)", "takes four numbers"),
            ("cubic(1.2,0,0,1)", "x1 and x2 must be from 0 to 1"),
            ("cubic(0.2,6,0,1)", "y1 and y2 from -5 to 5"),
            ("cubic(a,0,0,1)", "takes four numbers"),
            ("spring(response:0.4)", "takes response: and dampingFraction:, or mass:, stiffness: and damping:"),
            ("spring(response:0.4,dampingFraction:0.7,mass:1)", "takes response: and dampingFraction:"),
            ("spring(response:0.4,response:0.5)", "takes response:"),
            ("spring(response:20,dampingFraction:1)", "its response is 20 s; it must be from 0.01 to 10"),
            ("spring(mass:1,stiffness:100,damping:0)", "its damping fraction is 0; it must be from 0.01 to 10"),
            ("spring(mass:0,stiffness:100,damping:1)", "mass must be from 0.01 to 100"),
            ("bouncy", "unknown curve \"bouncy\"; expected easeInOut, easeIn, easeOut, linear, cubic(X1,Y1,X2,Y2)"),
        ]
        for (text, message) in refused {
            switch CurveOverride.parse(text) {
            case .success(let curve): XCTFail("\(text) gave \(curve)")
            case .failure(let error): XCTAssertTrue(error.message.contains(message), "\(text): \(error.message)")
            }
        }
    }

    func post(_ curve: AnimationCurve) -> Fixture {
        Fixture(
            id: "p", file: "p.json", device: Device.named("iphone-15")!,
            canvas: Canvas(width: 390, height: 600, scale: 1), appearance: .light, fps: 60, tolerance: nil,
            content: PostFixture(curve: curve))
    }

    func message(_ overrides: FixtureOverrides, _ fixture: Fixture) -> String {
        do {
            _ = try overrides.apply(to: fixture)
            return "applied"
        } catch {
            return error.message
        }
    }

    /// `--duration` with a spring is refused, as SwiftUI gives a spring no duration: the message
    /// says its duration is its settling time and how to slow it.
    func testDurationOnASpringIsRefusedWithTheReason() {
        let timing = post(.timing(.easeInOut, duration: 0.3))
        let spring = post(.spring(.default))
        let given = message(FixtureOverrides(curve: .spring(.default), duration: 0.8), timing)
        XCTAssertTrue(
            given.contains("--duration 0.8 does not apply to a spring: a spring's duration is its settling time"), given
        )
        XCTAssertTrue(given.contains("--curve 'spring(response:0.8,dampingFraction:1)'"), given)
        let fromFixture = message(FixtureOverrides(duration: 0.8), spring)
        XCTAssertTrue(fromFixture.contains("does not apply to this fixture's curve, a spring"), fromFixture)
        // A timing curve over a spring fixture takes the duration.
        XCTAssertEqual(message(FixtureOverrides(curve: .timing(.linear), duration: 0.8), spring), "applied")
        XCTAssertEqual(message(FixtureOverrides(curve: .spring(.default)), timing), "applied")
    }

    /// Options that change a kind's own field are refused on kinds without it, naming the kinds
    /// they apply to.
    func testKindOptionsNameTheKindsTheyApplyTo() {
        var chat = post(.spring(.default))
        chat.content = ChatFixture()
        XCTAssertEqual(
            message(FixtureOverrides(duration: 0.8), chat),
            "--duration applies only to post fixtures (the kinds with a `duration` field); a chat has none: its animations follow its kind's own rules"
        )
        XCTAssertEqual(
            message(FixtureOverrides(curve: .timing(.linear), duration: 0.8), chat),
            "--curve and --duration apply only to post fixtures (the kinds with a `curve` field); a chat has none: its animations follow its kind's own rules"
        )
    }

    // MARK: Fixtures

    func decode(_ json: String) -> Result<AnimationCurve, FixtureError> {
        Result { () throws(FixtureError) in
            let fixture = try FixtureDecoder.decode(bytes: Array(json.utf8), id: "c", file: "c.json", folder: .empty())
            return (fixture.content as! PostFixture).curve
        }
    }

    func testFixtureCurves() throws {
        XCTAssertEqual(
            try decode(#"{"kind": "post", "curve": {"cubic": [0.2, 0, 0, 1]}, "duration": 0.5}"#).get(),
            .timing(CubicBezier(0.2, 0, 0, 1), duration: 0.5))
        XCTAssertEqual(
            try decode(#"{"kind": "post", "curve": {"cubic": [0.2, 0, 0, 1]}}"#).get(),
            .timing(CubicBezier(0.2, 0, 0, 1), duration: 0.3), "the default duration")
        XCTAssertEqual(
            try decode(#"{"kind": "post", "curve": {"spring": {"mass": 1, "stiffness": 100, "damping": 10}}}"#).get(),
            .spring(Spring(mass: 1, stiffness: 100, damping: 10)))
        XCTAssertEqual(
            try decode(#"{"kind": "post", "curve": "easeOut", "duration": 0.25}"#).get(),
            .timing(CubicBezier(0, 0, 0.58, 1), duration: 0.25), "a preset is exactly today's numbers")
        let refused: [(String, String)] = [
            (
                #"{"kind": "post", "curve": {"spring": {"response": 0.5, "dampingFraction": 1}}, "duration": 0.8}"#,
                "duration applies to timing curves (easeInOut, easeIn, easeOut, linear, cubic); a spring has none: its duration is its settling time"
            ),
            (
                #"{"kind": "post", "curve": "cubic(0.2, 0, 0, 1)"}"#,
                #"a fixture writes the curve "cubic(0.2, 0, 0, 1)" as {"cubic": [0.2, 0, 0, 1]}"#
            ),
            (
                #"{"kind": "post", "curve": "spring(response: 1, dampingFraction: 1)"}"#,
                #"a fixture writes a spring as"#
            ),
            (
                #"{"kind": "post", "curve": {"cubik": [0.2, 0, 0, 1]}}"#,
                #"unknown field "cubik"; did you mean "cubic"?"#
            ),
            (
                #"{"kind": "post", "curve": {"cubic": [0.2, 0, 0]}}"#,
                "a cubic curve is four numbers [x1, y1, x2, y2], found 3"
            ),
            (#"{"kind": "post", "curve": {"cubic": [0.2, 0, 1.5, 1]}}"#, "expected x2 (a time fraction) from 0 to 1"),
            (
                #"{"kind": "post", "curve": {"spring": {"mass": 1, "stiffness": 100, "dampng": 10}}}"#,
                #"unknown field "dampng"; did you mean "damping"?"#
            ),
            (
                #"{"kind": "post", "curve": {"spring": {"response": 1, "mass": 1}}}"#,
                "a spring is {\"response\", \"dampingFraction\"} or {\"mass\", \"stiffness\", \"damping\"}; found response and mass"
            ),
            (
                #"{"kind": "post", "curve": {"spring": {"mass": 100, "stiffness": 0.01, "damping": 1}}}"#,
                "this spring cannot be used: its response is 628.3 s; it must be from 0.01 to 10"
            ),
        ]
        for (json, expected) in refused {
            switch decode(json) {
            case .success(let curve): XCTFail("\(json) gave \(curve)")
            case .failure(let error): XCTAssertTrue(error.message.contains(expected), "\(json): \(error.message)")
            }
        }
    }

    /// Each step's state records its curve and how long its move runs: for a spring the settling
    /// time of the card's travel, which preview prints.
    func testStatesReportTheirCurveAndRunTime() throws {
        let canvas = Canvas(width: 390, height: 700, scale: 2)
        var card = PostFixture(
            title: "Trip", body: "Line one\nLine two", curve: .spring(Spring(mass: 1, stiffness: 100, damping: 20)),
            steps: [PostStep(event: .expand), PostStep(event: .expand)])
        let rules = try PostRules(post: card, canvas: canvas, measurer: FakeMeasurer())
        let states = try rules.states(fps: 60, palette: .light)
        XCTAssertNil(states[0].motion, "the initial state moves nothing")
        let motion = try XCTUnwrap(states[1].motion)
        let travel = abs(
            states[1].frames.last!.element("card")!.rect.height - states[1].frames[0].element("card")!.rect.height)
        XCTAssertEqual(
            motion.seconds,
            Spring(mass: 1, stiffness: 100, damping: 20).settleTime(distance: travel, pixelsPerPoint: 2),
            accuracy: 0.002)
        XCTAssertEqual(
            motion.summary,
            "spring(response: 0.6283, dampingFraction: 1) settles in \(CurveNumber.text((motion.seconds * 1000).rounded() / 1000)) s"
        )
        XCTAssertNil(states[2].motion, "expanding again moves nothing")
        card.curve = .timing(CubicBezier(0.2, 0, 0, 1), duration: 0.5)
        let timed = try PostRules(post: card, canvas: canvas, measurer: FakeMeasurer()).states(fps: 60, palette: .light)
        XCTAssertEqual(timed[1].motion?.summary, "cubic(0.2, 0, 0, 1) runs 0.5 s")
    }
}
