import Testing
@testable import MotionDesktop

/// docs/desktop.md, "Where the focus comes from": the provider chosen from the environment or
/// by name, and the reason the daemon says at start.
@Suite struct FocusProviderChoiceTests {
    private func choose(named forced: String? = nil, _ environment: [String: String]) -> (provider: String, reason: String, source: String?) {
        switch FocusProviderChoice.choose(forced: forced, environment: environment) {
        case .success(let choice): return (choice.provider, choice.reason, choice.source?.name)
        case .failure(let error): return ("error", error.description, nil)
        }
    }

    @Test func theEnvironmentPicksTheFirstProviderItNamesAndSaysWhy() {
        #expect(choose(["SWAYSOCK": "/run/sway.sock", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == ("sway", "SWAYSOCK is set", "sway"))
        #expect(choose(["I3SOCK": "/run/i3.sock", "DISPLAY": ":0"]) == ("sway", "I3SOCK is set", "sway"))
        #expect(choose(["HYPRLAND_INSTANCE_SIGNATURE": "abc", "WAYLAND_DISPLAY": "wayland-1"]) == ("hyprland", "HYPRLAND_INSTANCE_SIGNATURE is set", "hyprland"))
        // Another Wayland session (river, labwc, wayfire): wlroots before XWayland's DISPLAY.
        #expect(choose(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "wlroots"]) == ("wlroots", "WAYLAND_DISPLAY is set", "wlroots"))
        // GNOME's and KDE's compositors lack the protocol: not wlroots, nor XWayland's DISPLAY, but their own providers.
        #expect(choose(["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"])
                == ("gnome", "XDG_CURRENT_DESKTOP names GNOME, WAYLAND_DISPLAY is set", "gnome"))
        #expect(choose(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"])
                == ("kwin", "XDG_CURRENT_DESKTOP names KDE, WAYLAND_DISPLAY is set", "kwin"))
        #expect(choose(["DISPLAY": ":1"]) == ("x11", "DISPLAY is set", "x11"))
        #expect(choose(["SWAYSOCK": "", "DISPLAY": ""]) == ("none", "no SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, WAYLAND_DISPLAY or DISPLAY in the environment", nil))
    }

    @Test func aNamedProviderIsUsedOrSaysWhatItLacks() {
        #expect(choose(named: "wlroots", ["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/s"]) == ("wlroots", "--app-provider wlroots", "wlroots"))
        #expect(choose(named: "i3", ["I3SOCK": "/s"]) == ("sway", "--app-provider i3", "sway"))
        #expect(choose(named: "none", ["SWAYSOCK": "/s"]) == ("none", "--app-provider none", nil))
        #expect(choose(named: "wlroots", [:]) == ("error", "--app-provider wlroots needs WAYLAND_DISPLAY set", nil))
        #expect(choose(named: "kwin", [:]) == ("kwin", "--app-provider kwin", "kwin"))
        #expect(choose(named: "gnome", [:]) == ("gnome", "--app-provider gnome", "gnome"))
        #expect(choose(named: "plasma", [:]) == ("error", "unknown app provider plasma (sway, hyprland, kwin, gnome, wlroots, x11 or none)", nil))
        #expect(FocusProviderChoice.names == ["sway", "i3", "hyprland", "kwin", "gnome", "wlroots", "x11", "none"])
    }

    @Test func theStartLineNamesTheProviderAndItsReason() throws {
        let chosen = try FocusProviderChoice.choose(forced: nil, environment: ["SWAYSOCK": "/s"]).get()
        #expect(chosen.description == "focus from sway (SWAYSOCK is set)")
        let none = try FocusProviderChoice.choose(forced: "none", environment: [:]).get()
        #expect(none.description == "focus from no provider (--app-provider none): recognizers whose 'apps' name applications do not begin")
    }
}
