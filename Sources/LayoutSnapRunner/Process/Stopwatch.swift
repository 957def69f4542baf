import Foundation

/// Wall time on the monotonic clock (never the calendar clock, which can jump).
package enum Stopwatch {
    package static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
