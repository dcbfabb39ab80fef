/// KDE Plasma and GNOME Shell (Wayland): their `FocusProviderChoice` entries until their
/// sources are built (issue 33, the KWin script and the GNOME Shell extension). Named with
/// `--app-provider`, each says it is not built yet; the environment never selects them, so a
/// Plasma or GNOME session keeps what it had (x11 through XWayland's DISPLAY, else none).
extension FocusProvider {
    /// Whether a name has an owner on the session bus: what the kwin and gnome entries will ask
    /// in an X11 session of KDE or GNOME. No entry asks yet.
    public static let sessionBusAnswers: @Sendable (String) -> Bool = { _ in false }

    public static let kwin = FocusProvider(
        name: "kwin", variable: nil, detect: { _ in nil },
        make: { _ in .failure(FocusError("--app-provider kwin: the KDE Plasma (KWin) provider is not built yet; under Plasma's X11 session use --app-provider x11")) })

    public static let gnome = FocusProvider(
        name: "gnome", variable: nil, detect: { _ in nil },
        make: { _ in .failure(FocusError("--app-provider gnome: the GNOME Shell provider is not built yet; under GNOME's X11 session use --app-provider x11")) })
}
