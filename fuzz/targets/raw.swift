// libFuzzer entry for the "raw" harness (see FuzzHarness in the input tests).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzHarness.runOrCrash("raw", Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
