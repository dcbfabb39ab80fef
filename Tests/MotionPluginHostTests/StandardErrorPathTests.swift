import Foundation
import Synchronization
import Testing
import MotionActions
import MotionDiagnostics
@testable import MotionInput
import MotionLua
import MotionTestSupport
import MotionHostTestSupport

/// Every module's diagnostics take the one stderr path (`StandardError`), so the daemon's
/// diversion (its bounded queue, docs/daemon.md "Output") applies to all of them. Before, the
/// event file's FIFO notice (`fputs` in MotionInput), a launched command's report (`fputs` in
/// MotionActions) and a runtime's stderr text (write(2) in MotionLua) went past it.
@Suite(.serialized) struct StandardErrorPathTests {
    @Test func theFIFONoticeACommandReportAndScriptStderrAreDiverted() throws {
        let folder = makeTemporaryFolder("stderr-path")
        let fifo = folder.appendingPathComponent("events").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = try InputBytes(path: fifo)
        let captured = Mutex<[String]>([])
        StandardError.divert { text in captured.withLock { $0.append(text) } }
        bytes.notice("waiting for a writer")
        ProcessLauncher.reportToStderr("a command said something")
        CountingOutput().standardError("a script wrote this")
        StandardError.divert(nil)
        // Other suites may write meanwhile: only these three must be there.
        let lines = captured.withLock { $0 }
        #expect(lines.contains("motionscript: waiting for a writer\n"))
        #expect(lines.contains("a command said something\n"))
        #expect(lines.contains("a script wrote this"))
    }
}
