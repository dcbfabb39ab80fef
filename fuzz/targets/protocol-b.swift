// libFuzzer entry for the "protocol-b" harness (see FuzzHarness in the input tests).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzHarness.runOrCrash("protocol-b", Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
