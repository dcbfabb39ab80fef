#if canImport(Glibc)
import Glibc
#endif
import CLinux
import MotionGestures
import MotionJSON

/// The daemon's end of the control socket (docs/control.md). Non-blocking throughout and served
/// from the host's one event loop: the loop waits on `descriptors` together with its devices and
/// calls `service(_:)` for each readable one, so no thread is needed and a client never holds up
/// input. A client that stops reading a stream is dropped rather than buffered without bound.
///
/// Hostile or broken clients are bounded too: at most `maxClients` at once (a newcomer past
/// them is told why and closed), at most `maxRequestsPerWakeUp` requests of one client handled
/// per wake-up (the rest stays in the kernel's buffer until the next one, after the devices'
/// frames), and when `accept` fails for want of descriptors the listener is left alone for a
/// while (a listener that stays readable would wake the loop at once, forever).
public final class ControlServer {
    public let path: String
    public weak var target: ControlTarget?
    /// Told when a client connects or goes (a loop that watches descriptors one by one re-reads
    /// `descriptors`).
    public var onDescriptorsChanged: (() -> Void)?
    /// Told when a client starts monitoring or a client goes (`hasMonitors` and
    /// `hasRecognizerMonitors` may have changed): the host feeds the socket only what someone reads.
    public var onMonitorsChanged: (() -> Void)?
    /// Peers refused so far (another user), for the daemon's diagnostics and tests.
    public private(set) var refusedPeers = 0
    /// Where the server's own warnings go (the daemon's log).
    public var diagnostics: ((String) -> Void)?

    /// Clients served at once (docs/control.md).
    public static let maxClients = 64
    /// Requests of one client handled per wake-up (docs/control.md).
    public static let maxRequestsPerWakeUp = 64
    /// The first pause after `accept` failed for want of descriptors; it doubles while the
    /// failures go on, up to `maxAcceptPause`.
    static let firstAcceptPause = 0.1
    static let maxAcceptPause = 2.0
    /// While accepting pauses (`acceptPaused`), the loop waits on this timer instead of the
    /// listener. Made at start: when descriptors run out there is none left to make it with.
    private var acceptTimer: Int32 = -1
    private var acceptPaused = false
    private var acceptPause = 0.0
    /// The peeked bytes of one read (one buffer for all clients: the server runs on one thread).
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

    private var listener: Int32 = -1
    private var lock: ControlSocketLock?
    private var clients: [Int32: ControlClientState] = [:]
    private var recent = RecentLines(capacity: 1000)
    private let ownerUid = geteuid()

    /// Bytes queued for one client before it is dropped: a stream nobody reads.
    static let maxPendingBytes = 4 << 20

