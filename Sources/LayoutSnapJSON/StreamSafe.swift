/// Unicode's Stream-Safe Text Format (UAX #15 §13): after 30 combining marks in a row, a
/// COMBINING GRAPHEME JOINER (U+034F, invisible, a starter) is inserted before the next one.
///
/// Why: Swift compares and searches strings by canonical equivalence, and puts each run of
/// combining marks in canonical order with an insertion sort. One "zalgo" character of 80,000
/// marks made every `==`, `split` and `hasPrefix` that touched it quadratic (a post body took
/// more than 30 s before any text reached Pango). Real text never has more than a handful of
/// marks on one base, so it is unchanged; hostile text stays visible and costs linear time.
public enum StreamSafe {
    public static let maxNonStarters = 30
    static let joiner = Unicode.Scalar(0x034F)!

    public static func apply(_ s: String) -> String {
        // Combining marks start at U+0300: text of one- and two-byte scalars below it (ASCII,
        // Latin-1) is returned as it is without looking at scalars.
        if s.utf8.allSatisfy({ $0 < 0xCC }) { return s }
        var run = 0
        var needed = false
        for scalar in s.unicodeScalars {
            if scalar.properties.canonicalCombiningClass == .notReordered {
                run = 0
                continue
            }
            run += 1
            if run > maxNonStarters {
                needed = true
                break
            }
        }
        guard needed else { return s }
        var out = String.UnicodeScalarView()
        run = 0
        for scalar in s.unicodeScalars {
            if scalar.properties.canonicalCombiningClass == .notReordered {
                run = 0
            } else {
                if run == maxNonStarters {
                    out.append(joiner)
                    run = 0
                }
                run += 1
            }
            out.append(scalar)
        }
        return String(out)
    }
}
