/// Which desktop provider a run uses: `--app-provider NAME`, or else the first in `providers`
/// whose environment points at it (docs/desktop.md, "Where the focus comes from"). The choice
/// says why, so the daemon can say it at start and `ctl status` can show it.
///
/// The table is the one place a provider is added: a `FocusProvider` entry (its name, what in
/// the environment selects it, how its `FocusSource` is made), placed where its detection must
/// come before more general ones (`wlroots` and `x11` last: Wayland and XWayland sockets exist
/// under most desktops).
public enum FocusProviderChoice {
    /// In the order the environment is tried.
    public static let providers: [FocusProvider] = [.sway, .hyprland, .kwin, .gnome, .wlroots, .x11]

    /// Every name `--app-provider` takes (aliases included), and `none`.
    public static var names: [String] { providers.flatMap { [$0.name] + $0.aliases } + ["none"] }

    /// The names for a usage message: "sway, hyprland, kwin, gnome, wlroots, x11 or none".
    public static var namesText: String { providers.map(\.name).joined(separator: ", ") + " or none" }

    /// The provider named `name` (an alias too), or nil.
    public static func provider(named name: String) -> FocusProvider? {
        providers.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The provider to use and why, with its source (nil: none); a failure when a forced
    /// provider cannot be made (its variables are missing, or it is not built).
    /// - Parameter answers: whether a name has an owner on the session bus, for entries that ask
    ///   (an X11 session of KDE or GNOME); nil: `FocusProvider.sessionBusAnswers`. Tests inject one.
    public static func choose(forced: String?, environment: [String: String],
                              answers: ((String) -> Bool)? = nil) -> Result<FocusChoice, FocusError> {
        let session = FocusEnvironment(variables: environment, answers: answers ?? FocusProvider.sessionBusAnswers)
        switch forced {
        case "none"?:
            return .success(FocusChoice(source: nil, provider: "none", reason: "--app-provider none"))
        case let name?:
            guard let provider = provider(named: name) else {
                return .failure(FocusError("unknown app provider \(name) (\(namesText))"))
            }
            return provider.make(session).map { FocusChoice(source: $0, provider: provider.name, reason: "--app-provider \(name)") }
        case nil:
            for provider in providers {
                guard let reason = provider.detect(session) else { continue }
                switch provider.make(session) {
                case .success(let source): return .success(FocusChoice(source: source, provider: provider.name, reason: reason))
                // Pointed at but not usable (not built yet): the next one may be.
                case .failure: continue
                }
            }
            let variables = providers.compactMap(\.variable)
            let list = variables.dropLast().joined(separator: ", ") + (variables.count > 1 ? " or " : "") + (variables.last ?? "")
            return .success(FocusChoice(source: nil, provider: "none", reason: "no \(list) in the environment"))
        }
    }

    /// The source alone (nil: none): `choose` without the reason.
    public static func source(forced: String?, environment: [String: String],
                              answers: ((String) -> Bool)? = nil) -> Result<FocusSource?, FocusError> {
        choose(forced: forced, environment: environment, answers: answers).map(\.source)
    }
}

/// What `FocusProviderChoice.choose` decided.
public struct FocusChoice {
    /// Nil: no provider (`none`).
    public let source: FocusSource?
    /// `sway`, `hyprland`, `kwin`, `gnome`, `wlroots`, `x11` or `none`.
    public let provider: String
    /// Why: `SWAYSOCK is set`, `--app-provider x11`, `no SWAYSOCK, … in the environment`.
    public let reason: String

    public init(source: FocusSource?, provider: String, reason: String) {
        self.source = source
        self.provider = provider
        self.reason = reason
    }

    /// The line the daemon and `run` write at start: `focus from sway (SWAYSOCK is set)`.
    public var description: String {
        source == nil ? "focus from no provider (\(reason)): recognizers whose 'apps' name applications do not begin"
                      : "focus from \(provider) (\(reason))"
    }
}

/// One desktop's entry in `FocusProviderChoice.providers`.
public struct FocusProvider: Sendable {
    /// The `--app-provider` name.
    public let name: String
    /// Other names it takes (`i3` for sway).
    public let aliases: [String]
    /// The environment variable whose presence selects it, for the message when none is set.
    public let variable: String?
    /// Why the environment points at this provider (`SWAYSOCK is set`), or nil when it does not.
    public let detect: @Sendable (FocusEnvironment) -> String?
    /// Its source, made from the environment; a failure says what is missing.
    public let make: @Sendable (FocusEnvironment) -> Result<FocusSource, FocusError>

