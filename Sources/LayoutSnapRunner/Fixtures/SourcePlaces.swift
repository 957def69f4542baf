import LayoutSnapCore
import LayoutSnapJSON

/// Lines and columns for errors found after decoding, which know only a JSON path: the file is
/// read and parsed again then, so the path that passes pays nothing.
enum SourcePlaces {
    static func position(of path: String, inFile file: String) -> SourcePosition? {
        guard let bytes = try? LocalInputFiles().read(file, upTo: Limits.maxFixtureFileBytes).prefix,
            let root = try? JSONParser.parse(bytes)
        else { return nil }
        return root.position(at: path)
    }
}
