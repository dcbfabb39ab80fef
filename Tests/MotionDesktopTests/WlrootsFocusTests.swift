import CWaylandServer
import Foundation
import Testing
@testable import MotionDesktop
#if canImport(Glibc)
import Glibc
#endif

/// The wlroots provider against a compositor that does not offer the foreign-toplevel protocol
/// (as GNOME's, KDE's or Weston's): a warning naming it, never a wait; and a compositor that
/// goes away. (The protocol itself is run against headless sway by scripts/test-desktop.)
@Suite struct WlrootsFocusTests {
    /// A libwayland-server display with no globals, served on a thread of its own on a socket
    /// at an absolute path (a client takes that as WAYLAND_DISPLAY). Not `serving`, it accepts
    /// no client (connections wait in the socket's backlog) until it ends.
    final class BareCompositor: @unchecked Sendable {
        let path = "/tmp/ms-wayland-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        private let display: OpaquePointer
        private let stop = NSCondition()
        private var stopping = false
        private var stopped = false

        init(serving: Bool = true) throws {
            display = wl_display_create()
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: Array(path.utf8))
                raw[path.utf8.count] = 0
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(fd, 4) == 0, wl_display_add_socket_fd(display, fd) == 0 else {
                throw FocusError("cannot serve \(path)")
            }
            Thread { [self] in
                let loop = wl_display_get_event_loop(display)
                while !stop.withLock({ stopping }) {
                    guard serving else {
                        stop.withLock { while !stopping { stop.wait() } }
                        break
                    }
                    _ = wl_event_loop_dispatch(loop, 20)
                    wl_display_flush_clients(display)
                }
                wl_display_destroy(display)
                unlink(path)
                stop.withLock { stopped = true; stop.broadcast() }
            }.start()
        }

        /// Ends the compositor: its clients see the connection close.
        func close() {
            stop.withLock { stopping = true; stop.broadcast() }
            stop.withLock { while !stopped { stop.wait() } }
        }
    }

    /// Reads `source` until it reports or throws (10 s at most).
    private func readUntilSomething(_ source: WlrootsFocusSource) -> Result<[String?], FocusError> {
        let deadline = Date().addingTimeInterval(10)
        var pfd = pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            do {
                let changes = try source.read()
                if !changes.isEmpty { return .success(changes.map { $0?.id }) }
            } catch let error as FocusError {
                return .failure(error)
            } catch {
                return .failure(FocusError("\(error)"))
            }
            _ = poll(&pfd, 1, 100)
        }
        return .failure(FocusError("nothing within 10 s"))
    }

    @Test func aCompositorWithoutTheProtocolIsAWarningThatNamesIt() throws {
        let compositor = try BareCompositor()
        defer { compositor.close() }
        let source = WlrootsFocusSource(display: compositor.path)
        try source.connect()
        defer { source.disconnect() }
        guard case .failure(let error) = readUntilSomething(source) else {
            Issue.record("a compositor without the protocol reported a focus")
            return
        }
        #expect(error.description == "the Wayland compositor at \(compositor.path) does not offer zwlr_foreign_toplevel_manager_v1 (wlroots' foreign-toplevel management: river, labwc, wayfire, sway have it; GNOME and KDE do not)")
    }

    @Test func noCompositorIsAFailureToConnectAndOneThatEndsIsALostConnection() throws {
        let missing = WlrootsFocusSource(display: "/tmp/ms-no-wayland-\(getpid())")
        #expect(throws: FocusError.self) { try missing.connect() }

        // Ends before it answered anything: the connection it never accepted is reset.
        let compositor = try BareCompositor(serving: false)
        let source = WlrootsFocusSource(display: compositor.path)
        try source.connect()
        defer { source.disconnect() }
        compositor.close()
        guard case .failure(let error) = readUntilSomething(source) else {
            Issue.record("a compositor that ended reported a focus")
            return
        }
        #expect(error.description.hasPrefix("the Wayland display \(compositor.path) went away"), "\(error)")
    }
}
