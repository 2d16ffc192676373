import Foundation

/// Mean kinetic temperature (°C) of temperatures (°C) with weights (seconds), using
/// ΔH/R = 10 000 K; `nil` without positive total weight. Computed in log space so the tiny
/// Arrhenius factors (about e⁻³⁶ at 5 °C) keep their precision.
func meanKineticTemperature(_ values: [(temperature: Double, weight: Double)]) -> Double? {
    let activationOverGas = 10_000.0
    let weighted = values.filter { $0.weight > 0 && $0.temperature.isFinite }
    let totalWeight = weighted.reduce(0) { $0 + $1.weight }
    guard totalWeight > 0 else { return nil }
    let exponents = weighted.map { -activationOverGas / ($0.temperature + 273.15) }
    guard let largest = exponents.max() else { return nil }
    let sum = zip(weighted, exponents).reduce(0.0) { $0 + $1.0.weight * exp($1.1 - largest) }
    let logMean = largest + log(sum / totalWeight)
    return activationOverGas / -logMean - 273.15
}

extension Timeline {
    /// The alarms `rule` raises when the gaps for which `gapIsBeyond` is true are counted
    /// as beyond every limit and the others as inside.
    func evaluate(_ rule: Rule, gapIsBeyond: (Int) -> Bool) -> [Alarm] {
        let threshold = rule.threshold
        func isBeyond(_ slot: Slot) -> Bool {
            if let temperature = slot.temperature { return threshold.isBeyond(temperature) }
            return slot.gapIndex.map(gapIsBeyond) ?? false
        }
        switch rule.kind {
        case .continuous: return evaluateContinuous(rule, isBeyond: isBeyond)
        case .cumulative: return evaluateCumulative(rule, isBeyond: isBeyond)
        case .instantaneous: return evaluateInstantaneous(rule, isBeyond: isBeyond)
        case .meanKinetic: return evaluateMeanKinetic(rule, gapIsBeyond: gapIsBeyond)
        }
    }

    /// Tracks an exposure: seconds, unknown seconds, the most extreme recorded value.
    private struct Exposure {
        var seconds: TimeInterval = 0
        var unknownSeconds: TimeInterval = 0
        var extreme: Double?
        var firedAt: Date?

        mutating func add(
            _ slot: Slot, seconds pieceSeconds: TimeInterval, from pieceStart: Date,
            rule: Rule, limit: DurationLimit
        ) {
            let before = seconds
            seconds += pieceSeconds
            if slot.temperature == nil { unknownSeconds += pieceSeconds }
            if let temperature = slot.temperature {
                let current = extreme ?? temperature
                extreme = rule.threshold.direction == .high ? Swift.max(current, temperature) : Swift.min(current, temperature)
            }
            if firedAt == nil, limit.isReached(by: seconds) {
                // The moment within this piece at which the exposure reached the duration.
                let into = Swift.min(Swift.max(0, limit.seconds - before), pieceSeconds)
                firedAt = pieceStart.addingTimeInterval(into)
            }
        }

        func alarm(_ rule: Rule, day: String? = nil, runStart: Date? = nil) -> Alarm? {
            guard let firedAt else { return nil }
            return Alarm(
                rule: rule, firedAt: firedAt, exposure: seconds, value: extreme,
                excess: extreme.map { rule.threshold.excess(of: $0) }, day: day, runStart: runStart,
                unknownSeconds: unknownSeconds)
        }
    }

    private func evaluateContinuous(_ rule: Rule, isBeyond: (Slot) -> Bool) -> [Alarm] {
        guard let limit = rule.duration else { return [] }
        var run = Exposure()
        var runStart: Date?
        for slot in slots {
            guard isBeyond(slot) else {
                if let alarm = run.alarm(rule, runStart: runStart) { return [alarm] }
                run = Exposure()
                runStart = nil
                continue
            }
            if runStart == nil { runStart = slot.start }
            run.add(slot, seconds: slot.duration, from: slot.start, rule: rule, limit: limit)
        }
        return run.alarm(rule, runStart: runStart).map { [$0] } ?? []
    }

    private func evaluateCumulative(_ rule: Rule, isBeyond: (Slot) -> Bool) -> [Alarm] {
        guard let limit = rule.duration else { return [] }
        switch rule.scope {
        case .log:
            var total = Exposure()
            for slot in slots where isBeyond(slot) {
                total.add(slot, seconds: slot.duration, from: slot.start, rule: rule, limit: limit)
            }
            return total.alarm(rule).map { [$0] } ?? []
        case .day:
            var perDay = [Exposure](repeating: Exposure(), count: dayNames.count)
            for slot in slots where isBeyond(slot) {
                forEachDayPiece(of: slot) { day, start, seconds in
                    perDay[day].add(slot, seconds: seconds, from: start, rule: rule, limit: limit)
                }
            }
            return perDay.enumerated().compactMap { $0.element.alarm(rule, day: dayNames[$0.offset]) }
        }
    }

    private func evaluateInstantaneous(_ rule: Rule, isBeyond: (Slot) -> Bool) -> [Alarm] {
        // Any point beyond fires at once: a duration limit of zero, reached by the first slot.
        let immediately = DurationLimit(seconds: 0)
        var total = Exposure()
        for slot in slots where isBeyond(slot) {
            total.add(slot, seconds: slot.duration, from: slot.start, rule: rule, limit: immediately)
        }
        return total.alarm(rule).map { [$0] } ?? []
    }

    private func evaluateMeanKinetic(_ rule: Rule, gapIsBeyond: (Int) -> Bool) -> [Alarm] {
        let weight = interval > 0 ? interval : 1
        let valid = slots.compactMap { slot in slot.temperature.map { (temperature: $0, weight: weight) } }
        guard let end = slots.map(\.end).max() else { return [] }
        let validSeconds = Double(valid.count) * interval
        // Unknown time counted as beyond: its temperature has no bound, so it can carry the
        // MKT past any limit.
        let unknownBeyond = slots.filter { slot in slot.gapIndex.map(gapIsBeyond) ?? false }
        if !unknownBeyond.isEmpty {
            let unknownSeconds = unknownBeyond.reduce(0) { $0 + $1.duration }
            return [
                Alarm(
                    rule: rule, firedAt: end, exposure: validSeconds + unknownSeconds, value: nil,
                    excess: nil, day: nil, runStart: nil, unknownSeconds: unknownSeconds)
            ]
        }
        // Compared at micro-kelvin precision: a log held exactly at the limit gives an MKT
        // a few ulps off the limit, which must not decide a strict comparator.
        guard let mkt = meanKineticTemperature(valid), rule.threshold.isBeyond((mkt * 1e6).rounded() / 1e6) else {
            return []
        }
        return [
            Alarm(
                rule: rule, firedAt: end, exposure: validSeconds, value: mkt,
                excess: rule.threshold.excess(of: mkt), day: nil, runStart: nil, unknownSeconds: 0)
        ]
    }
}
