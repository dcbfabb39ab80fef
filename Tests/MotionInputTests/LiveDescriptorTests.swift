import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// The device set's own descriptors stay out of the commands a script launches, even where
/// glibc cannot close everything above stderr in the child (before 2.34).
@Suite struct LiveDescriptorTests {
    @Test func theControlPipeIsCloseOnExec() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloexec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("events").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let set = try LiveDeviceSet(selectors: [.path(fifo)])
        defer { set.close() }
        #expect(set.loop.controlPipe.count == 2)
        for fd in set.loop.controlPipe {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd) of the control pipe")
        }
    }
}
