// The entry point every libFuzzer target shares. SwiftPM links an executable with its entry point
// renamed to `<Module>_main` (`--defsym main=<Module>_main`, for testable executables), and under
// `-parse-as-library` no such function exists. Each target defines `<Module>_main` with `@_cdecl`
// and calls `fuzzerMain`, which hands libFuzzer's driver the target's input function; libFuzzer's
// own `main` is then never linked in.

public typealias FuzzerInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzerInput
) -> CInt

public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ input: FuzzerInput)
    -> CInt
{
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, input)
}
