import Foundation

/// A CSS-style cubic Bézier timing curve from (0,0) to (1,1).
public struct CubicBezier: Sendable, Hashable {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)
    public static let linear = CubicBezier(0, 0, 1, 1)

    /// The named curves, as fixtures and `--curve` spell them; each is exactly the numbers above.
    public static let presets: [(name: String, curve: CubicBezier)] = [
        ("easeInOut", .easeInOut), ("easeIn", .easeIn), ("easeOut", .easeOut), ("linear", .linear),
    ]

    /// Its preset's name, else `cubic(0.2, 0, 0, 1)`.
    public var name: String {
        if let preset = Self.presets.first(where: { $0.curve == self }) { return preset.name }
        return "cubic(\([x1, y1, x2, y2].map(CurveNumber.text).joined(separator: ", ")))"
    }

    /// Why these control points cannot make a timing curve (x outside 0...1 would run time
    /// backwards), or nil.
    public var rangeProblem: String? {
        let x = Limits.cubicX
        let y = Limits.cubicY
        guard x.contains(x1), x.contains(x2), y.contains(y1), y.contains(y2) else {
            return
                "x1 and x2 must be from \(CurveNumber.text(x.lowerBound)) to \(CurveNumber.text(x.upperBound)) (the curve's time), y1 and y2 from \(CurveNumber.text(y.lowerBound)) to \(CurveNumber.text(y.upperBound))"
        }
        return nil
    }

    private func sample(_ a1: Double, _ a2: Double, _ s: Double) -> Double {
        // B(s) = 3(1-s)^2 s a1 + 3(1-s) s^2 a2 + s^3
        let u = 1 - s
        return 3 * u * u * s * a1 + 3 * u * s * s * a2 + s * s * s
    }

    private func slope(_ a1: Double, _ a2: Double, _ s: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * a1 + 6 * u * s * (a2 - a1) + 3 * s * s * (1 - a2)
    }

    /// The curve's y for time fraction `t` in 0...1 (clamped). Newton steps with a bisection
    /// fallback: the same inputs always take the same path, so frames are reproducible.
    public func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return t }
        var s = t
        for _ in 0..<8 {
            let err = sample(x1, x2, s) - t
            if abs(err) < 1e-12 { return sample(y1, y2, s) }
            let d = slope(x1, x2, s)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0
        var hi = 1.0
        s = t
        for _ in 0..<64 {
            let x = sample(x1, x2, s)
            if abs(x - t) < 1e-12 { break }
            if x < t { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return sample(y1, y2, s)
    }
}

/// SwiftUI's spring, parameterised like `.spring(response:dampingFraction:)`, mass 1.
public struct Spring: Sendable, Hashable {
    public var response: Double
    public var dampingFraction: Double

    public init(response: Double, dampingFraction: Double) {
        self.response = response
        self.dampingFraction = dampingFraction
    }

    /// iOS 17's `.default` animation.
    public static let `default` = Spring(response: 0.55, dampingFraction: 1.0)

    /// A spring given by physical constants: a damping coefficient in N·s/m.
    public init(mass: Double, stiffness: Double, damping: Double) {
        self.init(mass: mass, stiffness: stiffness, dampingRatio: damping / (2 * (stiffness * mass).squareRoot()))
    }

    /// A spring given by mass, stiffness and damping ratio (the keyboard: mass 3, stiffness 1000,
    /// ratio 1). The ratio is kept exactly, so a critically damped spring takes the critical
    /// closed form rather than a rounding error's worth of over- or underdamping.
    public init(mass: Double, stiffness: Double, dampingRatio: Double) {
        let w0 = (stiffness / mass).squareRoot()
        self.response = 2 * Double.pi / w0
        self.dampingFraction = dampingRatio
    }

    var omega0: Double { 2 * Double.pi / response }

    /// How mass, stiffness and damping become a response and a damping fraction, for messages.
    public static let physicalNote =
        "mass m, stiffness k and damping c make response 2π·√(m/k) and damping fraction c / (2·√(k·m))"

    /// `spring(response: 0.55, dampingFraction: 1)`.
    public var name: String {
        "spring(response: \(CurveNumber.text(response)), dampingFraction: \(CurveNumber.text(dampingFraction)))"
    }

    /// Why this spring is outside the limits (a response or damping fraction from 0.01 to 10),
    /// or nil. A spring given by mass, stiffness and damping is checked through the two it makes
    /// (`physicalNote` says how).
    public var rangeProblem: String? {
        let r = Limits.springParameter
        let range = "from \(CurveNumber.text(r.lowerBound)) to \(CurveNumber.text(r.upperBound))"
        if !r.contains(response) {
            return "its response is \(CurveNumber.text(response)) s; it must be \(range)"
        }
        if !r.contains(dampingFraction) {
            return "its damping fraction is \(CurveNumber.text(dampingFraction)); it must be \(range)"
        }
        return nil
    }

    /// Unit step response from rest: position (0 → 1) and velocity at time t (closed forms of
    /// reference/swiftui-facts.md, plus the overdamped case).
    public func step(at t: Double) -> (position: Double, velocity: Double) {
        if t <= 0 { return (0, 0) }
        let w0 = omega0
        let z = dampingFraction
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let l = z * w0
            let e = exp(-l * t)
            let x = 1 - e * (cos(wd * t) + (l / wd) * sin(wd * t))
            let v = e * (w0 * w0 / wd) * sin(wd * t)
            return (x, v)
        } else if z == 1 {
            let e = exp(-w0 * t)
            return (1 - e * (1 + w0 * t), e * w0 * w0 * t)
        } else {
            // Overdamped: two real roots r1, r2 < 0.
            let s = (z * z - 1).squareRoot()
            let r1 = -w0 * (z - s)
            let r2 = -w0 * (z + s)
            let c1 = r2 / (r1 - r2)
            let c2 = -r1 / (r1 - r2)
            let x = 1 + c1 * exp(r1 * t) + c2 * exp(r2 * t)
            let v = c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)
            return (x, v)
        }
    }

    /// When a move of `distance` points settles (docs/fixtures/README.md "Common fields"): within 0.5 px of the target and slower
    /// than 1 pt/s. Searched on a fine grid so the answer does not depend on the frame rate.
    public func settleTime(distance: Double, pixelsPerPoint: Double) -> Double {
        let d = abs(distance)
        if d == 0 { return 0 }
        let tolerance = 0.5 / max(pixelsPerPoint, 1e-9)
        var t = 0.0
        let dt = 1.0 / 1000
        while t < 60 {
            let (x, v) = step(at: t)
            if d * abs(1 - x) < tolerance && d * abs(v) < 1 { return t }
            t += dt
        }
        return 60
    }
}

