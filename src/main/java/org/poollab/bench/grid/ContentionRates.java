package org.poollab.bench.grid;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.Grid.Planned;

/**
 * The {@code contention} preset's rates, as shares of what the database's CPU carries on
 * this box, and whether its three instances run here. A CPU-bound hold cannot run in slow
 * motion (the database's CPU is what is measured), so the question itself is scaled to
 * the box: fixed rates (140 and 180 rps) put one 2-core machine at the edge the question
 * needs and the next of the same kind past it (src/site/markdown/measurements.md).
 */
public final class ContentionRates {

	/**
	 * The lower rate's share of the database's CPU ceiling
	 * ({@code DatabaseScaling.ceiling}: the service's transaction with its CPU hold, back
	 * to back on twice the box's cores in connections, with nothing else running).
	 */
	public static final double LOW_SHARE = 0.35;

	/**
	 * The higher rate's share. The preset was designed at 140 and 180 rps with 5 ms of
	 * database CPU a request on 2 cores: 2 cores ÷ 5 ms is 400 rps, the most the database
	 * could do there had it both cores and each request cost exactly its 5 ms, and the
	 * rates were 0.35 and 0.45 of it. Where one instance repeated its answer, that left
	 * the rest of the box to the service, nginx and JMeter, whose cost is per request
	 * too. Of a measured ceiling, which already counts what each request really costs the
	 * database here, the same shares ask every box the same question: pool 1 (at most
	 * 1000 ÷ 5 ms requests a second) cannot carry the higher rate on 2 cores or more, and
	 * the large pools meet a database busy enough for its cores to be contended.
	 */
	public static final double HIGH_SHARE = 0.45;

	/**
	 * The share of the three instances' measured capacity the preset's highest rate may
	 * take: the slow-motion rule's ({@link TimeScale#SAFE_SHARE}), since a hold of
	 * database CPU cannot run slower instead.
	 */
	public static final double MULTI_SAFE_SHARE = TimeScale.SAFE_SHARE;

	private ContentionRates() {
	}

	/**
	 * The preset's rates on this box.
	 * @param ceilingRps what the database's CPU carries here, requests per second
	 * @param splitOver the load generators the rate is split between (remote engines each
	 * run the whole plan at rate ÷ engines), 1 for JMeter here
	 * @return {@link #LOW_SHARE} and {@link #HIGH_SHARE} of it, rounded down to a
	 * multiple of {@code splitOver}, distinct, at least {@code splitOver}
	 * @throws IllegalArgumentException for a ceiling that is not a positive number
	 */
	public static List<Integer> of(double ceilingRps, int splitOver) {
		if (!(ceilingRps > 0) || Double.isInfinite(ceilingRps)) {
			throw new IllegalArgumentException("the database's CPU ceiling must be a positive number of requests per "
					+ "second, was " + ceilingRps);
		}
		int step = Math.max(1, splitOver);
		TreeSet<Integer> rates = new TreeSet<>();
		for (double share : List.of(LOW_SHARE, HIGH_SHARE)) {
			rates.add(Math.max(step, (int) Math.floor(share * ceilingRps / step) * step));
		}
		return List.copyOf(rates);
	}

	/**
	 * The planned points with the preset's fixed rates replaced by the measured ones,
	 * lowest for lowest; where the measured ones are fewer (a ceiling so low that both
	 * shares round to one rate) the higher fixed rates take the highest measured, and the
	 * points that then coincide are planned once.
	 * @param planned the points planned with {@code fixed}
	 * @param fixed the preset's rates
	 * @param measured the rates of {@link #of}, lowest first
	 */
	public static List<Planned> replan(List<Planned> planned, List<Integer> fixed, List<Integer> measured) {
		List<Integer> from = fixed.stream().sorted().toList();
		List<Integer> to = measured.stream().sorted().toList();
		Map<Integer, Integer> byRate = from.stream()
			.collect(Collectors.toMap(Function.identity(),
					(rate) -> to.get(Math.min(from.indexOf(rate), to.size() - 1))));
		return planned.stream()
			.map((point) -> new Planned(point.topology(), point.instances(), point.vendor(), point.stack(),
					point.threads(), point.poolSize(), byRate.getOrDefault(point.rateRps(), point.rateRps()),
					point.repeat()))
			.distinct()
			.toList();
	}

	/**
	 * Whether the preset's three instances run on this box: only where the capacity probe
	 * found them carrying the highest rate at {@link #MULTI_SAFE_SHARE}; the one instance
	 * runs everywhere.
	 * @param multiCapacityRps what the probe found three instances carry, total requests
	 * per second; {@code null} when not even its lowest step held
	 * @param ratesRps the preset's rates on this box
	 */
	public static MultiRun multi(@Nullable Integer multiCapacityRps, List<Integer> ratesRps) {
		int highest = ratesRps.stream().mapToInt(Integer::intValue).max().orElseThrow();
		int needsRps = (int) Math.ceil(highest / MULTI_SAFE_SHARE);
		if (multiCapacityRps != null && multiCapacityRps >= needsRps) {
			return new MultiRun(true, Optional.empty());
		}
		String carries = (multiCapacityRps != null) ? multiCapacityRps + " rps"
				: "not even the capacity probe's lowest step";
		return new MultiRun(false, Optional.of(String.format(Locale.ROOT,
				"three instances not run: this box carries %s across three instances, the contention question needs %d rps "
						+ "(its highest rate, %d rps, is at most %.0f %% of what they carry)",
				carries, needsRps, highest, 100 * MULTI_SAFE_SHARE)));
	}

	/**
	 * Whether the three instances run, and the one line to print when not.
	 *
	 * @param runs whether they run
	 * @param notRun the line, when they do not
	 */
	public record MultiRun(boolean runs, Optional<String> notRun) {

		/**
		 * The planned points that run: all of them, or none of the three instances', so
		 * that nothing is half measured.
		 */
		public List<Planned> keep(List<Planned> planned) {
			return this.runs ? planned
					: planned.stream().filter((point) -> point.topology() != Topology.MULTI).toList();
		}

	}

}
