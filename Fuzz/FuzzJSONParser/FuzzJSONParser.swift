// libFuzzer target (`.ci/libfuzzer`): the hand-written JSON parser. Any input must parse, or be
// rejected with a position inside the input (line and column from 1), within the nesting limit.
import FuzzSupport
import LayoutSnapJSON

@_cdecl("FuzzJSONParser_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzerMain(argc, argv) { data, size in data.map { fuzzJSONParser($0, size) } ?? 0 }
}

func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    do {
        let node = try JSONParser.parse(bytes)
        precondition(
            node.position.offset >= 0 && node.position.offset <= size, "a value's position is outside the input")
    } catch {
        let p = error.position
        precondition(
            p.offset >= 0 && p.offset <= size && p.line >= 1 && p.column >= 1,
            "error position \(p) (offset \(p.offset)) outside the input of \(size) bytes")
    }
    return 0
}