/// An animation as a fixture names it (docs/fixtures/README.md "Common fields").
public enum AnimationCurve: Sendable, Hashable {
    case timing(CubicBezier, duration: Double)
    case spring(Spring)

    /// Progress 0 → 1 of a move started `elapsed` seconds ago.
    public func progress(elapsed: Double) -> Double {
        switch self {
        case .timing(let curve, let duration):
            if duration <= 0 { return 1 }
            return curve.value(at: elapsed / duration)
        case .spring(let spring):
            return spring.step(at: elapsed).position
        }
    }

    /// The curve's shape by name: `easeInOut`, `cubic(0.2, 0, 0, 1)`,
    /// How mass, stiffness and damping become a response and a damping fraction, for messages.
    public static let physicalNote =
        "mass m, stiffness k and damping c make response 2π·√(m/k) and damping fraction c / (2·√(k·m))"

    /// `spring(response: 0.55, dampingFraction: 1)`.
    public var shapeName: String {
        switch self {
        case .timing(let curve, _): curve.name
        case .spring(let spring): spring.name
        }
    }

    /// How long a move of `distance` points runs.
    public func duration(distance: Double, pixelsPerPoint: Double) -> Double {
        switch self {
        case .timing(_, let duration): max(duration, 0)
        case .spring(let spring): spring.settleTime(distance: distance, pixelsPerPoint: pixelsPerPoint)
        }
    }
}

/// Numbers in curve names and messages: at most four significant digits, no trailing zeros
/// (`0.55`, `1`, `0.6283`).
enum CurveNumber {
    static func text(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e9 { return String(Int(d)) }
        var s = String(format: "%.4g", d)
        if s.contains("."), !s.contains("e") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}
