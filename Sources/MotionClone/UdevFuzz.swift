#if canImport(Glibc)
import Glibc
#endif
import MotionInput
import MotionProxy

/// The fuzz of a touchpad's axes as the system's libinput knows it. udev's libinput rules
/// (90-libinput-fuzz-override.rules) move a touchpad's kernel fuzz into the udev properties
/// `LIBINPUT_FUZZ_<axis in hex>` and set the kernel's to 0 (libinput filters jitter itself), so
/// `EVIOCGABS` on the real device says 0 where the hardware said more. The clone is made with
/// the fuzz from those properties, and udev does the same to it: libinput then filters the
/// clone's jitter as it did the pad's.
public enum UdevFuzz {
    /// `LIBINPUT_FUZZ_XX=N` properties (`E:` lines) of a udev database entry: axis → fuzz.
    public static func parse(_ entry: String) -> [UInt16: Int32] {
        var fuzz: [UInt16: Int32] = [:]
        for line in entry.split(separator: "\n") where line.hasPrefix("E:LIBINPUT_FUZZ_") {
            let pair = line.dropFirst("E:LIBINPUT_FUZZ_".count).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let code = UInt16(pair[0], radix: 16), let value = Int32(pair[1]), value > 0 else { continue }
            fuzz[code] = value
        }
        return fuzz
    }

    /// `identity` with each axis the kernel says has no fuzz given the fuzz udev kept for it.
    public static func applied(_ fuzz: [UInt16: Int32], to identity: CloneIdentity) -> CloneIdentity {
        var d = identity.device
        for (code, value) in fuzz where d.absinfo[code]?.fuzz == 0 { d.absinfo[code]!.fuzz = value }
        return CloneIdentity(d)
    }

    /// The udev database entry of the device node `node` (/run/udev/data/cMAJOR:MINOR); empty
    /// when there is none (no udev, a pipe).
    public static func entry(node: String, directory: String = "/run/udev/data") -> String {
        var info = stat()
        guard stat(node, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return "" }
        let dev = UInt64(info.st_rdev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
        let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
        guard let file = fopen("\(directory)/c\(major):\(minor)", "r") else { return "" }
        defer { fclose(file) }
        var text = ""
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil { text += String(cString: line) }
        return text
    }
}
