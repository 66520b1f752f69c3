package org.poollab.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;

/**
 * A point whose requests mostly failed with a 4xx measured a wrong target, path or body,
 * which no pool size changes: not a pool verdict. The sweep stops at the first such point
 * and writes no block, instead of a report about nothing.
 */
final class WrongTarget {

	/** More than this share of a point's requests answered 4xx: a wrong target. */
	static final double MOST = 0.5;

	private WrongTarget() {
	}

	/**
	 * The first such point, said in one line.
	 * @param points the points in the order they ran
	 * @param load what the load sends, e.g. {@code GET /vets x1}
	 */
	static Optional<String> first(List<Point> points, String load) {
		for (Point point : points) {
			Map<String, Long> clientErrors = point.statusCounts()
				.entrySet()
				.stream()
				.filter((status) -> status.getKey().matches("4[0-9][0-9]"))
				.collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
			long failed = clientErrors.values().stream().mapToLong(Long::longValue).sum();
			if (point.samples() > 0 && failed > MOST * point.samples()) {
				String status = clientErrors.entrySet()
					.stream()
					.max(Map.Entry.comparingByValue())
					.orElseThrow()
					.getKey();
				return Optional.of(String.format(Locale.ROOT,
						"Pool %s at %d rps: %d of %d requests (%.0f %%) answered HTTP %s to %s: a wrong target, path or body, not a pool verdict. The sweep stopped at this point and wrote no block; check bench.targets and bench.requests.",
						SweepResults.poolLabel(point.poolSize()), point.rateRps(), failed, point.samples(),
						100.0 * failed / point.samples(), status, load));
			}
		}
		return Optional.empty();
	}

}
