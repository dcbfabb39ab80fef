/// evdev event types, codes and properties used by the decoders (values from linux/input-event-codes.h).
/// Kept as plain constants because the C macros do not reach Swift.
public enum EV {
    public static let SYN: UInt16 = 0x00
    public static let KEY: UInt16 = 0x01
    public static let REL: UInt16 = 0x02
    public static let ABS: UInt16 = 0x03
    public static let MSC: UInt16 = 0x04
    public static let SW: UInt16 = 0x05
    public static let LED: UInt16 = 0x11
    public static let SND: UInt16 = 0x12
    public static let REP: UInt16 = 0x14
    public static let FF: UInt16 = 0x15
    public static let PWR: UInt16 = 0x16
    public static let FF_STATUS: UInt16 = 0x17

    /// The types the kernel defines; anything else is "unknown" and counted, not decoded.
    public static func isKnownType(_ type: UInt16) -> Bool {
        type <= SW || (type >= LED && type <= FF_STATUS && type != 0x13)
    }

    public static func typeName(_ type: UInt16) -> String? {
        switch type {
        case SYN: return "EV_SYN"
        case KEY: return "EV_KEY"
        case REL: return "EV_REL"
        case ABS: return "EV_ABS"
        case MSC: return "EV_MSC"
        case SW: return "EV_SW"
        case LED: return "EV_LED"
        case SND: return "EV_SND"
        case REP: return "EV_REP"
        case FF: return "EV_FF"
        case PWR: return "EV_PWR"
        case FF_STATUS: return "EV_FF_STATUS"
        default: return nil
        }
    }
}

public enum SYN {
    public static let REPORT: UInt16 = 0
    public static let CONFIG: UInt16 = 1
    public static let MT_REPORT: UInt16 = 2
    public static let DROPPED: UInt16 = 3
}

public enum REL {
    public static let X: UInt16 = 0x00
    public static let Y: UInt16 = 0x01
    public static let HWHEEL: UInt16 = 0x06
    public static let WHEEL: UInt16 = 0x08
}

public enum ABS {
    public static let X: UInt16 = 0x00
    public static let Y: UInt16 = 0x01
    public static let PRESSURE: UInt16 = 0x18
    public static let MT_SLOT: UInt16 = 0x2f
    public static let MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let MT_POSITION_X: UInt16 = 0x35
    public static let MT_POSITION_Y: UInt16 = 0x36
    public static let MT_TRACKING_ID: UInt16 = 0x39
    public static let MT_PRESSURE: UInt16 = 0x3a

    /// Multi-touch axes start at ABS_MT_SLOT (0x2f) and end at ABS_MT_TOOL_Y (0x3d).
    public static func isMultiTouch(_ code: UInt16) -> Bool { code >= MT_SLOT && code <= 0x3d }
}

public enum BTN {
    public static let LEFT: UInt16 = 0x110
    public static let RIGHT: UInt16 = 0x111
    public static let MIDDLE: UInt16 = 0x112
    public static let TOOL_FINGER: UInt16 = 0x145
    public static let TOUCH: UInt16 = 0x14a
}

public enum INPUT_PROP {
    public static let POINTER = 0
    public static let DIRECT = 1
    public static let BUTTONPAD = 2
}

/// Names for comments in recordings and error messages; codes without a name print as hex.
enum EvdevNames {
    static func code(type: UInt16, code: UInt16) -> String? {
        switch (type, code) {
        case (EV.SYN, SYN.REPORT): return "SYN_REPORT"
        case (EV.SYN, SYN.CONFIG): return "SYN_CONFIG"
        case (EV.SYN, SYN.MT_REPORT): return "SYN_MT_REPORT"
        case (EV.SYN, SYN.DROPPED): return "SYN_DROPPED"
        case (EV.REL, REL.X): return "REL_X"
        case (EV.REL, REL.Y): return "REL_Y"
        case (EV.REL, REL.HWHEEL): return "REL_HWHEEL"
        case (EV.REL, REL.WHEEL): return "REL_WHEEL"
        case (EV.ABS, ABS.X): return "ABS_X"
        case (EV.ABS, ABS.Y): return "ABS_Y"
        case (EV.ABS, ABS.PRESSURE): return "ABS_PRESSURE"
        case (EV.ABS, ABS.MT_SLOT): return "ABS_MT_SLOT"
        case (EV.ABS, ABS.MT_TOUCH_MAJOR): return "ABS_MT_TOUCH_MAJOR"
        case (EV.ABS, ABS.MT_POSITION_X): return "ABS_MT_POSITION_X"
        case (EV.ABS, ABS.MT_POSITION_Y): return "ABS_MT_POSITION_Y"
        case (EV.ABS, ABS.MT_TRACKING_ID): return "ABS_MT_TRACKING_ID"
        case (EV.ABS, ABS.MT_PRESSURE): return "ABS_MT_PRESSURE"
        case (EV.KEY, BTN.LEFT): return "BTN_LEFT"
        case (EV.KEY, BTN.RIGHT): return "BTN_RIGHT"
        case (EV.KEY, BTN.MIDDLE): return "BTN_MIDDLE"
        case (EV.KEY, BTN.TOOL_FINGER): return "BTN_TOOL_FINGER"
        case (EV.KEY, BTN.TOUCH): return "BTN_TOUCH"
        default: return nil
        }
    }
}
