import MeshportCLI

// `meshport serve` with one route more, for tests and benchmarks only (EventsTests,
// Tools/Benchmarks/Serve/serve_bench.py): POST /api/test/events publishes synthetic events
// (SyntheticEvents.swift). Same arguments as `meshport serve`; never part of `meshport`.
await EmbeddedServe.main(Array(CommandLine.arguments.dropFirst()), extraRoutes: SyntheticEvents.addRoute)
