import MotionStreams

/// An out-of-range recognizer option (`OptionError`, shared with sources), e.g.
/// `taps must be >= 1 (got 0)`. Recognizer initializers throw it.
public typealias RecognizerOptionError = OptionError
