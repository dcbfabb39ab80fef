// swift-tools-version:6.1
import PackageDescription

// The per-event path crosses module boundaries (streams ← gestures ← Lua; the generic core is
// @inlinable so it specializes where used, under the flags of the target using it). Exclusivity
// checks stay in debug builds, where the tests run: they check what the release build relies on,
// that the per-frame state is used on the host's thread only and no access to it is held across a
// call that may use it again (no `@exclusivity(unchecked)` per property; a module built with the
// checks keeps such state in one holder, MotionDaemon's HostThreadState). (-cross-module-
// optimization was faster but left stale code in incremental builds.)
let hotPath: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

// SwiftPM refuses a dependency whose products use unsafe flags, so the library products
// MotionStreams and MotionGestures take them only when this package is not being built as
// someone's dependency: a dependency is checked out (…/checkouts/NAME, Xcode's
// SourcePackages/checkouts/NAME) or downloaded from a registry (…/registry/downloads/…).
// Built here, they keep the flag: without it the drag pipeline costs 4,200 instructions per
// event instead of 1,870 (scripts/bench --callgrind). scripts/check-dependable checks both.
let builtAsDependency = ["/checkouts/", "/registry/downloads/"].contains { Context.packageDirectory.contains($0) }
let libraryHotPath = builtAsDependency ? [] : hotPath

