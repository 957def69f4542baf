import XCTest
@testable import LayoutSnapCore

final class AnimationTests: XCTestCase {
    func testEaseInOutIsSymmetricAndHitsReferencePoints() {
        let c = CubicBezier.easeInOut
        XCTAssertEqual(c.value(at: 0), 0)
        XCTAssertEqual(c.value(at: 1), 1)
        XCTAssertEqual(c.value(at: 0.5), 0.5, accuracy: 1e-9)
        // Reference values from a 200-step bisection of the same curve (worked out separately).
        XCTAssertEqual(c.value(at: 1.0 / 3), 0.23177481630274874, accuracy: 1e-9)
        XCTAssertEqual(c.value(at: 1.0 / 6), 0.0561308193794707, accuracy: 1e-9)
        XCTAssertEqual(c.value(at: 2.0 / 3), 1 - 0.23177481630274874, accuracy: 1e-9)
    }

    func testLinearAndClamping() {
        XCTAssertEqual(CubicBezier.linear.value(at: 0.37), 0.37, accuracy: 1e-12)
        XCTAssertEqual(CubicBezier.easeIn.value(at: -1), 0)
        XCTAssertEqual(CubicBezier.easeOut.value(at: 2), 1)
    }

    /// 0.3 s at 60 fps: 19 frames, t = k/60.
    func testThreeTenthsOfASecondAtSixtyFPSIsNineteenFrames() {
        let schedules = [Timeline.Schedule(start: 0, settle: 0), Timeline.Schedule(start: 0, settle: 0.3)]
        let samples = Timeline.samples(schedules: schedules, fps: 60)
        XCTAssertEqual(samples[0].count, 1)
        XCTAssertEqual(samples[1].count, 19)
        XCTAssertEqual(samples[1].last!.time, 0.3, accuracy: 1e-12)
        XCTAssertEqual(Timeline.frameCount(schedules: schedules, fps: 60), 20)
    }

    /// A duration that is not a whole number of frames ends on the first frame past the end.
    func testPartialLastFrameIsIncluded() {
        let schedules = [Timeline.Schedule(start: 0, settle: 0), Timeline.Schedule(start: 0, settle: 0.25)]
        XCTAssertEqual(Timeline.samples(schedules: schedules, fps: 30)[1].count, 9)  // k = 0...8, 8/30 > 0.25
    }

    /// SwiftUI adds an interrupting animation on top of the running one instead of cancelling it.
    func testInterruptionAddsOnTop() {
        var f = AnimatedValue(0)
        let curve = AnimationCurve.timing(.easeInOut, duration: 0.3)
        f.set(1, at: 0, curve: curve)
        f.set(0, at: 0.1, curve: curve)
        let e13 = 0.23177481630274874
        XCTAssertEqual(f.value(at: 0.1), e13, accuracy: 1e-9)  // continuous at the interruption
        XCTAssertEqual(f.value(at: 0.2), 1 - 2 * e13, accuracy: 1e-9)  // e(2/3) - e(1/3)
        XCTAssertEqual(f.value(at: 0.4), 0, accuracy: 1e-12)
        XCTAssertEqual(f.endTime, 0.4, accuracy: 1e-12)
        // Earlier times are unaffected.
        XCTAssertEqual(f.value(at: 0.05), CubicBezier.easeInOut.value(at: 1.0 / 6), accuracy: 1e-12)
    }

    func testCriticallyDampedSpringMatchesClosedForm() {
        let s = Spring.default
        let w0 = 2 * Double.pi / 0.55
        for t in [0.05, 0.1, 0.3, 0.6] {
            XCTAssertEqual(s.step(at: t).position, 1 - exp(-w0 * t) * (1 + w0 * t), accuracy: 1e-12)
        }
    }

    func testUnderdampedSpringMatchesClosedForm() {
        let s = Spring(response: 0.5, dampingFraction: 0.825)
        let w0 = 2 * Double.pi / 0.5
        let l = 0.825 * w0
        let wd = w0 * (1 - 0.825 * 0.825).squareRoot()
        for t in [0.05, 0.2, 0.4] {
            XCTAssertEqual(
                s.step(at: t).position, 1 - exp(-l * t) * (cos(wd * t) + l / wd * sin(wd * t)), accuracy: 1e-12)
        }
    }

    /// The keyboard's spring (reference/swiftui-facts.md): critically damped, w0 = sqrt(1000 / 3)
    /// = 18.257 rad/s, x(t) = 1 - (1 + w0 t) e^(-w0 t): 94% at 0.25 s, 99% at 0.5 s.
    func testKeyboardSpringIsCriticallyDampedMassThreeStiffnessThousand() {
        let k = Keyboard.spring
        XCTAssertEqual(k.dampingFraction, 1)
        XCTAssertEqual(k.omega0, 18.2574, accuracy: 1e-4)
        let w0 = (1000.0 / 3).squareRoot()
        for t in stride(from: 0.0, through: 1.0, by: 0.01) {
            XCTAssertEqual(k.step(at: t).position, 1 - (1 + w0 * t) * exp(-w0 * t), accuracy: 1e-12)
        }
        XCTAssertEqual(k.step(at: 0.25).position, 0.9421, accuracy: 1e-4)
        XCTAssertEqual(k.step(at: 0.5).position, 0.9990, accuracy: 1e-4)
        // Settled (docs/fixtures/README.md "Common fields": within half a pixel and slower than 1 pt/s): for a 336 pt keyboard
        // the speed bound comes last, 336 w0^2 t e^(-w0 t) < 1 at t = 0.610 s whatever the
        // scale; no longer the 3 s of an overdamped reading.
        XCTAssertEqual(k.settleTime(distance: 336, pixelsPerPoint: 3), 0.610, accuracy: 0.002)
        XCTAssertEqual(k.settleTime(distance: 336, pixelsPerPoint: 2), 0.610, accuracy: 0.002)
        // A damping coefficient still means what it says: 500 N·s/m on mass 3, stiffness 1000 is
        // overdamped.
        XCTAssertGreaterThan(Spring(mass: 3, stiffness: 1000, damping: 500).dampingFraction, 1)
    }

    func testSpringSettlesWithinHalfAPixel() {
        let t = Spring.default.settleTime(distance: 100, pixelsPerPoint: 3)
        let (x, v) = Spring.default.step(at: t)
        XCTAssertLessThan(100 * (1 - x), 0.5 / 3)
        XCTAssertLessThan(100 * v, 1)
        // A little earlier it had not settled yet: too far or still too fast.
        let (xBefore, vBefore) = Spring.default.step(at: t - 0.01)
        XCTAssertTrue(100 * (1 - xBefore) >= 0.5 / 3 || 100 * vBefore >= 1)
    }
}
