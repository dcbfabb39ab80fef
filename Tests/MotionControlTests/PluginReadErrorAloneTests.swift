import XCTest
import Foundation
import MotionPluginHost
#if canImport(Glibc)
import Glibc
#endif

/// A plugin that cannot be read says why in the system's words, with the errno's name: when
/// control clients or commands had taken the descriptors, it said "The operation could not be
/// completed. (NSCocoaErrorDomain error 256.)". Run alone (`scripts/test`: *AloneTests):
/// it lowers the process's descriptor limit, which the Swift Testing tests running beside the
/// XCTest ones would meet.
final class PluginReadErrorAloneTests: XCTestCase {
    func testAReadFailingForWantOfDescriptorsNamesEMFILE() throws {
        let folder = NSTemporaryDirectory() + "read-error-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "local x = 1\n".write(toFile: folder + "/p.lua", atomically: false, encoding: .utf8)
        let config = try ConfigFolder(folder)
        let host = PluginHost(folder: config, options: RunOptions(scriptPath: ""), router: OutputRouter(.memory))
        host.loadAll()
        XCTAssertEqual(host.status().first?.state, .running)
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
        XCTAssertEqual(host.status().first?.lastError, "\(config.path)/p.lua: cannot read the plugin: Too many open files (EMFILE)")
    }
}
