// libFuzzer entry for the "protocol-a" harness (see FuzzHarness in the input tests).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzHarness.runOrCrash("protocol-a", Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
