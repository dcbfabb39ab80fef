import Testing
import MotionPluginHost
import MotionRun

/// A folder on NFS, SMB, 9p or FUSE: inotify misses changes there, so the daemon (and
/// `run --watch`) says so once at start-up instead of silently never reloading.
@Suite struct UnwatchedFilesystemTests {
    @Test func aFolderOnNFSIsNamedWithWhatStillWorks() {
        let warning = UnwatchedFilesystem.warning(for: "/home/u/.config/motionscript", what: "the config folder",
                                                  reload: "`motionscript ctl reload` or a restart loads them",
                                                  type: { _ in 0x6969 })
        #expect(warning == "warning: the config folder /home/u/.config/motionscript is on NFS, where file changes may not be seen (inotify misses changes made on other machines, or all of them): edits may not reload; `motionscript ctl reload` or a restart loads them")
    }

    @Test func networkAndVirtualFilesystemsWarnLocalOnesDoNot() {
        func name(_ magic: Int?) -> String? {
            UnwatchedFilesystem.warning(for: "/f", what: "x", reload: "y", type: { _ in magic })
                .map { String($0.split(separator: " ")[5].dropLast()) }
        }
        #expect(name(0xFF53_4D42) == "CIFS")
        #expect(name(0xFE53_4D42) == "SMB2")
        #expect(name(0x0102_1997) == "9p")
        #expect(name(0x6573_5546) == "FUSE")
        // ext4, btrfs, tmpfs, xfs, and a failed statfs: nothing said.
        #expect([0xEF53, 0x9123_683E, 0x0102_1994, 0x5846_5342, nil].map(name) == [nil, nil, nil, nil, nil])
    }

    @Test func theRealLookupReadsTheTemporaryFolder() {
        // /tmp is local here (tmpfs or the root filesystem): a type, and no warning.
        #expect(UnwatchedFilesystem.type(of: "/tmp") != nil)
        #expect(UnwatchedFilesystem.type(of: "/no/such/path") == nil)
    }
}