    /// Creates the socket's folder (0700) if missing, refuses to start when another daemon holds
    /// the socket, and listens (0600).
    public init(path: String, target: ControlTarget?) throws {
        self.path = path
        self.target = target
        let folder = ControlSocketPath.folder(of: path)
        let environment = ControlSocketPath.environment
        // XDG_RUNTIME_DIR is looked at before a folder is made in it.
        if let problem = ControlSocketPath.problem(socketPath: path, environment: environment) { throw ControlError(problem) }
        if access(folder, F_OK) != 0 {
            try Self.makeFolders(folder)
            if let problem = ControlSocketPath.problem(socketPath: path, environment: environment) { throw ControlError(problem) }
        }
        lock = try ControlSocketLock(socketPath: path)
        guard let address = UnixSocketAddress(path) else {
            throw ControlError("the socket path \(path) is too long for a Unix socket (at most 107 bytes)")
        }
        // The lock is ours: a socket file left there belongs to a daemon that is gone.
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw ControlError(systemError("cannot create the control socket")) }
        // Created 0600 from the start (no moment where another user could connect).
        let oldMask = umask(0o177)
        let bound = address.withSockaddr { bind(listener, $0, $1) }
        umask(oldMask)
        guard bound == 0 else {
            let message = systemError("cannot bind \(path)")
            close()
            throw ControlError(message)
        }
        guard listen(listener, 16) == 0 else {
            let message = systemError("cannot listen on \(path)")
            close()
            throw ControlError(message)
        }
        acceptTimer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
    }

    deinit { close() }

    private static func makeFolders(_ folder: String) throws {
        var built = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            built += "/" + part
            if access(built, F_OK) != 0, mkdir(built, 0o700) != 0, errno != EEXIST {
                throw ControlError(systemError("cannot create \(built)"))
            }
        }
    }

    /// Stops listening, drops every client and removes the socket.
    public func close() {
        for fd in clients.keys { Glibc.close(fd) }
        clients.removeAll()
        if acceptTimer >= 0 {
            Glibc.close(acceptTimer)
            acceptTimer = -1
        }
        if listener >= 0 {
            Glibc.close(listener)
            listener = -1
            unlink(path)
        }
        lock?.release()
        lock = nil
    }

    /// What the loop waits on for reading: the listening socket and every client.
    public var descriptors: [Int32] {
        guard listener >= 0 else { return [] }
        return [acceptPaused ? acceptTimer : listener] + clients.keys.sorted()
    }

    /// Clients with output the kernel did not take yet (the loop may also wait for POLLOUT on them).
    public var descriptorsWithPendingOutput: [Int32] {
        clients.filter { !$0.value.pending.isEmpty }.map(\.key).sorted()
    }

    /// Serves one descriptor of `descriptors` that became readable (or writable).
    public func service(_ fd: Int32) {
        if fd == listener {
            acceptClients()
        } else if fd == acceptTimer, acceptPaused {
            // The pause is over: the listener is waited on again (and tried at once).
            var expirations: UInt64 = 0
            _ = read(acceptTimer, &expirations, 8)
            acceptPaused = false
            onDescriptorsChanged?()
            acceptClients()
        } else if let client = clients[fd] {
            flush(client)
            guard clients[fd] != nil else { return }
            readRequests(client)
        }
    }

    /// Waits at most `timeout` seconds for any descriptor and serves what is ready (tests, and a
    /// loop that polls the server between frames).
    public func serve(timeout: Double) {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        for fd in descriptorsWithPendingOutput {
            if let i = fds.firstIndex(where: { $0.fd == fd }) { fds[i].events |= Int16(POLLOUT) }
        }
        guard !fds.isEmpty else { return }
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(0, timeout * 1000)))
        guard ready > 0 else { return }
        for p in fds where p.revents != 0 { service(p.fd) }
    }

    // MARK: Connections

    private func acceptClients() {
        while true {
            // (accept4 is _GNU_SOURCE-only in the Swift Glibc module: the flags are set after.)
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                let code = errno
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM { pauseAccepting(code) }
                return
            }
            acceptPause = 0
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            guard let peer = PeerCredentials(socket: fd), peer.uid == ownerUid else {
                // The file mode keeps others out; this holds even when someone loosened it.
                refusedPeers += 1
                let uid = PeerCredentials(socket: fd).map { "uid \($0.uid)" } ?? "an unknown user"
                let answer = ControlAnswer.refused(id: .null, "refused: \(uid) is not this daemon's user (uid \(ownerUid))").line + "\n"
                _ = Array(answer.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Glibc.close(fd)
                continue
            }
            guard clients.count < Self.maxClients else {
                let answer = ControlAnswer.refused(id: .null, "refused: \(Self.maxClients) control clients are connected already (the most the daemon serves at once)").line + "\n"
                _ = Array(answer.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                Glibc.close(fd)
                continue
            }
            clients[fd] = ControlClientState(fd: fd, peer: peer)
            onDescriptorsChanged?()
        }
    }

    /// `accept` failed for want of descriptors (or memory): the connection waits in the backlog,
    /// and the listener stays readable. The loop waits on a timer instead, for 0.1 s, then
    /// twice as long while it goes on (at most 2 s); said once until an accept succeeds.
    private func pauseAccepting(_ code: Int32) {
        let first = acceptPause == 0
        acceptPause = first ? Self.firstAcceptPause : min(acceptPause * 2, Self.maxAcceptPause)
        if first {
            diagnostics?("warning: control socket: cannot accept a client: \(String(cString: strerror(code))) (\(Self.errnoName(code))); waiting \(JSONText.number(acceptPause)) s before accepting again")
        }
        // Without a timer (none could be made at start), the listener stays.
        guard acceptTimer >= 0 else { return }
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(acceptPause)
        spec.it_value.tv_nsec = Int((acceptPause - acceptPause.rounded(.down)) * 1e9)
        guard timerfd_settime(acceptTimer, 0, &spec, nil) == 0 else { return }
        acceptPaused = true
        onDescriptorsChanged?()
    }

    static func errnoName(_ code: Int32) -> String {
        switch code {
        case EMFILE: return "EMFILE"
        case ENFILE: return "ENFILE"
        case ENOBUFS: return "ENOBUFS"
        case ENOMEM: return "ENOMEM"
        default: return "errno \(code)"
        }
    }

    private func drop(_ client: ControlClientState) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        Glibc.close(client.fd)
        onDescriptorsChanged?()
        if client.monitor != nil { onMonitorsChanged?() }
    }

    /// Handles at most `maxRequestsPerWakeUp` requests: the bytes are peeked and only those of
    /// the requests handled are taken, so the rest waits in the kernel's buffer and the
    /// descriptor stays readable (the loop comes back after its other work, frames first).
    private func readRequests(_ client: ControlClientState) {
        var budget = Self.maxRequestsPerWakeUp
        while budget > 0 {
            let n = readBuffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
            if n == 0 { return drop(client) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                return drop(client)
            }
            // The whole lines among the peeked bytes, as many as the budget allows.
            var lines: [String] = []
            var taken = 0
            while lines.count < budget, let newline = readBuffer[taken..<n].firstIndex(of: 0x0A) {
                client.input.append(contentsOf: readBuffer[taken..<newline])
                lines.append(String(decoding: client.input, as: UTF8.self))
                client.input.removeAll(keepingCapacity: true)
                taken = newline + 1
            }
            if lines.isEmpty {
                // Part of a line: kept, and the next bytes read.
                client.input.append(contentsOf: readBuffer[..<n])
                taken = n
            }
            _ = readBuffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, taken, Int32(MSG_DONTWAIT)) }
            if client.input.count > ControlProtocol.maxRequestBytes {
                reply(ControlAnswer.refused(id: .null, "request longer than \(ControlProtocol.maxRequestBytes) bytes"), to: client)
                return drop(client)
            }
            for line in lines {
                budget -= 1
                if !line.allSatisfy({ $0 == " " || $0 == "\r" }) { handle(line, from: client) }
                guard clients[client.fd] != nil else { return }
            }
        }
    }

    // MARK: Requests

    private func handle(_ line: String, from client: ControlClientState) {
        switch ControlRequest.parse(line) {
        case .failure(let refusal):
            reply(refusal, to: client)
        case .success(let request):
            let answer: ControlAnswer
            do {
                answer = try perform(request, for: client)
            } catch let error as ControlError {
                answer = .refused(id: request.id, error.message)
            } catch {
                answer = .refused(id: request.id, "\(error)")
            }
            reply(answer, to: client)
            if request.command == "stop", answer.fields["ok"] == .bool(true) {
                flush(client)
                target?.controlStop()
            }
        }
    }

    private func requireTarget() throws -> ControlTarget {
        guard let target else { throw ControlError("the daemon is shutting down") }
        return target
    }

    private func perform(_ request: ControlRequest, for client: ControlClientState) throws -> ControlAnswer {
        let id = request.id
        switch request.command {
        case "hello":
            return .ok(id: id, ["protocol": .number(Double(ControlProtocol.version)), "pid": .number(Double(getpid())),
                                "commands": .array(ControlProtocol.commands.map(JSONValue.string))])
        case "status":
            return .ok(id: id, ["status": try requireTarget().controlStatus().json])
        case "reload":
            let message = try requireTarget().controlReload(plugin: request.string("plugin"))
            return .ok(id: id, ["message": .string(message)])
        case "enable", "disable":
            guard let plugin = request.string("plugin") else { throw ControlError("\(request.command) needs a \"plugin\"") }
            let target = try requireTarget()
            if request.command == "enable" { try target.controlEnable(plugin: plugin) } else { try target.controlDisable(plugin: plugin) }
            return .ok(id: id, ["message": .string(request.command == "enable"
                ? ControlMessages.enabled(plugin, status: target.controlStatus()) : ControlMessages.disabled(plugin))])
        case "pause", "resume":
            let target = try requireTarget()
            let wasPaused = target.controlStatus().paused
            if request.command == "pause" { target.controlPause() } else { target.controlResume() }
            return .ok(id: id, ["message": .string(request.command == "pause"
                ? ControlMessages.paused(wasPaused: wasPaused) : ControlMessages.resumed(wasPaused: wasPaused))])
        case "stop":
            _ = try requireTarget()
            return .ok(id: id)
        case "logs":
            let plugin = request.string("plugin")
            let lines = recent.all.filter { plugin == nil || $0.plugin == plugin }.map(Self.json)
            if request.flag("follow") { client.logs = ControlClientState.Subscription(id: id, plugin: plugin) }
            return .ok(id: id, ["lines": .array(lines)])
        case "monitor":
            client.monitor = ControlClientState.Subscription(id: id, plugin: request.string("plugin"),
                                                            recognizers: request.flag("recognizers"))
            onMonitorsChanged?()
            return .ok(id: id)
        case "record":
            guard let path = request.string("path"), path.hasPrefix("/") else {
                throw ControlError("record needs an absolute \"path\" to write")
            }
            let seconds = request.number("last") ?? 60
            guard seconds > 0 else { throw ControlError("record needs \"last\" > 0 seconds") }
            let r = try requireTarget().controlRecord(lastSeconds: seconds, to: path)
            return .ok(id: id, ["path": .string(r.path), "devices": .number(Double(r.devices)),
                                "events": .number(Double(r.events)), "seconds": .number(r.seconds)])
        case "scenario":
            guard let name = request.string("name"), !name.isEmpty, !name.contains("/") else {
                throw ControlError("scenario needs a \"name\" (no slashes)")
            }
            guard let directory = request.string("directory"), directory.hasPrefix("/") else {
                throw ControlError("scenario needs an absolute \"directory\"")
            }
            let files = try requireTarget().controlScenario(name: name, lastSeconds: request.number("last") ?? 60, into: directory)
            return .ok(id: id, ["files": .array(files.map(JSONValue.string))])
        default:
            throw ControlError("unknown command \(request.command) (commands: \(ControlProtocol.commands.joined(separator: ", ")))")
        }
    }

    private static func json(_ entry: RecentLines.Entry) -> JSONValue {
        var o: [String: JSONValue] = ["priority": .string(entry.priority.name), "text": .string(entry.text)]
        if let plugin = entry.plugin { o["plugin"] = .string(plugin) }
        return .object(o)
    }

    // MARK: Streams

    /// A diagnostic line: kept for `logs` and sent to every client following them.
    public func publish(log text: String, plugin: String?, priority: LogPriority? = nil) {
        let entry = RecentLines.Entry(plugin: plugin, priority: priority ?? LogPriority.of(text), text: text)
        recent.append(entry)
        for client in Array(clients.values) {
            guard let sub = client.logs, sub.plugin == nil || sub.plugin == plugin else { continue }
            var fields: [String: JSONValue] = ["id": sub.id, "log": Self.json(entry)]
            fields["ok"] = nil
            reply(ControlAnswer(fields: fields), to: client)
        }
    }

    /// An output line (JSON text) as it is written: sent to every client monitoring its plugin;
    /// a line of no plugin (a focus change, `{"t":…,"app":…}`, which every plugin hears) to
    /// every monitoring client.
    public func publish(output line: String, plugin: String?) {
        for client in Array(clients.values) {
            guard let sub = client.monitor, sub.plugin == nil || plugin == nil || sub.plugin == plugin else { continue }
            enqueue("{\"id\":\(sub.id.jsonText),\"line\":\(line)}\n", to: client)
        }
    }

    /// A recognizer's state change and why, for `monitor` with `recognizers`: sent to the
    /// clients monitoring its plugin's recognizers (`{"id":…,"recognizerState":{…}}`).
    public func publish(recognizer report: RecognizerReport) {
        var text: String?
        for client in Array(clients.values) {
            guard let sub = client.monitor, sub.recognizers, sub.plugin == nil || sub.plugin == report.plugin else { continue }
            if text == nil { text = report.json.jsonText }
            enqueue("{\"id\":\(sub.id.jsonText),\"recognizerState\":\(text!)}\n", to: client)
        }
    }

    /// Whether anyone monitors (the host can skip building lines nobody reads).
    public var hasMonitors: Bool { clients.values.contains { $0.monitor != nil } }

    /// Whether anyone monitors recognizers (nobody: recognizers get no observer, and build no reasons).
    public var hasRecognizerMonitors: Bool { clients.values.contains { $0.monitor?.recognizers == true } }

    private func reply(_ answer: ControlAnswer, to client: ControlClientState) {
        enqueue(answer.line + "\n", to: client)
    }

    private func enqueue(_ text: String, to client: ControlClientState) {
        client.pending.append(contentsOf: text.utf8)
        flush(client)
        if client.pending.count > Self.maxPendingBytes { drop(client) }
    }

    private func flush(_ client: ControlClientState) {
        while !client.pending.isEmpty {
            let n = client.pending.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                client.pending.removeFirst(n)
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return
            } else {
                return drop(client)
            }
        }
    }
}

/// One connected client.
final class ControlClientState {
    struct Subscription {
        var id: JSONValue
        var plugin: String?
        var recognizers = false
    }

    let fd: Int32
    let peer: PeerCredentials
    var input: [UInt8] = []
    var pending: [UInt8] = []
    var logs: Subscription?
    var monitor: Subscription?

    init(fd: Int32, peer: PeerCredentials) {
        self.fd = fd
        self.peer = peer
    }
}
