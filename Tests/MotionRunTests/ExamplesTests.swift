import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionLua

private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")

/// Runs `examples/NAME.lua` over `examples/NAME.events.jsonl` as `motionscript run` does.
private func run(_ name: String) throws -> [String] {
    let output = CollectedOutput()
    try Runner.run(RunOptions(scriptPath: examples.appendingPathComponent("\(name).lua").path,
                              eventsPath: examples.appendingPathComponent("\(name).events.jsonl").path),
                   output: output)
    return output.lines
}

/// The bundled examples of issue 3, their output pinned and checked by hand in the comments.
@Suite struct ExamplesTests {
    @Test func pinchZoomRotateDrivesThreePropertiesFromTwoFingers() throws {
        #expect(try run("pinch-zoom-rotate") == [
            // Each property's value at subscription.
            #"{"t":0,"name":"position","value":{"x":200,"y":200}}"#,
            #"{"t":0,"name":"rotation","value":0}"#,
            #"{"t":0,"name":"scale","value":1}"#,
            // Fingers (100,200),(300,200): reference vector (200,0), centroid (200,200).
            // Finger 2 to (300,400): vector (200,200), centroid (200,300). Translation (0,100)
            // is past 10, rotation atan2(200,200) − atan2(0,200) = π/4 past π/36, scale
            // |(200,200)|/|(200,0)| = √2 past 1.05: all three begin and read their properties.
            #"{"t":0.016,"name":"position","value":{"x":200,"y":300}}"#,
            #"{"t":0.016,"name":"rotation","value":0.7853981633974483}"#,
            #"{"t":0.016,"name":"scale","value":1.4142135623730951}"#,
            // Finger 2 to (100,400): vector (0,200): π/2 from the reference, length ratio 1;
            // centroid (100,300), translation (−100,100) from the cached (200,200).
            #"{"t":0.032,"name":"position","value":{"x":100,"y":300}}"#,
            #"{"t":0.032,"name":"rotation","value":1.5707963267948966}"#,
            #"{"t":0.032,"name":"scale","value":1}"#,
            // 0.048: both lift, all three end: the caches clear and nothing is emitted.
            // Second gesture (100,100),(100,300) → finger 4 to (100,400): vector (0,200) →
            // (0,300), no rotation (0 is not past π/36: nothing), scale 300/200 = 1.5 times the
            // size left by the first gesture (1); centroid (100,200) → (100,250), added to the
            // position left at (100,300).
            #"{"t":0.516,"name":"position","value":{"x":100,"y":350}}"#,
            #"{"t":0.516,"name":"scale","value":1.5}"#,
        ])
    }

    @Test func doubleTapAndSingleTapOnTheSameElement() throws {
        #expect(try run("double-tap") == [
            // Tap at 0–0.1: the double tap waits for a second tap until 0.1 + 0.3 = 0.4 and
            // fails then (decided at the next frame, t = 1); the single tap, which waited on it,
            // is recognized stamped 0.4, at its lift position (102,101).
            #"{"t":0.4,"name":"single","state":"active"}"#,
            #"{"t":0.4,"name":"single","value":{"x":102,"y":101}}"#,
            #"{"t":0.4,"name":"single","state":"atRest"}"#,
            // Taps 1.0–1.08 and 1.2–1.28 (second starts 0.12 after the first lift, within 0.3):
            // the double tap is recognized at the second lift (204,203); the single tap, waiting
            // since 1.08, fails.
            #"{"t":1.28,"name":"double","state":"active"}"#,
            #"{"t":1.28,"name":"double","value":{"x":204,"y":203}}"#,
            #"{"t":1.28,"name":"double","state":"atRest"}"#,
            // Tap 2.0–2.1, the last input: at the end of input the double tap fails at
            // 2.1 + 0.3 = 2.4 and the single tap is recognized then.
            #"{"t":2.4,"name":"single","state":"active"}"#,
            #"{"t":2.4,"name":"single","value":{"x":50,"y":50}}"#,
            #"{"t":2.4,"name":"single","state":"atRest"}"#,
        ])
    }

    @Test func swipeDirectionFromTheReleaseVelocity() throws {
        #expect(try run("swipe-direction") == [
            // The filtered stream forwards the gesture source's states: at rest at subscription,
            // active from `began` (translation 10 > 5 at 0.016; issue 22's default) to the end.
            #"{"t":0,"name":"direction","state":"atRest"}"#,
            #"{"t":0.016,"name":"direction","state":"active"}"#,
            // 10 units every 16 ms: release velocity 625 units/s (least squares over the last
            // 100 ms; 625.0000000000001 in floating point) > 100.
            #"{"t":0.112,"name":"direction","value":"forward"}"#,
            #"{"t":0.112,"name":"direction","state":"atRest"}"#,
            // 1 unit every 16 ms: 62.5 units/s (62.499999999999936) is within ±100: nothing.
            // It begins once the translation is 6 > 5, at 1 + 6·0.016.
            #"{"t":1.096,"name":"direction","state":"active"}"#,
            #"{"t":1.336,"name":"direction","state":"atRest"}"#,
            // −10 units every 16 ms: −625 units/s < −100.
            #"{"t":2.016,"name":"direction","state":"active"}"#,
            #"{"t":2.112,"name":"direction","value":"backward"}"#,
            #"{"t":2.112,"name":"direction","state":"atRest"}"#,
        ])
    }
}