let package = Package(
    name: "motionscript",
    // Linux only: the C shim measures the Lua heap with glibc's mallinfo2 and input comes from
    // evdev. (MotionStreams and MotionGestures are plain Swift, but only Linux is built and tested.)
    products: [
        .executable(name: "motionscript", targets: ["motionscript"]),
        .library(name: "MotionStreams", targets: ["MotionStreams"]),
        .library(name: "MotionGestures", targets: ["MotionGestures"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Lua 5.4 from the system (Debian: liblua5.4-dev), found through pkg-config.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // Linux calls glibc declares only under _GNU_SOURCE (ppoll): a header, no code.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // The only C code written here: the trampoline that raises Lua errors after Swift returned,
        // the capped allocator and the timeout hook.
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        // libxcb (Debian: libxcb1-dev), for the X11 focus provider: a header, no code.
        .systemLibrary(name: "CXCB", path: "Sources/CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev"])]),
        // libwayland-client (Debian: libwayland-dev), for the wlroots focus provider: a header, no code.
        .systemLibrary(name: "CWayland", path: "Sources/CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        // The client code of wlroots' foreign-toplevel protocol, as wayland-scanner generates it
        // from the XML beside it (scripts/generate-wayland-protocol): generated C, not written here.
        .target(name: "CForeignToplevel", dependencies: ["CWayland"], exclude: ["wlr-foreign-toplevel-management-unstable-v1.xml"]),
        // sd-bus from libsystemd (Debian: libsystemd-dev), for the KWin and GNOME Shell focus
        // providers' session bus: a header, no code.
        .systemLibrary(name: "CSDBus", path: "Sources/CSDBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // JSON: the one writer (output lines, messages, control answers) and the one grammar
        // (JSONScanner, RFC 8259) under its two readings: input lines in place (FlatJSON) and
        // parsed values (JSONValue: expected output, the control protocol, the desktops' replies). Depends on nothing of ours; the per-line writing and reading is
        // @inlinable, so it specializes where used.
        .target(name: "MotionJSON", swiftSettings: hotPath),
        // Pure-Swift streams core: no Lua, no I/O.
        .target(name: "MotionStreams", swiftSettings: libraryHotPath),
        // Pointer model, elements, recognizers, gesture sources and operators.
        .target(name: "MotionGestures", dependencies: ["MotionStreams"], swiftSettings: libraryHotPath),
        // Event-file decoders and live devices, producing pointer frames.
        .target(name: "MotionInput", dependencies: ["MotionDiagnostics", "MotionGestures", "MotionStreams", "MotionJSON", "CLinux"], swiftSettings: hotPath),
        // The proxy's decisions (which frames of a touch the desktop's clone of the device gets,
        // which are held, which consumed) and the clone's identity: pure, no I/O, time injected.
        .target(name: "MotionProxy", dependencies: ["MotionInput", "MotionGestures"], swiftSettings: hotPath),
        // The proxy's uinput clone of a device (`--proxy` on live input): the I/O MotionProxy leaves out.
        .target(name: "MotionClone", dependencies: ["MotionProxy", "MotionInput", "CLinux"]),
        // The process's one stderr path (the daemon's diversion applies to every line): no dependencies.
        .target(name: "MotionDiagnostics"),
        // What scripts do to the desktop: exec, the uinput keyboard and mouse, key names.
        .target(name: "MotionActions", dependencies: ["CLinux", "MotionDiagnostics"]),
        // Lua host and the `motion` module.
        .target(name: "MotionLua", dependencies: ["MotionDiagnostics", "CLua", "CLuaShim", "MotionJSON", "MotionStreams", "MotionGestures", "MotionActions"],
                swiftSettings: hotPath),
        // The focused application from the desktop (sway/i3, Hyprland, wlroots, X11, KWin, GNOME Shell), for `apps =`.
        .target(name: "MotionDesktop", dependencies: ["MotionGestures", "MotionJSON", "CXCB", "CWayland", "CForeignToplevel", "CSDBus", "CLinux"]),
        // The plugin host (plugins/: every plugin in a Lua state of its own, its limits (limits/),
        // output router and watchdog), which runs a config folder for the daemon and one script
        // for `run`; the one loop over an event file (`Replay`), the live loop and its input
        // (live/), the proxy over a replay and live (proxy/), output files, the file watcher.
        // (definitions/motion.lua, the LuaLS definitions `init` writes, is compiled in: an
        // installed binary needs no files beside it.)
        .target(name: "MotionPluginHost", dependencies: ["MotionDiagnostics", "MotionJSON", "MotionLua", "CLuaShim", "CLinux", "MotionInput", "MotionProxy", "MotionClone", "MotionActions", "MotionDesktop", "MotionGestures", "MotionStreams", "MotionCheck"],
                resources: [.embedInCode("definitions/motion.lua")], swiftSettings: hotPath),
        // `motionscript run`: one script as the plugin host's one plugin, over an event file or
        // live input; `run --watch`, its versions reloaded in place (watch/); `init`'s starter
        // script (starter/).
        .target(name: "MotionRun", dependencies: ["MotionDiagnostics", "MotionJSON", "MotionPluginHost", "MotionLua", "CLinux", "MotionInput", "MotionProxy", "MotionActions", "MotionDesktop", "MotionGestures", "MotionStreams"],
                swiftSettings: hotPath),
        // Scenarios (`motionscript test`): discovery, the worker processes that run them, the
        // comparison with expected output and the reports.
        .target(name: "MotionScenarios", dependencies: ["MotionJSON", "MotionPluginHost", "MotionLua", "MotionInput", "MotionGestures", "MotionStreams"],
                swiftSettings: hotPath),
        // `motionscript plot` and `run --plot`: a run's trace drawn as SVG.
        .target(name: "MotionPlot", dependencies: ["MotionJSON", "MotionPluginHost", "MotionRun", "MotionLua", "MotionInput", "MotionGestures", "MotionStreams"],
                swiftSettings: hotPath),
        // The control socket: its protocol, the server a host answers through (`ControlTarget`)
        // and the client (`ctl`); the recent lines it keeps for `ctl logs`, with journal priorities.
        .target(name: "MotionControl", dependencies: ["CLinux", "MotionJSON", "MotionGestures"]),
        // `motionscript daemon`: the plugin host (MotionPluginHost) over a config folder,
        // watched so each plugin reloads alone (loop/); the service around it (service/: the
        // control socket's target, systemd's notify protocol, signals, the unit and the autostart
        // entry, failure notices, the emergency gesture) and the flight recorder (recorder/).
        .target(name: "MotionDaemon", dependencies: ["MotionDiagnostics", "CLinux", "MotionJSON", "MotionControl", "MotionPluginHost", "MotionRun", "MotionProxy", "MotionClone", "MotionScenarios", "MotionLua", "MotionInput", "MotionActions", "MotionGestures", "MotionStreams"]),
        // `motionscript check`: what can be known about plugins before a gesture happens (the
        // plugin host says it of each plugin it loads).
        .target(name: "MotionCheck", dependencies: ["MotionLua", "MotionActions", "MotionGestures", "MotionStreams"]),
        .executableTarget(
            name: "motionscript",
            dependencies: ["MotionDiagnostics", "MotionJSON", "MotionPluginHost", "MotionRun", "MotionScenarios", "MotionPlot", "MotionDaemon", "MotionLua", "MotionInput", "MotionActions", "MotionDesktop", "MotionControl", "MotionCheck", "MotionGestures",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "motionbench", dependencies: ["MotionPluginHost", "MotionLua", "MotionGestures", "MotionStreams", "MotionInput", "MotionProxy"], path: "Sources/motionbench"),
        .target(name: "MotionTestSupport", dependencies: ["MotionStreams", "CLinux"], path: "Tests/MotionTestSupport"),
        .testTarget(name: "MotionStreamsTests", dependencies: ["MotionStreams", "MotionTestSupport"]),
        .testTarget(name: "MotionGesturesTests", dependencies: ["MotionGestures", "MotionStreams", "MotionTestSupport"]),
        .testTarget(name: "MotionJSONTests", dependencies: ["MotionJSON"]),
        .testTarget(name: "MotionInputTests", dependencies: ["MotionTestSupport", "MotionJSON", "MotionInput", "MotionGestures"]),
        .testTarget(name: "MotionProxyTests", dependencies: ["MotionTestSupport", "MotionProxy", "MotionInput", "MotionGestures"]),
        .testTarget(name: "MotionCloneTests", dependencies: ["MotionClone", "MotionProxy", "MotionInput"]),
        // libwayland-server, for a compositor in MotionDesktopTests: a header, no code.
        .systemLibrary(name: "CWaylandServer", path: "Tests/CWaylandServer", pkgConfig: "wayland-server", providers: [.apt(["libwayland-dev"])]),
        .testTarget(name: "MotionDesktopTests", dependencies: ["MotionDesktop", "MotionGestures", "CWaylandServer", "CSDBus"]),
        .testTarget(name: "MotionActionsTests", dependencies: ["MotionActions"]),
        .testTarget(name: "MotionLuaTests", dependencies: ["MotionTestSupport", "MotionJSON", "MotionLua", "MotionActions", "MotionGestures", "MotionStreams", "CLua", "CLuaShim"]),
        .testTarget(name: "MotionDaemonTests", dependencies: ["MotionTestSupport", "MotionDaemon", "MotionActions", "MotionPluginHost", "MotionRun", "MotionLua", "MotionInput", "MotionGestures", "CLua"]),
        .testTarget(name: "MotionControlTests", dependencies: ["MotionTestSupport", "MotionJSON", "MotionControl", "MotionProxy", "MotionCheck", "MotionDaemon", "MotionPluginHost", "MotionRun", "MotionScenarios", "MotionInput", "MotionGestures", "MotionActions"],
                    exclude: ["Fixtures"]),
        // What the tests of the plugin host, `run`, scenarios, plots and the command line share that
        // needs the Lua host (an output that counts); MotionTestSupport needs none of it.
        .target(name: "MotionHostTestSupport", dependencies: ["MotionLua", "MotionStreams"], path: "Tests/MotionHostTestSupport"),
        // The tests that start the built binary (runMotionscript, motionscriptBinary) depend on
        // `motionscript` so that it is built before them.
        .testTarget(name: "MotionPluginHostTests", dependencies: ["MotionDiagnostics", "MotionTestSupport", "MotionHostTestSupport", "MotionJSON", "MotionPluginHost", "MotionRun", "MotionProxy", "MotionLua", "MotionActions", "MotionInput", "MotionGestures", "MotionStreams", "motionscript"]),
        .testTarget(name: "MotionRunTests", dependencies: ["MotionTestSupport", "MotionHostTestSupport", "MotionJSON", "MotionPluginHost", "MotionRun", "MotionScenarios", "MotionLua", "MotionActions", "MotionInput", "MotionGestures", "MotionStreams", "motionscript"]),
        .testTarget(name: "MotionScenariosTests", dependencies: ["MotionTestSupport", "MotionJSON", "MotionScenarios", "motionscript"]),
        .testTarget(name: "MotionPlotTests", dependencies: ["MotionTestSupport", "MotionPlot", "MotionPluginHost", "MotionRun", "MotionStreams", "motionscript"]),
        // The command line through the built binary: usage, options, commands, the process under faults.
        .testTarget(name: "MotionscriptTests", dependencies: ["MotionTestSupport", "MotionJSON", "MotionPluginHost", "MotionRun", "MotionScenarios", "MotionLua", "MotionActions", "MotionInput", "motionscript"]),
    ],
    swiftLanguageModes: [.v6]
)
