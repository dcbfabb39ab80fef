// libFuzzer entry for the "single-touch" harness (see FuzzHarness in the input tests).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzHarness.runOrCrash("single-touch", Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
