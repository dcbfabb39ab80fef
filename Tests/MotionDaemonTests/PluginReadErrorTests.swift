import Foundation
import Testing
import MotionHost
#if canImport(Glibc)
import Glibc
#endif

/// A plugin that cannot be read says why in the system's words, with the errno's name (it said
/// "The operation could not be completed. (NSCocoaErrorDomain error 256.)").
@Suite(.serialized) struct PluginReadErrorTests {
    @Test func aReadFailingForWantOfDescriptorsNamesEMFILE() throws {
        let config = TestConfig(["p.lua": "local x = 1"])
        let (host, _) = config.host()
        host.loadAll()
        #expect(host.status().first?.state == .running)
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let saved = limit
        let lowestFree = dup(0)
        close(lowestFree)
        limit.rlim_cur = rlim_t(lowestFree)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        host.reload("p")
        var copy = saved
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &copy)
        let error = try #require(host.status().first?.lastError)
        #expect(error == "\(config.file("p.lua")): cannot read the plugin: Too many open files (EMFILE)", "\(error)")
    }
}
