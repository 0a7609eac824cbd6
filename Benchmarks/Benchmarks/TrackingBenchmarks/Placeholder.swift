let benchmarks: @Sendable () -> Void = {}
