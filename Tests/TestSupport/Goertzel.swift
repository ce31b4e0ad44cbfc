/// Measures how much of a PCM signal's power sits at one frequency (the Goertzel algorithm: one
/// DFT bin, no FFT), so a test can say "the 1 kHz tone arrived" about audio a real decoder made.
public enum Goertzel {
    /// Power at `frequency` Hz in `samples` (mono, any scale), normalised so a full-scale sine at
    /// that frequency gives about 0.25 × amplitude² whatever the length.
    public static func power(of samples: [Double], at frequency: Double, sampleRate: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let omega = 2 * Double.pi * frequency / sampleRate
        let coefficient = 2 * cos(omega)
        var previous = 0.0
        var beforePrevious = 0.0
        for sample in samples {
            let current = sample + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        let n = Double(samples.count)
        return power / (n * n)
    }

    /// Mean square of `samples` (the total power the tone's share is judged against).
    public static func meanSquare(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)
    }

    /// Signed 16-bit little-endian PCM (what `ffmpeg -f s16le` writes) as Doubles in −1...1.
    public static func samples(fromS16LE bytes: [UInt8]) -> [Double] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { index in
            Double(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) / 32768
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
