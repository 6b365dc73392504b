import MeshCodec

/// The simulation's generator: one word of state, so a run reproduces from its seed and the
/// generator lives inside the value-type state.
public typealias SimRNG = SplitMix64