    public init(name: String, aliases: [String] = [], variable: String?,
                detect: @escaping @Sendable (FocusEnvironment) -> String?,
                make: @escaping @Sendable (FocusEnvironment) -> Result<FocusSource, FocusError>) {
        self.name = name
        self.aliases = aliases
        self.variable = variable
        self.detect = detect
        self.make = make
    }

}

/// What a provider's entry decides from: the process's environment variables, and whether a
/// name has an owner on the session bus (asked only by entries that need it).
public struct FocusEnvironment {
    public let variables: [String: String]
    public let answers: (String) -> Bool

    public init(variables: [String: String], answers: @escaping (String) -> Bool) {
        self.variables = variables
        self.answers = answers
    }

    /// The value of a variable when set and not empty.
    public func value(_ name: String) -> String? {
        variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `XDG_CURRENT_DESKTOP` (a colon-separated list) names `desktop` (case-insensitive).
    public func currentDesktop(is desktop: String) -> Bool {
        (value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").contains { $0.lowercased() == desktop.lowercased() }
    }
}

extension FocusProvider {
    public static let sway = FocusProvider(
        name: "sway", aliases: ["i3"], variable: "SWAYSOCK",
        detect: { env in
            if env.value("SWAYSOCK") != nil { return "SWAYSOCK is set" }
            return env.value("I3SOCK") != nil ? "I3SOCK is set" : nil
        },
        make: { env in
            guard let socket = env.value("SWAYSOCK") ?? env.value("I3SOCK") else {
                return .failure(FocusError("--app-provider sway needs SWAYSOCK (or I3SOCK) set"))
            }
            return .success(SwayFocusSource(path: socket))
        })

    public static let hyprland = FocusProvider(
        name: "hyprland", variable: "HYPRLAND_INSTANCE_SIGNATURE",
        detect: { env in env.value("HYPRLAND_INSTANCE_SIGNATURE") != nil ? "HYPRLAND_INSTANCE_SIGNATURE is set" : nil },
        make: { env in
            guard let signature = env.value("HYPRLAND_INSTANCE_SIGNATURE") else {
                return .failure(FocusError("--app-provider hyprland needs HYPRLAND_INSTANCE_SIGNATURE set"))
            }
            let runtime = env.value("XDG_RUNTIME_DIR") ?? "/run/user/\(getuidValue())"
            return .success(HyprlandFocusSource(directory: runtime + "/hypr/" + signature))
        })

    /// wlroots' foreign-toplevel protocol (river, labwc, wayfire; sway too): chosen for a
    /// Wayland session no earlier entry claimed, unless it is GNOME's or KDE's (their
    /// compositors do not offer the protocol; their own entries serve them).
    public static let wlroots = FocusProvider(
        name: "wlroots", variable: "WAYLAND_DISPLAY",
        detect: { env in
            guard env.value("WAYLAND_DISPLAY") != nil,
                  !env.currentDesktop(is: "GNOME"), !env.currentDesktop(is: "KDE") else { return nil }
            return "WAYLAND_DISPLAY is set"
        },
        make: { env in
            guard let display = env.value("WAYLAND_DISPLAY") else {
                return .failure(FocusError("--app-provider wlroots needs WAYLAND_DISPLAY set"))
            }
            return .success(WlrootsFocusSource(display: display))
        })

    public static let x11 = FocusProvider(
        name: "x11", variable: "DISPLAY",
        detect: { env in env.value("DISPLAY") != nil ? "DISPLAY is set" : nil },
        make: { env in .success(X11FocusSource(display: env.value("DISPLAY"))) })
}

#if canImport(Glibc)
import Glibc
private func getuidValue() -> UInt32 { getuid() }
#endif
